/**
 * @module An export of a list route: every matching record as CSV or NDJSON, streamed from the ERP
 * page by page (export/exporter.ts), never cached.
 */
import type { ListQuery } from '../../../query/parse-query';
import { erpStatsOf, setCacheOutcome } from '../../../request/request-context';
import type { ExportFormat } from '../../../export/export-encoders';
import { deprecationHeaders } from '../../deprecation';
import type { Admitted, KindDependencies } from '../../kind-route';

export function exportAnswer({ exporter }: KindDependencies) {
  return async (query: ListQuery, format: ExportFormat, { req, res, principal, resource }: Admitted): Promise<void> => {
    // Read from the ERP as it is asked: an export is never cached.
    setCacheOutcome(res, 'bypass');
    for (const [name, value] of Object.entries(deprecationHeaders(resource, query.deprecated))) res.setHeader(name, value);
    await exporter.stream(principal, resource, query, format, req, res, erpStatsOf(res));
  };
}
