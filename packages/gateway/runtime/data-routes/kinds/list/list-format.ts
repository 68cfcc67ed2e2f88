/**
 * @module What a list request asks for: a JSON page, or an export (CSV, NDJSON or Parquet). `format` wins
 * (a link opened in a browser or a spreadsheet cannot set `Accept`); otherwise `Accept`, by its
 * preferences (q-values), with JSON first among equals so that `*\/*` and browsers get JSON.
 */
import type { Request } from 'express';
import { EXPORT_FORMAT_NAMES, EXPORT_FORMATS } from '../../../export-formats';
import type { ListFormat } from '../../../query/parse-query';

/** JSON first: among equal preferences, `req.accepts` takes the first. */
const BY_MEDIA_TYPE: Readonly<Record<string, ListFormat>> = Object.fromEntries([
  ['application/json', 'json'],
  ...EXPORT_FORMAT_NAMES.map((name) => [EXPORT_FORMATS[name].mediaType, name]),
]);

export function listFormatOf(req: Request, format: unknown): ListFormat {
  if (format === 'json' || (typeof format === 'string' && Object.hasOwn(EXPORT_FORMATS, format))) return format as ListFormat;
  // A malformed `format` is refused by the query check that follows; until then, JSON.
  if (format !== undefined || !req.headers.accept) return 'json';
  const chosen = req.accepts(Object.keys(BY_MEDIA_TYPE));
  return (chosen && BY_MEDIA_TYPE[chosen]) || 'json';
}
