/**
 * @module The detail route, `GET /api/v1/<domain>/<resource>/{id}`: one record, through the response
 * cache when the resource is cached. An id that is not a positive 32-bit integer is a record that
 * does not exist (404), as one outside the resource's scope is.
 */
import { notFound } from '../../../errors';
import { assertCountedQuery, assertUsableQuery, type ParsedQuery } from '../../../http/strict-query';
import { parseExpand, expandKey, type ExpandTerm } from '../../../query/parse-expand';
import type { DetailQuery } from '../../../query/parse-query';
import type { CachedQuery } from '../../../cache/cache-key';
import { unreadableFieldsHeader } from '../../../resource-reader';
import { deprecationHeaders } from '../../deprecation';
import type { DataKind, KindRoute } from '../../kind-route';

const ID = /^[1-9][0-9]{0,9}$/;
const INT32_MAX = 2147483647;

/** What a detail request asks: the record's id and the fields wanted. */
interface RecordAsked {
  readonly id: number;
  readonly query: DetailQuery;
  readonly expand: readonly ExpandTerm[];
}

/** The record's cache key: its id, the fields asked for, and the relations expanded (an entry of their own). */
function recordKey(id: number, query: DetailQuery, expand: readonly ExpandTerm[]): CachedQuery {
  const key: CachedQuery = ['detail', id, query.fields.map((field) => field.name)];
  return expand.length ? [...key, expandKey(expand)] : key;
}

export const detailKind: DataKind =
  ({ parserOf, relatedOf, answer, reader }) =>
  (resource): KindRoute<RecordAsked> => {
    const parser = parserOf(resource);
    return {
      read({ req }) {
        const raw = String(req.params['id']);
        if (!ID.test(raw) || Number(raw) > INT32_MAX) throw notFound(`No ${resource.path} record with id '${raw.slice(0, 32)}'.`);
        const rawQuery = req.query as ParsedQuery;
        assertCountedQuery(rawQuery);
        if (parser.knowsEveryKey(rawQuery, 'detail')) assertUsableQuery(rawQuery);
        const query = parser.parseDetail(rawQuery);
        return { id: Number(raw), query, expand: parseExpand(rawQuery['expand'], resource, relatedOf) };
      },
      costOf: ({ expand }) => (expand.length ? 'expanded' : 'detail'),
      async answer({ id, query, expand }, call) {
        const { req, res, principal } = call;
        const headers = deprecationHeaders(resource, query.deprecated);
        await answer(
          req,
          res,
          principal,
          resource,
          recordKey(id, query, expand),
          call.gaps(),
          async (stats) => {
            const { record, unreadable, expanded } = await reader.detail(principal, resource, id, query, stats, expand);
            const meta = { ...(unreadable.length ? { unreadable_fields: [...unreadable] } : {}), ...(expanded ? { expanded } : {}) };
            return {
              body: Object.keys(meta).length ? { data: record, meta } : { data: record },
              headers: { ...headers, ...unreadableFieldsHeader(unreadable) },
            };
          },
          { fields: query.fields, related: expand },
        );
      },
    };
  };
