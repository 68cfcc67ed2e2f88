/**
 * @module The aggregate route, `GET /api/v1/<domain>/<resource>/aggregate`: the resource's records
 * grouped by the dimensions asked, counted and measured by the ERP in one grouped read (grouped-read.ts)
 * under the account's own rights and record rules, with the resource's scope and named filters as on
 * its list. JSON answers go through the response cache (the resource's TTL, coalescing, ETag and 304);
 * `format=csv|ndjson` (or `Accept`) gives the same page of groups as a file, read from the ERP as it is
 * asked, as exports are. Charged as `aggregate` against the key's rate limit.
 */
import type { Request } from 'express';
import type { CachedQuery } from '../../../cache/cache-key';
import { canonicalJson } from '../../../erp/coalesce';
import { driftUnavailable, type DriftGaps } from '../../../drift/drift-gaps';
import { groupsEncoder } from '../../../export/export-encoders';
import { ErpFault } from '../../../erp/erp-error';
import { assertCountedQuery, assertUsableQuery, type ParsedQuery } from '../../../http/strict-query';
import type { ListFormat } from '../../../query/parse-query';
import { erpStatsOf, setCacheOutcome } from '../../../request/request-context';
import type { ResourceSpec } from '../../../resource-spec';
import type { ErpStats } from '../../../erp/erp-client';
import type { Principal } from '../../../admission/auth';
import { deprecationHeaders } from '../../deprecation';
import type { DataKind, KindDependencies, KindRoute } from '../../kind-route';
import { parseAggregateQuery, type AggregateQuery } from './aggregate-query';
import { groupedRead, toGroups, type Group } from './grouped-read';

/** An aggregate answer: the page of groups and where the next one starts. */
interface AggregateAnswer {
  readonly data: Group[];
  readonly meta: { readonly limit: number; readonly offset: number; readonly next_offset: number | null; readonly time_zone: 'UTC' };
}

/** What an aggregate answers in: JSON, or a file of its groups (no Parquet: a group's keys have no field types). */
type AggregateFormat = Exclude<ListFormat, 'parquet'>;

const MEDIA_TYPES: Readonly<Record<string, AggregateFormat>> = { 'application/json': 'json', 'text/csv': 'csv', 'application/x-ndjson': 'ndjson' };

/** `format` wins (a link cannot set `Accept`); else `Accept`, JSON first among equals. */
function formatOf(req: Request, format: unknown): AggregateFormat {
  if (format === 'csv' || format === 'ndjson' || format === 'json') return format;
  if (format !== undefined || !req.headers.accept) return 'json';
  const chosen = req.accepts(Object.keys(MEDIA_TYPES));
  return (chosen && MEDIA_TYPES[chosen]) || 'json';
}

/** A query the ERP cannot answer faithfully for want of a field (catalogue drift) is 503, never answered without it. */
function assertServable(query: AggregateQuery, gaps: DriftGaps | undefined): void {
  if (!gaps) return;
  for (const term of query.filters) {
    const reason = gaps.filters.get(term.filter.name);
    if (reason) throw driftUnavailable(`The filter ${term.filter.name} is unavailable: ${reason}.`);
  }
  const asked = [
    ...query.dimensions.map((d) => ({ spelling: d.spelling, name: d.dimension.name, erp: d.dimension.erp })),
    ...query.measures.map((m) => ({ spelling: m.spelling, name: m.measure.name, erp: m.measure.erp })),
  ];
  for (const { spelling, name, erp } of asked) {
    if (gaps.erpFields.has(erp)) throw driftUnavailable(`${spelling} is unavailable: the ERP has no field ${erp} on this model (catalogue drift).`);
    // A field the ERP does not store cannot be sorted on, nor grouped or aggregated (Odoo: "Cannot convert ... to SQL").
    const unstored = gaps.aggregates.get(name) ?? gaps.sortKeys.get(name);
    if (unstored) throw driftUnavailable(`${spelling} is unavailable: ${unstored}.`);
  }
}

/**
 * A field the catalogue maps as stored that this ERP computes instead (Odoo 17's services currency):
 * Odoo refuses to group or aggregate it ("Cannot convert field m.f to SQL", 18 and later "... because
 * it is not stored"). Catalogue drift, answered 503 naming what was asked, not a 502 for the resource.
 */
function unstoredField(error: unknown, resource: ResourceSpec, query: AggregateQuery): Error | undefined {
  if (!(error instanceof ErpFault)) return undefined;
  const field = /Cannot convert (?:field )?([a-z0-9_.]+) to SQL/.exec(error.message)?.[1]?.slice(resource.model.length + 1);
  if (!field) return undefined;
  const asked = [...query.dimensions.map((d) => [d.spelling, d.dimension.erp]), ...query.measures.map((m) => [m.spelling, m.measure.erp])].find(([, erp]) => erp === field);
  if (!asked) return undefined;
  return driftUnavailable(`${asked[0]} is unavailable: the ERP does not store ${resource.model}.${field}, so it cannot group or aggregate it (catalogue drift).`);
}

/** The cache key: the query normalised (filters sorted: they are ANDed). */
function aggregateKey(query: AggregateQuery): CachedQuery {
  return [
    'aggregate',
    query.dimensions.map((d) => d.spelling),
    query.measures.map((m) => m.spelling),
    query.order.map((t) => `${t.key} ${t.direction}`),
    query.limit,
    query.offset,
    query.filters.map((term) => canonicalJson([term.filter.name, term.value])).sort(),
  ];
}

/** The keys of a group asked, in order: the CSV's columns. */
function columnsOf(query: AggregateQuery): string[] {
  const columns: string[] = [];
  for (const { spelling, dimension } of query.dimensions) {
    columns.push(spelling);
    if (dimension.kind === 'many2one_name') columns.push(`${spelling}:id`);
    if (dimension.kind === 'date' || dimension.kind === 'date-time') columns.push(`${spelling}:from`, `${spelling}:to`);
  }
  return [...columns, 'count', ...query.measures.map((m) => m.spelling)];
}

async function readAnswer(deps: KindDependencies, principal: Principal, resource: ResourceSpec, query: AggregateQuery, stats: ErpStats): Promise<AggregateAnswer> {
  const major = await deps.reader.erpMajor();
  const { method, kwargs } = groupedRead(major, resource, query);
  const rows = await deps.reader.groups(principal, resource, method, kwargs, stats).catch((error: unknown) => {
    throw unstoredField(error, resource, query) ?? error;
  });
  const { groups, more } = toGroups(major, query, rows);
  return { data: groups, meta: { limit: query.limit, offset: query.offset, next_offset: more ? query.offset + query.limit : null, time_zone: 'UTC' } };
}

export const aggregateKind: DataKind = (deps) => (resource) => {
  const parser = deps.parserOf(resource);
  return {
    read(call) {
      const raw = call.req.query as ParsedQuery;
      assertCountedQuery(raw);
      if (parser.knowsEveryKey(raw, 'aggregate')) assertUsableQuery(raw);
      const query = parseAggregateQuery(resource, parser, raw, formatOf(call.req, raw['format']));
      assertServable(query, call.gaps());
      return query;
    },
    costOf: () => 'aggregate',
    async answer(query, { req, res, principal, gaps }) {
      const headers = deprecationHeaders(resource, query.deprecated);
      if (query.format === 'json') {
        await deps.answer(req, res, principal, resource, aggregateKey(query), gaps(), async (stats) => ({
          body: await readAnswer(deps, principal, resource, query, stats),
          headers,
        }));
        return;
      }
      // A file is read from the ERP as it is asked, as exports are: never cached.
      setCacheOutcome(res, 'bypass');
      const answer = await readAnswer(deps, principal, resource, query, erpStatsOf(res));
      const encoder = groupsEncoder(query.format, columnsOf(query), query.csvFormulas);
      const body = encoder.head() + encoder.encode(answer.data.map((record, i) => ({ id: i, record })));
      const stamp = new Date()
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'Z');
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      if (answer.meta.next_offset !== null) res.setHeader('X-Next-Offset', String(answer.meta.next_offset));
      res.status(200);
      res.setHeader('Content-Type', encoder.contentType);
      res.setHeader('Content-Disposition', `attachment; filename="${resource.path.replace('/', '-')}-aggregate-${stamp}.${encoder.extension}"`);
      res.end(body);
    },
  } satisfies KindRoute<AggregateQuery>;
};
