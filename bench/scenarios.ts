/**
 * @module The benchmark's scenarios on `stock/pickings` (the model scaled to 1,000,000 rows): each
 * is a gateway request and the ERP call(s) the gateway itself sends for it, built with the runtime's
 * own query parser and request builders so that both sides ask the ERP exactly the same thing.
 */
import Ajv2020 from 'ajv/dist/2020';
import { STOCK_PICKINGS } from '@ops-data-gateway/gateway/generated/resources/stock';
import { detailRequest, ERP_CONTEXT, listRequests, type PageRequest } from '@ops-data-gateway/gateway/runtime/erp-requests';
import { QueryParser, type ListQuery } from '@ops-data-gateway/gateway/runtime/query/parse-query';
import type { LoadRequest } from './load-generator';

export const RESOURCE = STOCK_PICKINGS;
const parser = new QueryParser(RESOURCE, new Ajv2020({ strict: true, verbose: true }));

/** A list query of the resource as the gateway parses it (the export bench builds its direct paging from it). */
export function parseListQuery(raw: Readonly<Record<string, string>>): ListQuery {
  return parser.parseList(raw);
}

export interface Scenario {
  readonly id: string;
  readonly title: string;
  /** Which gateway serves it: the normal one, or one with the auth cache disabled. */
  readonly gateway: 'warm' | 'cold';
  readonly request: LoadRequest;
  /** The direct ERP call(s); several are timed as one sequence. Absent: no direct side. */
  readonly direct?: readonly LoadRequest[];
}

export interface ScenarioContext {
  readonly key: string;
  readonly database: string;
  readonly rows: number;
  /** A picking's origin text and scheduled date, to build a filter that matches. */
  readonly sample: { readonly origin: string; readonly scheduledDate: string };
}

function json2(context: Pick<ScenarioContext, 'key' | 'database'>, method: string, body: object): LoadRequest {
  return {
    method: 'POST',
    path: `/json/2/${RESOURCE.model}/${method}`,
    headers: { Authorization: `bearer ${context.key}`, 'X-Odoo-Database': context.database, 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...body, context: ERP_CONTEXT }),
  };
}

function gatewayGet(context: ScenarioContext, path: string): LoadRequest {
  return { method: 'GET', path, headers: { Authorization: `Bearer ${context.key}` } };
}

/** The ERP call(s) the gateway sends for a list query, sent directly. */
export function directListCalls(context: Pick<ScenarioContext, 'key' | 'database'>, query: Record<string, string>): LoadRequest[] {
  const requests = listRequests(RESOURCE, parser.parseList(query));
  const direct = [json2(context, 'search_read', requests.page as PageRequest)];
  if (requests.countDomain) direct.push(json2(context, 'search_count', { domain: requests.countDomain }));
  return direct;
}

function listScenario(context: ScenarioContext, id: string, title: string, query: Record<string, string>): Scenario {
  return { id, title, gateway: 'warm', request: gatewayGet(context, `/api/v1/${RESOURCE.path}?${new URLSearchParams(query)}`), direct: directListCalls(context, query) };
}

export function scenarios(context: ScenarioContext): Scenario[] {
  const middle = Math.max(1, Math.floor(context.rows / 2));
  const detail = (gateway: 'warm' | 'cold', id: string, title: string): Scenario => ({
    id,
    title,
    gateway,
    request: gatewayGet(context, `/api/v1/${RESOURCE.path}/${middle}`),
    direct: [json2(context, 'search_read', detailRequest(RESOURCE, middle, parser.parseDetail({})))],
  });
  const day = context.sample.scheduledDate.slice(0, 10);
  const shift = (days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86400000).toISOString().slice(0, 10);
  const text = context.sample.origin.slice(0, 4);
  return [
    detail('warm', '1', 'detail by id'),
    listScenario(context, '2', 'list, limit=50, total=false', { limit: '50', total: 'false' }),
    listScenario(context, '3', 'list, limit=50, with total', { limit: '50' }),
    listScenario(context, '4', `filtered list (origin ilike, 31-day scheduled range), limit=50`, {
      origin: text,
      scheduled_after: shift(-15),
      scheduled_before: shift(15),
      limit: '50',
    }),
    listScenario(context, '5a', 'cursor page, since_id near the start', { since_id: '1000', limit: '50', total: 'false' }),
    listScenario(context, '5b', 'cursor page, since_id near the end', { since_id: String(Math.max(0, context.rows - 1000)), limit: '50', total: 'false' }),
    listScenario(context, '6a', 'offset page at offset 0', { offset: '0', limit: '50', total: 'false', order: 'id' }),
    listScenario(context, '6b', `offset page at offset ${Math.max(0, context.rows - 50)}`, {
      offset: String(Math.max(0, context.rows - 50)),
      limit: '50',
      total: 'false',
      order: 'id',
    }),
    { ...detail('cold', '7a', 'detail, auth cache disabled (every request checks the key: 3 extra ERP calls)'), direct: undefined },
    { ...detail('warm', '7b', 'detail, auth cache warm'), direct: undefined },
  ];
}
