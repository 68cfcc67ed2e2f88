/**
 * @module Reading the query of a route that lists records, the list's or the export's: the query
 * string's own problems first (too many parameters; a value that cannot be decoded, once every key is
 * known to be accepted), then the kind's parse, then the drift (a filter or sort key it took: 503),
 * then a change-feed position ahead of the clock: all before anything is charged or read.
 */
import { servableListQuery } from '../drift/drift-gaps';
import { assertCountedQuery, assertUsableQuery, type ParsedQuery } from '../http/strict-query';
import type { ListQuery, QueryParser } from '../query/parse-query';
import type { Admitted, KindDependencies } from './kind-route';

export function readListedQuery(call: Admitted, deps: KindDependencies, parser: QueryParser, kind: 'list' | 'export', parse: (raw: ParsedQuery) => ListQuery): ListQuery {
  const raw = call.req.query as ParsedQuery;
  assertCountedQuery(raw);
  if (parser.knowsEveryKey(raw, kind)) assertUsableQuery(raw);
  const parsed = parse(raw);
  const gaps = call.gaps();
  const query = gaps ? servableListQuery(parsed, gaps) : parsed;
  if (query.changes) deps.changes.assertNotAhead(query.changes);
  return query;
}
