/**
 * @module Turns a request's raw query string into a typed query, or a GatewayError: an unknown key
 * is 400 `bad_request`, an unusable value 422 `invalid_value` (decisions D11–D20). The raw shape is
 * checked by the resource's generated JSON Schema (ajv, compiled once); ranges, calendar dates and
 * the cross-parameter rules are checked here.
 */
import type Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import { badRequest, invalidValue } from '../errors';
import type { CsvDialect } from '../route-kinds';
import type { FieldSpec, FilterSpec, ResourceSpec } from '../resource-spec';
import { type ExportFormat, ROUTE_KIND_ORDER, type RouteKind } from '../route-kinds';
import { parseChangedSince, type ChangeCursor } from './changed-since';
import { erpDate, erpDatetimeCondition, parseDateValue, type ParsedDate } from './dates';
import { escapeLike, type FilterTerm } from './domain';

const LIMIT_DEFAULT = 50;
const LIMIT_MAX = 200;
const INT32_MAX = 2147483647;

export interface ListQuery {
  readonly limit: number;
  readonly offset: number;
  readonly sinceId?: number;
  readonly total: boolean;
  /** ERP order string, `id` always last. */
  readonly order: string;
  /** The API sort keys asked for in `order` (none: the default order). */
  readonly sortKeys: readonly string[];
  readonly fields: readonly FieldSpec[];
  readonly filters: readonly FilterTerm[];
  /** Names of deprecated filters or fields the request uses (D28). */
  readonly deprecated: readonly string[];
  /** `changed_since`: the change feed, from this cursor, in `(write_date, id)` order. */
  readonly changes?: ChangeCursor;
  /** `csv_formulas` (CSV exports only): texts a spreadsheet would compute written with a `'` in front (`escaped`), or as they are. */
  readonly csvFormulas: CsvFormulas;
  /** `csv_dialect` (CSV exports only): RFC 4180 for loaders, or what Excel opens as it should. */
  readonly csvDialect: CsvDialect;
}

export type CsvFormulas = 'escaped' | 'raw';

/** What a list request asks for: a JSON page, or an export of every matching record. */
export type ListFormat = 'json' | ExportFormat;

/** Parameters an export does not take: it streams every matching record, by ascending id. */
const NOT_WITH_EXPORT = ['limit', 'offset', 'order', 'total'] as const;

/** Refuses what an export does not take, saying why (before the shape check, which would only call it unknown). */
function assertExportable(query: RawQuery): void {
  const refused = NOT_WITH_EXPORT.filter((name) => query[name] !== undefined);
  if (refused.length)
    throw badRequest(`An export streams every matching record by ascending id: ${refused.join(', ')} cannot be used with it (filter instead; since_id resumes after an id).`);
}

export interface DetailQuery {
  readonly fields: readonly FieldSpec[];
  readonly deprecated: readonly string[];
}

export type RawQuery = Readonly<Record<string, unknown>>;

/**
 * The compiled validators and lookup tables of one resource: the tables built at start-up, each kind's
 * validator compiled by its first request (compiling every resource's schemas was most of a worker's
 * start-up CPU, which a reload or the dev loop waits for; a first request pays a few milliseconds).
 */
export class QueryParser {
  /** Each kind's query schema (`<kind>QuerySchema`), compiled once asked, and the keys it accepts. */
  private readonly validators = new Map<RouteKind, ValidateFunction>();
  private readonly keys: Readonly<Record<RouteKind, ReadonlySet<string>>>;
  private readonly fieldsByName: ReadonlyMap<string, FieldSpec>;
  private readonly filtersByName: ReadonlyMap<string, FilterSpec>;
  /** API sort key → ERP field: a Map, so that a client's `order=constructor` is never looked up on a prototype. */
  private readonly sortFieldsByKey: ReadonlyMap<string, string>;
  private readonly defaultOrder: string;
  /** ERP names of the number sort keys: sent with NULLS FIRST ascending, NULLS LAST descending. */
  private readonly numberSortFields: ReadonlySet<string>;

  constructor(
    private readonly resource: ResourceSpec,
    private readonly ajv: Ajv2020,
  ) {
    this.keys = byKind((kind) => new Set(Object.keys((this.schemaOf(kind) as { properties?: object }).properties ?? {})));
    this.fieldsByName = new Map(resource.fields.map((f) => [f.name, f]));
    this.filtersByName = new Map(resource.filters.map((f) => [f.name, f]));
    this.sortFieldsByKey = new Map(Object.entries(resource.sortable));
    this.numberSortFields = new Set(
      Object.entries(resource.sortable)
        .filter(([api]) => api !== 'id' && NUMBER_TYPES.has(this.fieldsByName.get(api)?.type ?? ''))
        .map(([, erp]) => erp),
    );
    this.defaultOrder = withIdLast(withNullsAtTheEnds(resource.defaultOrder, this.numberSortFields));
  }

  private schemaOf(kind: RouteKind): object {
    return this.resource[`${kind}QuerySchema`];
  }

  private validatorOf(kind: RouteKind): ValidateFunction {
    let validate = this.validators.get(kind);
    if (!validate) {
      validate = this.ajv.compile(this.schemaOf(kind));
      this.validators.set(kind, validate);
    }
    return validate;
  }

  /**
   * A list route's query. `format` is what the request asks for, by `format` or `Accept` (the handler
   * decides which): an export asked on the list route (kept for compatibility) reads as on the export route.
   */
  parseList(query: RawQuery, format: ListFormat = 'json'): ListQuery {
    this.checkShape('list', query);
    if (format !== 'json') assertExportable(query);
    return this.parseListed(query, format);
  }

  /** The export route's query (`/export`): the list's filters, `fields`, `since_id` and `changed_since`, no paging or order. */
  parseExport(query: RawQuery, format: ExportFormat): ListQuery {
    assertExportable(query);
    this.checkShape('export', query);
    return this.parseListed(query, format);
  }

  private parseListed(query: RawQuery, format: ListFormat): ListQuery {
    const deprecated: string[] = [];
    if (query['csv_formulas'] !== undefined && format !== 'csv')
      throw badRequest('csv_formulas applies to CSV exports only (format=csv, or Accept: text/csv): other answers never hold formulas.');
    if (query['csv_dialect'] !== undefined && format !== 'csv') throw badRequest('csv_dialect applies to CSV exports only (format=csv, or Accept: text/csv).');
    const changes = query['changed_since'] === undefined ? undefined : parseChangedSince(query['changed_since'] as string);
    if (changes) {
      const refused = ['order', 'offset', 'since_id'].filter((name) => query[name] !== undefined);
      if (refused.length) throw badRequest(`changed_since cannot be combined with ${refused.join(', ')}: the change feed is in (write_date, id) order and pages by its own token.`);
      if (typeof query['total'] === 'string' && query['total'].toLowerCase() === 'true')
        throw badRequest('changed_since cannot be combined with total=true: the change feed gives no count (loop while meta.more_changes is true).');
    }
    const limit = query['limit'] === undefined ? LIMIT_DEFAULT : Number(query['limit']);
    if (limit < 1) throw invalidValue('limit must be an integer of at least 1.');
    const offset = query['offset'] === undefined ? 0 : boundedInteger('offset', query['offset'] as string);
    const sinceId = query['since_id'] === undefined ? undefined : boundedInteger('since_id', query['since_id'] as string);
    if (sinceId !== undefined && (query['offset'] !== undefined || query['order'] !== undefined))
      throw badRequest('since_id cannot be combined with offset or order: cursor paging is always by ascending id.');
    const filters = this.parseFilters(query, deprecated);
    const fields = this.parseFields(query['fields'] as string | undefined, deprecated);
    const sortKeys: string[] = [];
    return {
      limit: Math.min(limit, LIMIT_MAX),
      offset,
      ...(sinceId !== undefined ? { sinceId } : {}),
      total: changes || format !== 'json' ? false : query['total'] === undefined ? true : (query['total'] as string).toLowerCase() === 'true',
      order: sinceId !== undefined ? 'id asc' : query['order'] === undefined ? this.defaultOrder : this.parseOrder(query['order'] as string, sortKeys),
      sortKeys,
      fields,
      filters,
      deprecated,
      ...(changes ? { changes } : {}),
      csvFormulas: query['csv_formulas'] === 'raw' ? 'raw' : 'escaped',
      csvDialect: (query['csv_dialect'] as CsvDialect | undefined) ?? 'rfc4180',
    };
  }

  /** The named filters of a query whose shape is checked, their values converted; deprecated ones noted. */
  parseFilters(query: RawQuery, deprecated: string[]): FilterTerm[] {
    const filters: FilterTerm[] = [];
    for (const [name, raw] of Object.entries(query)) {
      const filter = this.filtersByName.get(name);
      if (!filter) continue;
      if (filter.deprecated) deprecated.push(name);
      filters.push(filterTerm(filter, raw as string | string[]));
    }
    return filters;
  }

  /** True when every key of `query` is one the route accepts (an unknown key is a 400 whatever its value). */
  knowsEveryKey(query: RawQuery, kind: RouteKind): boolean {
    const keys = this.keys[kind];
    for (const key in query) if (!keys.has(key)) return false;
    return true;
  }

  /** Checks the raw shape of a kind's query against its schema: an unknown key 400, an unusable value 422. */
  checkShape(kind: RouteKind, query: RawQuery): void {
    this.check(this.validatorOf(kind), query);
  }

  parseDetail(query: RawQuery): DetailQuery {
    this.checkShape('detail', query);
    const deprecated: string[] = [];
    return { fields: this.parseFields(query['fields'] as string | undefined, deprecated), deprecated };
  }

  private check(validate: ValidateFunction, query: RawQuery): void {
    if (validate(query)) return;
    throw errorFromSchema(validate.errors ?? [], this.filtersByName);
  }

  /** `field`, `field asc|desc`, comma-separated; only sortable fields; `id` appended (D14). */
  private parseOrder(text: string, keys: string[]): string {
    const terms = text.split(',').map((term) => {
      const m = /^\s*([A-Za-z0-9_]+)(?:\s+(asc|desc))?\s*$/i.exec(term);
      if (!m) throw badRequest(`Invalid sort '${text}': use field, field asc or field desc, comma-separated.`);
      const field = m[1] as string;
      const erp = this.sortFieldsByKey.get(field);
      if (erp === undefined) {
        const sortable = [...this.sortFieldsByKey.keys()].join(', ');
        throw badRequest(`Cannot sort by '${field}': sortable fields are ${sortable || 'none'}.`);
      }
      keys.push(field);
      const direction = (m[2] ?? 'asc').toLowerCase();
      return this.numberSortFields.has(erp) ? `${erp} ${direction} ${nullsFor(direction)}` : `${erp} ${direction}`;
    });
    return withIdLast(terms.join(', '));
  }

  /** A subset of fields (D12): unknown or empty names are 400; `id` is always returned. */
  private parseFields(text: string | undefined, deprecated: string[]): readonly FieldSpec[] {
    if (text === undefined) {
      for (const field of this.resource.fields) if (field.deprecated) deprecated.push(field.name);
      return this.resource.fields;
    }
    const names = new Set(text.split(',').map((name) => name.trim()));
    const chosen: FieldSpec[] = [];
    for (const name of names) {
      if (name === '') throw badRequest('fields must name at least one field, comma-separated, with no empty name.');
      if (!this.fieldsByName.has(name)) throw badRequest(`Unknown field '${name}' in fields.`);
    }
    for (const field of this.resource.fields) {
      if (field.name === 'id' || names.has(field.name)) {
        chosen.push(field);
        if (field.deprecated) deprecated.push(field.name);
      }
    }
    return chosen;
  }
}

const NUMBER_TYPES: ReadonlySet<string> = new Set(['integer', 'number']);

/** One value per kind of route. */
function byKind<T>(value: (kind: RouteKind) => T): Record<RouteKind, T> {
  return Object.fromEntries(ROUTE_KIND_ORDER.map((kind) => [kind, value(kind)])) as Record<RouteKind, T>;
}

/**
 * Odoo reads a NULL integer, float or monetary as 0, and PostgreSQL sorts NULL above every value:
 * without this, `order=seats desc` gives 0, 5, 5, 5. With NULLS FIRST ascending and NULLS LAST
 * descending, the zeros the client receives stand where a 0 sorts, so what it receives is monotonic
 * (unless the field also holds negative numbers: the unset ones, read as 0, then come before them
 * ascending and after them descending). Odoo 17, 18 and 19 accept the clause in `order`.
 */
function nullsFor(direction: string): string {
  return direction === 'desc' ? 'nulls last' : 'nulls first';
}

/** The catalogue's default order with the nulls clause on its number fields (terms that have none). */
function withNullsAtTheEnds(order: string, numberFields: ReadonlySet<string>): string {
  return order
    .split(',')
    .map((raw) => {
      const term = raw.trim();
      const [field, direction = 'asc', ...rest] = term.split(/\s+/);
      if (!field || !numberFields.has(field) || rest.length) return term;
      return `${field} ${direction.toLowerCase()} ${nullsFor(direction.toLowerCase())}`;
    })
    .join(', ');
}

function withIdLast(order: string): string {
  const keys = order.split(',').map((term) => term.trim().split(/\s+/)[0]);
  return keys.includes('id') ? order : `${order}, id asc`;
}

function boundedInteger(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value > INT32_MAX) throw invalidValue(`${name} must be an integer from 0 to ${INT32_MAX}.`);
  return value;
}

/** A filter's value converted to what the ERP compares, with the operator sent when it is not the catalogue's. */
function filterTerm(filter: FilterSpec, raw: string | string[]): FilterTerm {
  switch (filter.type) {
    case 'integer':
      return { filter, value: boundedInteger(filter.name, raw as string) };
    case 'number':
      return { filter, value: Number(raw) };
    case 'boolean':
      return { filter, value: (raw as string).toLowerCase() === 'true' };
    case 'enum':
      return { filter, value: raw };
    case 'string':
      return { filter, value: filter.op === 'ilike' ? escapeLike(raw as string) : raw };
    case 'date':
      return { filter, value: erpDate(parsedDate(filter, raw as string)) };
    case 'date-time': {
      const { op, value } = erpDatetimeCondition(parsedDate(filter, raw as string), filter.op === '<=' ? '<=' : '>=');
      return op === filter.op ? { filter, value } : { filter, value, op };
    }
    case 'integer-list': {
      const ids = new Set<number>();
      for (const part of (Array.isArray(raw) ? raw : [raw]).flatMap((item) => item.split(','))) {
        const id = Number(part);
        if (id < 1 || id > INT32_MAX) throw invalidValue(`${filter.name} takes positive integer ids, comma-separated or repeated.`);
        ids.add(id);
      }
      return { filter, value: [...ids] };
    }
  }
}

function parsedDate(filter: FilterSpec, raw: string): ParsedDate {
  const parsed = parseDateValue(raw);
  if (!parsed) throw invalidValue(`${filter.name} must be a date (YYYY-MM-DD) or an ISO 8601 date-time; '${raw}' is not.`);
  return parsed;
}

/** The first schema failure as a client error: unknown key 400, anything else 422. */
function errorFromSchema(errors: readonly ErrorObject[], filters: ReadonlyMap<string, FilterSpec>) {
  const unknown = errors.find((e) => e.keyword === 'additionalProperties');
  if (unknown) {
    const name = (unknown.params as { additionalProperty: string }).additionalProperty;
    return badRequest(`Unknown parameter '${name}': only the resource's named filters and the common parameters are accepted.`);
  }
  const first = errors[0];
  const name = first?.instancePath.split('/')[1] ?? 'a parameter';
  // The spec's table: an invalid sort is 400, whatever is wrong with it (too long, given twice).
  if (name === 'order')
    return badRequest(`Invalid sort: order ${Array.isArray(dataOf(first)) ? 'given more than once' : 'too long'}; use field, field asc or field desc, comma-separated.`);
  // The route's own values: the list route takes json and the export formats, the export route the export formats.
  if (name === 'format' && first?.keyword === 'enum') return invalidValue(`format: expected ${listed((first.params as { allowedValues: string[] }).allowedValues)}.`);
  const filter = filters.get(name);
  if (filter?.type === 'enum') return invalidValue(`${name} must be one of: ${(filter.values ?? []).join(', ')}.`);
  const expectedOf = filter?.type ?? name;
  return invalidValue(
    `${name}: ${(Object.hasOwn(EXPECTED, expectedOf) && EXPECTED[expectedOf]) || 'invalid value'}${Array.isArray(dataOf(first)) ? ' (given more than once)' : ''}.`,
  );
}

/** `a, b or c`. */
function listed(values: readonly string[]): string {
  return values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}

function dataOf(error: ErrorObject | undefined): unknown {
  return (error as (ErrorObject & { data?: unknown }) | undefined)?.data;
}

const EXPECTED: Readonly<Record<string, string>> = {
  limit: 'expected an integer of at least 1',
  offset: 'expected an integer of at least 0',
  since_id: 'expected an integer of at least 0',
  total: 'expected true or false',
  order: 'expected one sort text',
  fields: 'expected one comma-separated list of field names',
  format: 'expected one format name',
  changed_since: 'expected one ISO 8601 date-time or the token meta.next_changed_since gave',
  integer: 'expected a non-negative integer',
  number: 'expected a decimal number',
  boolean: 'expected true or false',
  string: 'expected a non-empty text of at most 256 characters',
  date: 'expected a date (YYYY-MM-DD) or an ISO 8601 date-time',
  'date-time': 'expected a date (YYYY-MM-DD) or an ISO 8601 date-time',
  'integer-list': 'expected positive integer ids, comma-separated or repeated',
};
