/**
 * @module The list route, `GET /api/v1/<domain>/<resource>`. Three answers share its path, each a
 * module of its own: a JSON page of records (page.ts), an export of every matching record (the export
 * route's answer, ../../export-answer.ts, asked here by `format` or `Accept`: kept for compatibility,
 * documented on the export route's operation, not this one's) and a page of the change feed
 * (changes.ts: `changed_since`). The query is read once, the same way for the three, and says which
 * one answers; each is charged as a list (`counted_list` when it counts its matches).
 */
import type { ListFormat, ListQuery } from '../../../query/parse-query';
import { exportAnswer } from '../../export-answer';
import { listFormatOf } from '../../export-format';
import type { DataKind, KindRoute } from '../../kind-route';
import { readListedQuery } from '../../listed-query';
import { changesAnswer } from './changes';
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
        let format: ListFormat = 'json';
        const query = readListedQuery(call, deps, parser, 'list', (raw) => {
          format = listFormatOf(call.req, raw['format']);
          return parser.parseList(raw, format);
        });
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
