/**
 * @module The export route, `GET /api/v1/<domain>/<resource>/export`: every record the list's
 * filters match, as a file in one of the export formats (route-kinds.ts's EXPORT_FORMATS, asked by
 * `format` or `Accept`, CSV by default), streamed (data-routes/export-answer.ts). The change feed too,
 * with `changed_since`. Its own operation in the OpenAPI document, so that the list route's declares
 * JSON alone and a typed client's `data` is the page. Charged `export` (a cost kind of its own), as
 * an export on the list route is.
 */
import type { ListQuery } from '../../../query/parse-query';
import type { ExportFormat } from '../../../route-kinds';
import { exportAnswer } from '../../export-answer';
import { exportFormatOf } from '../../export-format';
import type { DataKind, KindRoute } from '../../kind-route';
import { readListedQuery } from '../../listed-query';

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
        let format: ExportFormat = 'csv';
        const query = readListedQuery(call, deps, parser, 'export', (raw) => {
          format = exportFormatOf(call.req, raw['format']);
          return parser.parseExport(raw, format);
        });
        return { query, format };
      },
      costOf: () => 'export',
      answer: ({ query, format }, call) => exported(query, format, call),
    };
  };
};
