/**
 * @module How an export writes records: CSV (RFC 4180) or NDJSON, a page at a time. The CSV text is
 * csv-stringify's: quoting, doubled quotes and line breaks inside fields are the part of RFC 4180
 * that is easy to get wrong by hand.
 *
 * CSV, as documented in the README and OpenAPI: UTF-8, CRLF line ends, a header row of the field
 * names; `null` is an empty field and an empty text `""`, so the two stay apart (DuckDB: read with
 * `allow_quoted_nulls = false`); booleans `true`/`false`; arrays as JSON text; numbers as JSON
 * writes them. NDJSON: each record as the JSON list gives it, one per line.
 *
 * CSV injection: ERP texts are typed by outsiders (vendors, travellers, ticket authors), and a cell a
 * spreadsheet reads as a formula (`=HYPERLINK(...)`, `=cmd|...`) runs when the file is opened. By
 * default (`csv_formulas=escaped`) a text beginning with `=`, `+`, `-`, `@`, a tab or a carriage return
 * (or the full-width `＝＋－＠`) gets a `'` in front, OWASP's advice, which Excel and LibreOffice show as
 * text: csv-stringify's `escape_formulas`, which looks at text cells only, so a number such as `-12.5`
 * stays a number. `csv_formulas=raw` writes every text as it is, for loaders that are not spreadsheets.
 * With the change feed, each row also says `_removed`: a record that left the resource comes as its
 * id alone with `_removed` true.
 */
import { stringify } from 'csv-stringify/sync';
import type { ChangeEntry } from '../changes/change-feed';
import type { CsvFormulas } from '../query/parse-query';
import type { FieldSpec } from '../resource-spec';
import { EXPORT_FORMATS, type ExportFormat } from '../route-kinds';

export interface ExportEncoder {
  readonly contentType: string;
  readonly extension: string;
  /** What comes before the first record (the CSV header row). */
  head(): string;
  encode(entries: readonly ChangeEntry[]): string;
}

/** The column a change-feed export adds. */
const REMOVED = '_removed';

type EncoderMaker = (fields: readonly Pick<FieldSpec, 'name'>[], changeFeed: boolean, formulas: CsvFormulas) => ExportEncoder;

/** An encoder for each format route-kinds.ts declares (EXPORT_FORMATS): a format without one fails the type check. */
const ENCODERS: { readonly [F in ExportFormat]: EncoderMaker } = {
  csv: csvEncoder,
  ndjson: (_fields, changeFeed) => ndjsonEncoder(changeFeed),
};

/** `fields`: the columns of a CSV (records' field names, or an aggregate answer's keys). */
export function encoderFor(format: ExportFormat, fields: readonly Pick<FieldSpec, 'name'>[], changeFeed: boolean, formulas: CsvFormulas): ExportEncoder {
  return ENCODERS[format](fields, changeFeed, formulas);
}

function csvEncoder(fields: readonly Pick<FieldSpec, 'name'>[], changeFeed: boolean, formulas: CsvFormulas): ExportEncoder {
  const columns = fields.map((field) => field.name);
  if (changeFeed) columns.push(REMOVED);
  const options = {
    columns,
    record_delimiter: 'windows',
    // With a record delimiter given, csv-stringify quotes only values holding that delimiter unless
    // told: a bare LF or CR inside a text must be quoted too (RFC 4180), or loaders split the row.
    quote_record_delimiter: true,
    // Only an empty text is quoted (`""`); a null stays an empty field (`quoted_empty` would quote both).
    quoted_match: /^$/,
    escape_formulas: formulas === 'escaped',
    cast: {
      boolean: (value: boolean) => (value ? 'true' : 'false'),
      // Arrays (the only objects a record holds) as JSON text, which any loader can parse back.
      object: (value: object) => JSON.stringify(value),
    },
  } as const;
  const row = (entry: ChangeEntry): Record<string, unknown> => {
    if (!changeFeed) return entry.record as Record<string, unknown>;
    return entry.record ? { ...entry.record, [REMOVED]: false } : { id: entry.id, [REMOVED]: true };
  };
  return {
    contentType: `${EXPORT_FORMATS.csv.mediaType}; charset=utf-8; header=present`,
    extension: EXPORT_FORMATS.csv.extension,
    head: () => stringify([], { ...options, header: true }),
    encode: (entries) => (entries.length ? stringify(entries.map(row), options) : ''),
  };
}

function ndjsonEncoder(changeFeed: boolean): ExportEncoder {
  const line = (entry: ChangeEntry): string => {
    if (!changeFeed) return JSON.stringify(entry.record);
    return JSON.stringify(entry.record ? { ...entry.record, [REMOVED]: false } : { id: entry.id, [REMOVED]: true });
  };
  return {
    contentType: `${EXPORT_FORMATS.ndjson.mediaType}; charset=utf-8`,
    extension: EXPORT_FORMATS.ndjson.extension,
    head: () => '',
    encode: (entries) => {
      let text = '';
      for (const entry of entries) text += `${line(entry)}\n`;
      return text;
    },
  };
}
