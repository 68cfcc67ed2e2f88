/**
 * @module The list route, `GET /api/v1/<domain>/<resource>`. Three answers share its path, each a
 * module of its own: a JSON page of records (page.ts), an export of every matching record (export.ts:
 * CSV or NDJSON, asked by `format` or `Accept`, list-format.ts) and a page of the change feed
 * (changes.ts: `changed_since`). The query is read once, the same way for the three, and says which
 * one answers; each is charged as a list (`counted_list` when it counts its matches).
 */
import { servableListQuery } from '../../../drift/drift-gaps';
import { assertCountedQuery, assertUsableQuery, type ParsedQuery } from '../../../http/strict-query';
import type { ListFormat, ListQuery } from '../../../query/parse-query';
import type { DataKind, KindRoute } from '../../kind-route';
import { changesAnswer } from './changes';
import { exportAnswer } from './export';
import { listFormatOf } from './list-format';
import { pageAnswer } from './page';

/** What a list request asks: its query, and in which format. */
interface ListAsked {
  readonly query: ListQuery;
  readonly format: ListFormat;
}

export const listKind: DataKind = (deps) => {
  const page = pageAnswer(deps);
  const exported = exportAnswer(deps);
  const changes = changesAnswer(deps);
  return (resource): KindRoute<ListAsked> => {
    const parser = deps.parserOf(resource);
    return {
      read(call) {
        const raw = call.req.query as ParsedQuery;
        assertCountedQuery(raw);
        if (parser.knowsEveryKey(raw, 'list')) assertUsableQuery(raw);
        const format = listFormatOf(call.req, raw['format']);
        const parsed = parser.parseList(raw, format);
        const gaps = call.gaps();
        const query = gaps ? servableListQuery(parsed, gaps) : parsed;
        // A change-feed position ahead of the clock is refused before anything is charged or read.
        if (query.changes) deps.changes.assertNotAhead(query.changes);
        return { query, format };
      },
      costOf: ({ query }) => (query.total ? 'counted_list' : 'list'),
      answer({ query, format }, call) {
        if (format !== 'json') return exported(query, format, call);
        if (query.changes) return changes(query, call);
        return page(query, call);
      },
    };
  };
};
