/**
 * @module A JSON page of a list route: `{data, meta}` read from the ERP, through the response cache
 * when the resource is cached.
 */
import type { CachedQuery } from '../../../cache/cache-key';
import { canonicalJson } from '../../../erp/coalesce';
import { expandKey, type ExpandTerm } from '../../../query/parse-expand';
import type { ListQuery } from '../../../query/parse-query';
import { unreadableFieldsHeader } from '../../../resource-reader';
import { deprecationHeaders } from '../../deprecation';
import type { Admitted, KindDependencies } from '../../kind-route';

/**
 * A page's cache key: the parsed query, so that spellings of the same question share an entry
 * (`?a=1&b=2` and `?b=2&a=1`, `limit=050` and `limit=50`), its filters sorted (they are ANDed: their
 * order changes nothing).
 */
function pageKey(query: ListQuery, expand: readonly ExpandTerm[]): CachedQuery {
  const { limit, offset, sinceId, total, order } = query;
  const fields = query.fields.map((field) => field.name);
  const filters = query.filters.map((term) => canonicalJson([term.filter.name, term.value])).sort();
  // An expanded page is an entry of its own; an unexpanded one keeps the key it always had.
  const key: CachedQuery = ['list', limit, offset, sinceId ?? null, total, order, fields, filters];
  return expand.length ? [...key, expandKey(expand)] : key;
}

export function pageAnswer({ answer, reader }: KindDependencies) {
  return async (query: ListQuery, expand: readonly ExpandTerm[], { req, res, principal, resource, gaps }: Admitted): Promise<void> => {
    const headers = deprecationHeaders(resource, query.deprecated);
    await answer(
      req,
      res,
      principal,
      resource,
      pageKey(query, expand),
      gaps(),
      async (stats) => {
        const page = await reader.list(principal, resource, query, stats, expand);
        return { body: page, headers: { ...headers, ...unreadableFieldsHeader(page.meta.unreadable_fields ?? []) } };
      },
      { fields: query.fields, order: query.order, filterPaths: query.filters.map((term) => term.filter.erp), related: expand },
    );
  };
}
