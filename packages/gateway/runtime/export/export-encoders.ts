/**
 * @module How an export writes records: CSV (RFC 4180), NDJSON or Parquet (parquet-encoder.ts), a page at a time. The CSV text is
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
 *
 * Excel (`csv_dialect=excel`): Excel reads a CSV without a byte-order mark in the machine's legacy
 * code page (an `é` becomes `Ã©`), and keeps an ISO 8601 date-time with its `T` and `Z` as text. So
 * the file begins with the UTF-8 BOM, date-times are written `2026-01-05 14:30:00` (UTC, as every
 * date-time of the API) and booleans `TRUE`/`FALSE`, which Excel reads as dates and booleans in any
 * language. `excel-semicolon` is the same for the locales whose list separator is `;` and decimal
 * separator `,` (French, German, Spanish...): Excel opening a comma-separated file there puts each
 * row in one cell, and reads `12.5` as text or a date.
 */
import { stringify } from 'csv-stringify/sync';
import type { ChangeEntry } from '../changes/change-feed';
import type { CsvFormulas } from '../query/parse-query';
import type { FieldSpec } from '../resource-spec';
import { EXPORT_FORMATS, type CsvDialect, type ExportFormat } from '../route-kinds';
import type { ExportEncoder } from './export-encoder';
import { parquetEncoder } from './parquet-encoder';

/** How a CSV export is written: `csv_formulas` and `csv_dialect`. */
export interface CsvOptions {
  readonly formulas: CsvFormulas;
  readonly dialect: CsvDialect;
}

/** The column a change-feed export adds. */
const REMOVED = '_removed';

/** An encoder for each format route-kinds.ts declares (EXPORT_FORMATS): a format without one fails the type check. */
const ENCODERS: Readonly<Record<ExportFormat, (fields: readonly FieldSpec[], changeFeed: boolean, csv: CsvOptions) => ExportEncoder>> = {
  csv: csvEncoder,
  ndjson: (_fields, changeFeed) => ndjsonEncoder(changeFeed),
  parquet: (fields, changeFeed) => parquetEncoder(fields, changeFeed),
};

export function encoderFor(format: ExportFormat, fields: readonly FieldSpec[], changeFeed: boolean, csv: CsvOptions): ExportEncoder {
  return ENCODERS[format](fields, changeFeed, csv);
}

/** An encoder that writes text (CSV, NDJSON). */
type TextEncoder = Omit<ExportEncoder, 'head' | 'encode' | 'tail'> & { head(): string; encode(entries: readonly ChangeEntry[]): string };

/** An aggregate answer's groups as a file: `columns` are the groups' keys, in order; no Parquet (no field types). */
export function groupsEncoder(format: 'csv' | 'ndjson', columns: readonly string[], formulas: CsvFormulas): TextEncoder {
  // Both write text: csv-stringify's strings, JSON lines.
  const encoder =
    format === 'csv'
      ? csvEncoder(
          columns.map((name) => ({ name })),
          false,
          { formulas, dialect: 'rfc4180' },
        )
      : ndjsonEncoder(false);
  return encoder as TextEncoder;
}

const UTF8_BOM = '\uFEFF';

/** A CSV of `fields`' columns (a record's fields, or the keys of an aggregate's groups: names, and date-time formats for Excel). */
function csvEncoder(fields: readonly Pick<FieldSpec, 'name' | 'format'>[], changeFeed: boolean, { formulas, dialect }: CsvOptions): ExportEncoder {
  const columns = fields.map((field) => field.name);
  if (changeFeed) columns.push(REMOVED);
  const excel = dialect !== 'rfc4180';
  const decimalComma = dialect === 'excel-semicolon';
  const options = {
    columns,
    delimiter: decimalComma ? ';' : ',',
    record_delimiter: 'windows',
    // With a record delimiter given, csv-stringify quotes only values holding that delimiter unless
    // told: a bare LF or CR inside a text must be quoted too (RFC 4180), or loaders split the row.
    quote_record_delimiter: true,
    // Only an empty text is quoted (`""`); a null stays an empty field (`quoted_empty` would quote both).
    quoted_match: /^$/,
    escape_formulas: formulas === 'escaped',
    cast: {
      boolean: excel ? (value: boolean) => (value ? 'TRUE' : 'FALSE') : (value: boolean) => (value ? 'true' : 'false'),
      // Integers have no decimal point: only fractional numbers change.
      ...(decimalComma ? { number: (value: number) => String(value).replace('.', ',') } : {}),
      // Arrays (the only objects a record holds) as JSON text, which any loader can parse back.
      object: (value: object) => JSON.stringify(value),
    },
  } as const;
  const dateTimes = excel ? fields.filter((field) => field.format === 'date-time').map((field) => field.name) : [];
  const row = (entry: ChangeEntry): Record<string, unknown> => {
    let record = (changeFeed ? (entry.record ? { ...entry.record, [REMOVED]: false } : { id: entry.id, [REMOVED]: true }) : entry.record) as Record<string, unknown>;
    if (dateTimes.length && entry.record) {
      record = changeFeed ? record : { ...record };
      for (const name of dateTimes) record[name] = excelDateTime(record[name]);
    }
    return record;
  };
  return {
    contentType: `${EXPORT_FORMATS.csv.mediaType}; charset=utf-8; header=present`,
    extension: EXPORT_FORMATS.csv.extension,
    head: () => (excel ? UTF8_BOM : '') + stringify([], { ...options, header: true }),
    encode: (entries) => (entries.length ? stringify(entries.map(row), options) : ''),
  };
}

/** `2026-01-05T14:30:00Z` as Excel reads a date-time: `2026-01-05 14:30:00` (still UTC). */
function excelDateTime(value: unknown): unknown {
  return typeof value === 'string' ? value.replace('T', ' ').replace(/Z$/, '') : value;
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
