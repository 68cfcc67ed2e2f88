/**
 * @module An export: every record a list query matches, in one of the export formats, streamed from
 * the ERP page by page (export/exporter.ts), never cached. The export route answers with it, and the
 * list route when an export is asked there (`format`, `Accept`: kept for compatibility).
 */
import type { ListQuery } from '../query/parse-query';
import { erpStatsOf, setCacheOutcome } from '../request/request-context';
import type { ExportFormat } from '../route-kinds';
import { deprecationHeaders } from './deprecation';
import type { Admitted, KindDependencies } from './kind-route';

export function exportAnswer({ exporter }: KindDependencies) {
  return async (query: ListQuery, format: ExportFormat, { req, res, principal, resource }: Admitted): Promise<void> => {
    // Read from the ERP as it is asked: an export is never cached.
    setCacheOutcome(res, 'bypass');
    for (const [name, value] of Object.entries(deprecationHeaders(resource, query.deprecated))) res.setHeader(name, value);
    await exporter.stream(principal, resource, query, format, req, res, erpStatsOf(res));
  };
}
