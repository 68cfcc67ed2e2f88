/**
 * @module The list route, `GET /api/v1/<domain>/<resource>`. Three answers share its path, each a
 * module of its own: a JSON page of records (page.ts), an export of every matching record (the export
 * route's answer, ../../export-answer.ts, asked here by `format` or `Accept`: kept for compatibility,
 * documented on the export route's operation, not this one's) and a page of the change feed
 * (changes.ts: `changed_since`). The query is read once, the same way for the three, and says which
 * one answers; a page is charged as a list (`counted_list` when it counts its matches, `expanded` with
 * `expand`), an export `export`.
 */
import type { ListFormat, ListQuery } from '../../../query/parse-query';
import { badRequest } from '../../../errors';
import type { ParsedQuery } from '../../../http/strict-query';
import { parseExpand, type ExpandTerm } from '../../../query/parse-expand';
import { exportAnswer } from '../../export-answer';
import { listFormatOf } from '../../export-format';
import type { DataKind, KindRoute } from '../../kind-route';
import { readListedQuery } from '../../listed-query';
import { changesAnswer } from './changes';
import { pageAnswer } from './page';

/** What a list request asks: its query, in which format, and the relations expanded in each record. */
interface ListAsked {
  readonly query: ListQuery;
  readonly format: ListFormat;
  readonly expand: readonly ExpandTerm[];
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
        const expand = parseExpand((call.req.query as ParsedQuery)['expand'], resource, deps.relatedOf);
        if (expand.length && format !== 'json')
          throw badRequest('expand applies to JSON pages only: an export is flat (one line per record); export the related resource and join on its link field.');
        if (expand.length && query.changes)
          throw badRequest("expand cannot be combined with changed_since: the change feed follows one resource (follow the related resource's own feed).");
        return { query, format, expand };
      },
      costOf: ({ query, format, expand }) => (format !== 'json' ? 'export' : expand.length ? 'expanded' : query.total ? 'counted_list' : 'list'),
      answer({ query, format, expand }, call) {
        if (format !== 'json') return exported(query, format, call);
        if (query.changes) return changes(query, call);
        return page(query, expand, call);
      },
    };
  };
};
