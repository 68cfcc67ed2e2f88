/**
 * What a request on a resource may make the gateway send to the ERP: every model, field name,
 * operator and sort key comes from the catalogue (the resource's scope, its filters, its fields, its
 * sortable fields, `id`); only values come from the client, and they travel as plain data. The
 * hostile-input suite checks each request's ERP calls against this and collects any violation.
 */
import type { ErpCall } from '@ops-data-gateway/gateway/runtime/erp/transport';
import type { ResourceSpec } from '@ops-data-gateway/gateway/runtime/resource-spec';

/** Methods that check the key and rights: no domain, nothing from the query string. */
const AUTH_METHODS = new Set(['context_get', 'has_group', 'has_access', 'check_access_rights']);

interface Allowed {
  /** `field op` pairs a domain leaf may have. */
  readonly leaves: ReadonlySet<string>;
  readonly fields: ReadonlySet<string>;
  readonly orderFields: ReadonlySet<string>;
  /** Comodel → fields a `read` on it may ask for. */
  readonly reads: ReadonlyMap<string, ReadonlySet<string>>;
}

const cache = new WeakMap<ResourceSpec, Allowed>();

function allowedFor(resource: ResourceSpec): Allowed {
  let allowed = cache.get(resource);
  if (allowed) return allowed;
  const leaves = new Set(['id =', 'id >']);
  for (const term of resource.scope) leaves.add(`${term.erp} ${term.op}`);
  for (const filter of resource.filters) leaves.add(`${filter.erp} ${filter.op}`);
  const fields = new Set(['id']);
  const reads = new Map<string, Set<string>>();
  const addRead = (model: string, field: string) => reads.set(model, (reads.get(model) ?? new Set()).add(field));
  for (const field of resource.fields) {
    const source = field.source;
    if (source.kind === 'id' || source.kind === 'url') continue;
    fields.add(source.erp);
    if (source.kind === 'related') addRead(source.comodel, source.comodelField);
    if (source.kind === 'x2many' || source.kind === 'distribution_accounts') addRead(source.comodel, 'display_name');
  }
  const orderFields = new Set(['id', ...Object.values(resource.sortable)]);
  for (const term of resource.defaultOrder.split(',')) orderFields.add(term.trim().split(/\s+/)[0] as string);
  allowed = { leaves, fields, orderFields, reads };
  cache.set(resource, allowed);
  return allowed;
}

const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** Each way `calls` (made for one request on `resource`) step outside the catalogue, as text. */
export function catalogueViolations(resource: ResourceSpec, calls: readonly ErpCall[]): string[] {
  const allowed = allowedFor(resource);
  const problems: string[] = [];
  for (const call of calls) {
    const where = `${call.model}.${call.method}`;
    if (AUTH_METHODS.has(call.method)) continue;
    if (call.method === 'read') {
      const fields = allowed.reads.get(call.model);
      if (!fields) problems.push(`${where}: read of a model no field of ${resource.path} relates to`);
      for (const field of (call.kwargs['fields'] as unknown[] | undefined) ?? []) if (!fields?.has(field as string)) problems.push(`${where}: field ${String(field)}`);
      if (!(call.ids ?? []).every((id) => Number.isInteger(id))) problems.push(`${where}: non-integer ids`);
      continue;
    }
    if (call.method !== 'search_read' && call.method !== 'search_count') {
      problems.push(`${where}: method outside the read allow-list`);
      continue;
    }
    if (call.model !== resource.model) problems.push(`${where}: model is not ${resource.model}`);
    const domain = call.kwargs['domain'];
    if (!Array.isArray(domain)) problems.push(`${where}: domain is not a list`);
    for (const leaf of Array.isArray(domain) ? domain : []) {
      if (!Array.isArray(leaf) || leaf.length !== 3) {
        problems.push(`${where}: domain element ${JSON.stringify(leaf)} is not a leaf`);
        continue;
      }
      const [field, op, value] = leaf as [unknown, unknown, unknown];
      if (!allowed.leaves.has(`${String(field)} ${String(op)}`)) problems.push(`${where}: leaf ${JSON.stringify([field, op])} is not in the catalogue`);
      if (!(isScalar(value) || (Array.isArray(value) && value.every(isScalar)))) problems.push(`${where}: value of ${String(field)} is not plain data`);
    }
    for (const field of (call.kwargs['fields'] as unknown[] | undefined) ?? []) if (!allowed.fields.has(field as string)) problems.push(`${where}: field ${String(field)}`);
    const order = call.kwargs['order'];
    if (order !== undefined) {
      for (const term of String(order).split(',')) {
        // A field, its direction, and the nulls clause the runtime puts on number fields: first ascending, last descending (query/parse-query.ts).
        const m = /^\s*([a-z0-9_]+)(?:\s+(asc|desc))?(?:\s+nulls\s+(first|last))?\s*$/.exec(term);
        const nullsRight = m?.[3] === undefined || m[3] === (m[2] === 'desc' ? 'last' : 'first');
        if (!m || !allowed.orderFields.has(m[1] as string) || !nullsRight) problems.push(`${where}: order term ${JSON.stringify(term)}`);
      }
    }
  }
  return problems;
}
