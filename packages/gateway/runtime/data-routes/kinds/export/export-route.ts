/**
 * @module The export route, `GET /api/v1/<domain>/<resource>/export`: every record the list's
 * filters match, as a file in one of the export formats (route-kinds.ts's EXPORT_FORMATS, asked by
 * `format` or `Accept`, CSV by default), streamed (data-routes/export-answer.ts). The change feed too,
 * with `changed_since`. Its own operation in the OpenAPI document, so that the list route's declares
 * JSON alone and a typed client's `data` is the page. Charged as a list, as an export on the list
 * route is.
 */
import { servableListQuery } from '../../../drift/drift-gaps';
import { assertCountedQuery, assertUsableQuery, type ParsedQuery } from '../../../http/strict-query';
import type { ListQuery } from '../../../query/parse-query';
import type { ExportFormat } from '../../../route-kinds';
import { exportAnswer } from '../../export-answer';
import { exportFormatOf } from '../../export-format';
import type { DataKind, KindRoute } from '../../kind-route';

/** What an export request asks: its query, and in which format. */
interface ExportAsked {
  readonly query: ListQuery;
  readonly format: ExportFormat;
}

export const exportKind: DataKind = (deps) => {
  const exported = exportAnswer(deps);
  return (resource): KindRoute<ExportAsked> => {
    const parser = deps.parserOf(resource);
    return {
      read(call) {
        const raw = call.req.query as ParsedQuery;
        assertCountedQuery(raw);
        if (parser.knowsEveryKey(raw, 'export')) assertUsableQuery(raw);
        const format = exportFormatOf(call.req, raw['format']);
        const parsed = parser.parseExport(raw, format);
        const gaps = call.gaps();
        const query = gaps ? servableListQuery(parsed, gaps) : parsed;
        // A change-feed position ahead of the clock is refused before anything is charged or read.
        if (query.changes) deps.changes.assertNotAhead(query.changes);
        return { query, format };
      },
      costOf: () => 'list',
      answer: ({ query, format }, call) => exported(query, format, call),
    };
  };
};
