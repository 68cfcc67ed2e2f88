/**
 * @module What a list request asks for: a JSON page, or an export (CSV or NDJSON). `format` wins
 * (a link opened in a browser or a spreadsheet cannot set `Accept`); otherwise `Accept`, by its
 * preferences (q-values), with JSON first among equals so that `*\/*` and browsers get JSON.
 */
import type { Request } from 'express';
import type { ListFormat } from '../../../query/parse-query';

const BY_MEDIA_TYPE: Readonly<Record<string, ListFormat>> = {
  'application/json': 'json',
  'text/csv': 'csv',
  'application/x-ndjson': 'ndjson',
};

export function listFormatOf(req: Request, format: unknown): ListFormat {
  if (format === 'csv' || format === 'ndjson' || format === 'json') return format;
  // A malformed `format` is refused by the query check that follows; until then, JSON.
  if (format !== undefined || !req.headers.accept) return 'json';
  const chosen = req.accepts(Object.keys(BY_MEDIA_TYPE));
  return (chosen && BY_MEDIA_TYPE[chosen]) || 'json';
}
