/**
 * @module The export formats as the documents describe them: the generator's side of route-kinds.ts's
 * EXPORT_FORMATS, keyed by its `ExportFormat` and typed by its media types, so that a format declared
 * there and not described here (or described with another media type) fails the type check. The
 * export route's OpenAPI operation, the `format` values of the list and export query schemas and the
 * docs all come from this one table, in its order (the first is the default of the export route).
 */
import type { ExportFormat, ExportFormats } from '../../packages/gateway/runtime/route-kinds';

interface DescribedFormat<F extends ExportFormat> {
  readonly mediaType: ExportFormats[F]['mediaType'];
  readonly extension: ExportFormats[F]['extension'];
  /** What a file of this format holds, for the OpenAPI document's media type. */
  readonly description: string;
}

export const EXPORT_FORMATS: { readonly [F in ExportFormat]: DescribedFormat<F> } = {
  csv: {
    mediaType: 'text/csv',
    extension: 'csv',
    description:
      'RFC 4180 CSV in UTF-8, CRLF line ends, a header row of the field names. `null` is an empty field; an empty text is `""`; booleans `true`/`false`; arrays as JSON text (`[1,2]`, `["a","b"]`); date-times ISO 8601 with `Z`. A text a spreadsheet would read as a formula (beginning with `=`, `+`, `-`, `@`, a tab or a carriage return) has a `\'` in front unless `csv_formulas=raw`; numbers are never changed. With `changed_since`, a last column `_removed` (`true` for a record to drop, with only its `id`).',
  },
  ndjson: {
    mediaType: 'application/x-ndjson',
    extension: 'ndjson',
    description:
      'One JSON record per line (the records of the JSON list, unchanged), `\\n` after each. With `changed_since`, every line also has `_removed` (`true` for a record to drop, with only its `id`).',
  },
};

/** The formats' names, in the table's order. */
export const EXPORT_FORMAT_NAMES = Object.keys(EXPORT_FORMATS) as ExportFormat[];

/** `csv`, `ndjson` as Markdown: `` `csv` or `ndjson` ``. */
export function formatList(conjunction = 'or'): string {
  const names = EXPORT_FORMAT_NAMES.map((name) => `\`${name}\``);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} ${conjunction} ${names[names.length - 1]}`;
}
