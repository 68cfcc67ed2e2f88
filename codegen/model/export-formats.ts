/**
 * @module The export formats as the generated documents describe them: each format declared in the
 * runtime's export-formats.ts (read for its types only), restated with its media type typed by the
 * declared literal, so that the two cannot differ and a format declared there without a line here
 * fails the type check. The query schema's `format` values, the OpenAPI `Format` parameter and the
 * list operation's media types come from this table.
 */
import type { CsvDialect, ExportFormat, ExportFormats } from '../../packages/gateway/runtime/export-formats';

interface ExportFormatDocs<F extends ExportFormat> {
  readonly mediaType: ExportFormats[F]['mediaType'];
  /** The body's description in the list operation. */
  readonly description: string;
  /** Bytes, not text (OpenAPI `format: binary`). */
  readonly binary?: true;
}

export const EXPORT_FORMAT_DOCS: { readonly [F in ExportFormat]: ExportFormatDocs<F> } = {
  csv: {
    mediaType: 'text/csv',
    description:
      'RFC 4180 CSV in UTF-8, CRLF line ends, a header row of the field names. `null` is an empty field; an empty text is `""`; booleans `true`/`false`; arrays as JSON text (`[1,2]`, `["a","b"]`); date-times ISO 8601 with `Z`. A text a spreadsheet would read as a formula (beginning with `=`, `+`, `-`, `@`, a tab or a carriage return) has a `\'` in front unless `csv_formulas=raw`; numbers are never changed. `csv_dialect=excel` or `excel-semicolon` writes what Excel opens as it should. With `changed_since`, a last column `_removed` (`true` for a record to drop, with only its `id`).',
  },
  ndjson: {
    mediaType: 'application/x-ndjson',
    description:
      'One JSON record per line (the records of the JSON list, unchanged), `\\n` after each. With `changed_since`, every line also has `_removed` (`true` for a record to drop, with only its `id`).',
  },
  parquet: {
    mediaType: 'application/vnd.apache.parquet',
    binary: true,
    description:
      'Apache Parquet, every column typed from the record schema, so that DuckDB, pandas, Polars, Spark or Power BI load each value as what it is, nothing detected: `integer` INT32, `number` DOUBLE, `boolean` BOOLEAN, `string` and enums STRING, `date` DATE, `date-time` TIMESTAMP (microseconds, UTC), arrays LIST of STRING or INT32; every column but `id` OPTIONAL (a field the ERP lacks or the account may not read is null). One row group per 1,000 records, snappy-compressed (never gzip or brotli on top). With `changed_since`, a last column `_removed` (BOOLEAN) says which rows are records to drop.',
  },
};

/** The export formats in their declared order. */
export const EXPORT_FORMAT_NAMES = Object.keys(EXPORT_FORMAT_DOCS) as readonly ExportFormat[];
/** The `format` values, JSON first (the page), then the exports. */
export const LIST_FORMATS: readonly string[] = ['json', ...EXPORT_FORMAT_NAMES];

/** The `csv_dialect` values, as the runtime declares them: a value missing here or unknown there fails the type check. */
const DIALECTS: { readonly [D in CsvDialect]: true } = { rfc4180: true, excel: true, 'excel-semicolon': true };
export const CSV_DIALECT_VALUES = Object.keys(DIALECTS) as readonly CsvDialect[];
