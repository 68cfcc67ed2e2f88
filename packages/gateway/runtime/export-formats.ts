/**
 * @module The export formats of a list route, declared once: the name `format=` takes, the media type
 * `Accept` asks for and the answer's file extension. Adding a format is a line here; the type checker
 * then lists what still lacks it: its encoder (export/export-encoders.ts) and, in the generator, its
 * OpenAPI media type and description (codegen/kinds/list/export-formats.ts, typed by this table so
 * the two cannot differ).
 *
 * A leaf, like route-kinds.ts: it imports nothing, and the generator imports its types only.
 */
export const EXPORT_FORMATS = {
  csv: { mediaType: 'text/csv', extension: 'csv', compressible: true },
  ndjson: { mediaType: 'application/x-ndjson', extension: 'ndjson', compressible: true },
  /** Typed columns (export/parquet-encoder.ts); already compressed inside (snappy): never gzip or brotli on top. */
  parquet: { mediaType: 'application/vnd.apache.parquet', extension: 'parquet', compressible: false },
} as const satisfies Readonly<Record<string, { readonly mediaType: string; readonly extension: string; readonly compressible: boolean }>>;

export type ExportFormats = typeof EXPORT_FORMATS;
export type ExportFormat = keyof ExportFormats;
/** The formats in their declared order. */
export const EXPORT_FORMAT_NAMES = Object.keys(EXPORT_FORMATS) as readonly ExportFormat[];

/** `csv_dialect` (CSV exports only): RFC 4180 as loaders read it, or what Excel opens as it should. */
export type CsvDialect = 'rfc4180' | 'excel' | 'excel-semicolon';
