/**
 * @module What the gateway asks the ERP for a list or a detail: pure functions from a resource and a
 * parsed query to the `search_read` / `search_count` arguments. The reader sends them; the benchmark
 * sends the same ones directly to measure what the gateway adds.
 */
import { compileDomain, type DomainLeaf } from './query/domain';
import type { DetailQuery, ListQuery } from './query/parse-query';
import type { FieldSpec, ResourceSpec } from './resource-spec';

/** Context of every call: the catalogue's scope is the only filter on archived records. */
export const ERP_CONTEXT = Object.freeze({ active_test: false, lang: 'en_US', tz: 'UTC' });

export interface PageRequest {
  readonly domain: readonly DomainLeaf[];
  readonly fields: readonly string[];
  readonly offset?: number;
  readonly limit: number;
  readonly order?: string;
}

export interface ListRequests {
  readonly page: PageRequest;
  /** The count's domain, absent with `total=false`. */
  readonly countDomain?: readonly DomainLeaf[];
}

/** The ERP field a field reads on the resource's own model, if any. */
export function erpFieldOf(field: FieldSpec): string | undefined {
  const source = field.source;
  if (source.kind === 'id') return 'id';
  if (source.kind === 'url') return undefined;
  return source.erp;
}

/** ERP fields to read for these API fields, `id` first. */
export function erpFieldsOf(fields: readonly FieldSpec[]): string[] {
  const names = new Set<string>(['id']);
  for (const field of fields) {
    const erp = erpFieldOf(field);
    if (erp) names.add(erp);
  }
  return [...names];
}

/** A cursor page is read one record longer, to know whether more remain. */
export function listRequests(resource: ResourceSpec, query: ListQuery): ListRequests {
  const domain = compileDomain(resource, query.filters, query.sinceId);
  const cursor = query.sinceId !== undefined;
  const page: PageRequest = { domain, fields: erpFieldsOf(query.fields), offset: query.offset, limit: cursor ? query.limit + 1 : query.limit, order: query.order };
  if (!query.total) return { page };
  return { page, countDomain: cursor ? compileDomain(resource, query.filters) : domain };
}

/** An export's page: the records after `afterId`, by ascending id (keyset paging: constant cost at any depth). */
export function exportPageRequest(resource: ResourceSpec, query: ListQuery, afterId: number, pageSize: number): PageRequest {
  return { domain: compileDomain(resource, query.filters, afterId), fields: erpFieldsOf(query.fields), limit: pageSize, order: 'id asc' };
}

/** The domain an export holds: the scope, the filters and `since_id`. */
export function exportDomain(resource: ResourceSpec, query: ListQuery): DomainLeaf[] {
  return compileDomain(resource, query.filters, query.sinceId);
}

/**
 * The change feed's scan: ids of the records written in `[from, to)` (seconds), after `afterId`,
 * whatever the scope and filters (those decide which of them are records and which are removals).
 */
export function changeScanRequest(from: string, to: string, afterId: number, limit: number, order: 'id asc' | 'write_date asc, id asc'): PageRequest {
  const domain: DomainLeaf[] = [
    ['write_date', '>=', from],
    ['write_date', '<', to],
  ];
  if (afterId > 0) domain.push(['id', '>', afterId]);
  return { domain, fields: ['id', 'write_date'], limit, order };
}

/** Which of the ids the scan found are records of the resource (scope and filters), read whole. */
export function changedRecordsRequest(resource: ResourceSpec, query: ListQuery, ids: readonly number[]): PageRequest {
  return { domain: [...compileDomain(resource, query.filters), ['id', 'in', [...ids]]], fields: erpFieldsOf(query.fields), limit: ids.length, order: 'id asc' };
}

export function detailRequest(resource: ResourceSpec, id: number, query: DetailQuery): PageRequest {
  return { domain: [...compileDomain(resource, []), ['id', '=', id]], fields: erpFieldsOf(query.fields), limit: 1 };
}
