/**
 * @module Which format a request asks for, by `format` or by `Accept`. `format` wins (a link opened in
 * a browser or a spreadsheet cannot set `Accept`); otherwise `Accept`, by its preferences (q-values).
 * The formats are route-kinds.ts's EXPORT_FORMATS.
 */
import type { Request } from 'express';
import type { ListFormat } from '../query/parse-query';
import { EXPORT_FORMAT_ORDER, EXPORT_FORMATS, type ExportFormat } from '../route-kinds';

const EXPORT_BY_MEDIA_TYPE: ReadonlyMap<string, ExportFormat> = new Map(EXPORT_FORMAT_ORDER.map((format) => [EXPORT_FORMATS[format].mediaType, format]));
const LIST_FORMATS: readonly ListFormat[] = ['json', ...EXPORT_FORMAT_ORDER];
const LIST_BY_MEDIA_TYPE: ReadonlyMap<string, ListFormat> = new Map<string, ListFormat>([['application/json', 'json'], ...EXPORT_BY_MEDIA_TYPE]);

/**
 * On the list route: JSON, unless `format` or `Accept` asks for an export format; JSON first among
 * equals, so that `*\/*` and browsers get JSON.
 */
export function listFormatOf(req: Request, format: unknown): ListFormat {
  if (LIST_FORMATS.includes(format as ListFormat)) return format as ListFormat;
  // A malformed `format` is refused by the query check that follows; until then, JSON.
  if (format !== undefined || !req.headers.accept) return 'json';
  const chosen = req.accepts([...LIST_BY_MEDIA_TYPE.keys()]);
  return (chosen && LIST_BY_MEDIA_TYPE.get(chosen)) || 'json';
}

/**
 * On the export route: the format `format` names, else the one `Accept` prefers among the export
 * formats, else the first declared (CSV): an `Accept` of `*\/*`, `application/json` or none.
 */
export function exportFormatOf(req: Request, format: unknown): ExportFormat {
  const first = EXPORT_FORMAT_ORDER[0] as ExportFormat;
  if (EXPORT_FORMAT_ORDER.includes(format as ExportFormat)) return format as ExportFormat;
  // A malformed `format` is refused by the query check that follows; until then, the first.
  if (format !== undefined || !req.headers.accept) return first;
  const chosen = req.accepts([...EXPORT_BY_MEDIA_TYPE.keys()]);
  return (chosen && EXPORT_BY_MEDIA_TYPE.get(chosen)) || first;
}
