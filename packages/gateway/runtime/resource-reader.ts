/**
 * @module Reads a resource's records from the ERP for one request: the page and the count in
 * parallel, then one batched `read` per relation whose values live on a comodel, then the mapping.
 *
 * Unreadable relations (interface spec, general rule 4): on Odoo, reading a field whose value comes
 * from a model the account cannot read fails the *whole* call with AccessError, even for a computed
 * field with no declared relation. So when a page read fails with an AccessError naming another
 * model, the fields to blame are found by halving the field list, remembered with the account's read
 * right on the resource's model (auth.ts: forgotten with it), and the page is read again without
 * them; they are `null` in the answer, named in `meta.unreadable_fields` and the
 * `X-Unreadable-Fields` header (a client storing records can tell "could not read" from "empty"),
 * and logged once per account, model and field set while remembered.
 *
 * A refusal naming the resource's own model (or no model) is not a field matter: the account has
 * lost its read right on the model (the cached right is stale). It is passed on, a 403, and the
 * handler forgets the cached right; nothing is learned from it, so the first request after the right
 * is given back reads every field.
 *
 * Catalogue drift (DRIFT_CHECK=warn): fields the ERP no longer has are left out of the read and
 * answered as `null` too (`gapsOf`, from the drift check; logged once by the check, not per request).
 */
import type { Logger } from 'pino';
import { ErpFault, ErpUnavailable } from './erp/erp-error';
import type { ErpClient, ErpStats } from './erp/erp-client';
import type { Principal, UnreadableMemory } from './admission/auth';
import { notFound } from './errors';
import { detailRequest, ERP_CONTEXT, erpFieldOf, erpFieldsOf, listRequests, type PageRequest } from './erp-requests';
import { NO_GAPS, type DriftGaps } from './drift/drift-gaps';
import type { DetailQuery, ListQuery } from './query/parse-query';
import type { ExpandTerm } from './query/parse-expand';
import { compileDomain } from './query/domain';
import { compileMapper, distributionAccountIds, relationKey, type ApiRecord, type ErpRow, type RelatedValues } from './records';
import type { FieldSpec, ResourceSpec } from './resource-spec';
import { TtlCache } from './ttl-cache';

export interface ListPage {
  readonly data: ApiRecord[];
  readonly meta: { total?: number; next_since_id?: number | null; unreadable_fields?: string[]; expanded?: ExpandedMeta };
}

/**
 * What `meta.expanded` says of each `to_many` relation expanded: the bound per record, and the records
 * whose list it cut (never a silent cut), each with how many related records it has (null when the
 * page's read stopped before knowing) and the link that pages the rest from the related list route.
 */
export type ExpandedMeta = Record<string, { resource: string; per_record_max: number; truncated: TruncatedRelation[] }>;

interface TruncatedRelation {
  readonly id: number;
  readonly total: number | null;
  readonly next: string;
}

/** Related records of one `to_many` relation in one record; more are paged from the related list route. */
const EXPAND_PER_RECORD = 50;
/**
 * Related records one `to_many` relation reads for a page, at least: the bound per record times the
 * page's records, but never less than this, so that a small page learns the exact count of a long list.
 */
const EXPAND_READ_FLOOR = 1000;

/** Mapped records, and the API fields answered `null` in them for want of a read right on another model. */
export interface ReadRecords {
  readonly records: ApiRecord[];
  readonly unreadable: readonly string[];
}

interface PageRows {
  readonly rows: ErpRow[];
  /** API fields left null, with the model the account cannot read. */
  readonly unreadable: Map<string, string>;
}

/**
 * The header naming the fields an answer holds as `null` for want of a read right (comma-separated
 * API names; absent when there are none): on every data answer, JSON or export, as `meta.unreadable_fields`
 * is in a JSON body.
 */
const UNREADABLE_FIELDS_HEADER = 'X-Unreadable-Fields';

/** The header of `unreadable_fields`, or none. */
export function unreadableFieldsHeader(fields: readonly string[]): Record<string, string> {
  return fields.length ? { [UNREADABLE_FIELDS_HEADER]: fields.join(', ') } : {};
}

/** Bound of the log-once memory (accounts × resources × field sets warned about). */
const WARNED_MAX_ENTRIES = 10000;

export class ResourceReader {
  /** `uid|model|fields` already warned about, for `rememberMs`: one log line per account, model and field set. */
  private readonly warned: TtlCache<string, true>;

  constructor(
    private readonly erp: ErpClient,
    private readonly log: Logger,
    private readonly urlFor: (model: string, id: number) => string,
    /** Keeps the fields learned unreadable with the account's read right on the model (auth.ts). */
    private readonly memory: UnreadableMemory,
    /** How long the unreadable-relation warning is not repeated (the authentication cache's TTL). */
    private readonly rememberMs: number,
    private readonly gapsOf: (resource: ResourceSpec) => DriftGaps = () => NO_GAPS,
  ) {
    this.warned = new TtlCache(WARNED_MAX_ENTRIES);
  }

  async list(principal: Principal, resource: ResourceSpec, query: ListQuery, stats: ErpStats, expand: readonly ExpandTerm[] = []): Promise<ListPage> {
    const requests = listRequests(resource, query);
    const cursor = query.sinceId !== undefined;
    const pageP = this.readPage(principal, resource, query.fields, withLinks(requests.page, expand), stats);
    const countP = requests.countDomain ? this.call(principal, resource.model, 'search_count', null, { domain: requests.countDomain }, stats) : undefined;
    // Both promises are awaited together so that a failure of one never leaves the other unobserved.
    const [page, total] = await Promise.all([pageP, countP]);
    let rows = page.rows;
    const meta: ListPage['meta'] = {};
    if (total !== undefined) meta.total = expectCount(total);
    // The ERP is trusted no further than the protocol: a page never has more than `limit` records,
    // whatever it sends (a cursor page asks one more, to learn whether another page follows).
    const more = rows.length > query.limit;
    if (more) rows = rows.slice(0, query.limit);
    if (cursor) meta.next_since_id = more ? (rows[rows.length - 1]?.['id'] as number) : null;
    const { records, unreadable } = await this.toRecords(principal, resource, query.fields, rows, page.unreadable, stats);
    const expanded = await this.expand(principal, resource, expand, rows, records, stats);
    const allUnreadable = [...unreadable, ...expanded.unreadable];
    if (allUnreadable.length) meta.unreadable_fields = allUnreadable;
    if (expanded.meta) meta.expanded = expanded.meta;
    return { data: records, meta };
  }

  /**
   * The records of one ERP page, mapped: the building block of exports and of the change feed,
   * which read page after page with requests of their own.
   */
  async records(principal: Principal, resource: ResourceSpec, fields: readonly FieldSpec[], request: PageRequest, stats: ErpStats): Promise<ReadRecords> {
    const page = await this.readPage(principal, resource, fields, request, stats);
    return this.toRecords(principal, resource, fields, page.rows, page.unreadable, stats);
  }

  /** Ids (and the other ERP fields named) of the records of `domain`, unmapped: the change feed's scan. */
  async scan(principal: Principal, resource: Pick<ResourceSpec, 'model'>, request: PageRequest, stats: ErpStats): Promise<ErpRow[]> {
    const { fields, ...options } = request;
    return expectRows(await this.call(principal, resource.model, 'search_read', null, { ...options, fields }, stats));
  }

  async count(principal: Principal, resource: Pick<ResourceSpec, 'model'>, domain: PageRequest['domain'], stats: ErpStats): Promise<number> {
    return expectCount(await this.call(principal, resource.model, 'search_count', null, { domain }, stats));
  }

  /**
   * The `limit` records written last (`id` and `write_date`, newest first; a record without a
   * `write_date`, which Odoo's ORM never leaves, first of all, as PostgreSQL sorts NULL) and how many
   * records there are (archived ones too), in one call: web's `web_search_read` (Odoo 17 and later),
   * whose `length` is the full count when the page is full and the page's own length otherwise. No
   * domain: a filter on `write_date` would make PostgreSQL's count scan it (67 ms against 175–200 ms on
   * a million pickings), and the order is the one an index on `write_date` serves, backwards.
   */
  async latestWrites(principal: Principal, resource: Pick<ResourceSpec, 'model'>, limit: number, stats: ErpStats): Promise<{ count: number; rows: ErpRow[] }> {
    const answer = await this.call(
      principal,
      resource.model,
      'web_search_read',
      null,
      { domain: [], specification: { write_date: {} }, order: 'write_date desc, id desc', limit },
      stats,
    );
    const { length, records } = (answer ?? {}) as { length?: unknown; records?: unknown };
    return { count: expectCount(length), rows: expectRows(records) };
  }

  /** One record (404 when the account cannot see it), and the fields answered `null` in it for want of a right. */
  async detail(
    principal: Principal,
    resource: ResourceSpec,
    id: number,
    query: DetailQuery,
    stats: ErpStats,
    expand: readonly ExpandTerm[] = [],
  ): Promise<{ record: ApiRecord; unreadable: readonly string[]; expanded?: ExpandedMeta }> {
    const page = await this.readPage(principal, resource, query.fields, withLinks(detailRequest(resource, id, query), expand), stats);
    if (page.rows.length === 0) throw notFound(`No ${resource.path} record with id ${id}.`);
    const { records, unreadable } = await this.toRecords(principal, resource, query.fields, page.rows, page.unreadable, stats);
    const expanded = await this.expand(principal, resource, expand, page.rows, records, stats);
    return { record: records[0] as ApiRecord, unreadable: [...unreadable, ...expanded.unreadable], ...(expanded.meta ? { expanded: expanded.meta } : {}) };
  }

  /**
   * The relations asked (`expand`) put inside each record: one `search_read` of the related resource
   * per relation for the whole page, whatever its size (its records' own related values then cost what
   * they cost on its list route), in parallel. The related resource's scope, read rights and drift
   * apply as on its own routes. A relation whose model the account cannot read is `null` in every
   * record, named in `unreadable_fields` and logged; a related field it cannot read is named
   * `<relation>.<field>`.
   */
  private async expand(
    principal: Principal,
    resource: ResourceSpec,
    terms: readonly ExpandTerm[],
    rows: readonly ErpRow[],
    records: ApiRecord[],
    stats: ErpStats,
  ): Promise<{ unreadable: string[]; meta?: ExpandedMeta }> {
    if (terms.length === 0 || rows.length === 0) return { unreadable: [] };
    const unreadable: string[] = [];
    const meta: ExpandedMeta = {};
    await Promise.all(
      terms.map(async (term) => {
        const { relation, target } = term;
        const refused = () => {
          for (const record of records) record[relation.name] = null;
          unreadable.push(relation.name);
          this.warnOnce(principal, resource, new Map([[relation.name, target.model]]));
        };
        // The related resource unavailable for catalogue drift (its model or its scope's fields gone):
        // never read without its scope; null, as a field the drift took is (logged once by the drift check).
        if (this.gapsOf(target).unavailable) {
          for (const record of records) record[relation.name] = null;
          return;
        }
        // The right is asked once and cached with the key, as the request's own is: what is learned
        // of the related resource's unreadable fields is kept with it.
        if (!(await this.memory.canRead(principal, target.model, stats))) return refused();
        try {
          if (relation.kind === 'to_one') await this.expandOne(principal, term, rows, records, stats, unreadable);
          else meta[relation.name] = await this.expandMany(principal, term, rows, records, stats, unreadable);
        } catch (error) {
          if (!(error instanceof ErpFault && error.kind === 'access_error')) throw error;
          // The right was taken away since it was cached: forgotten, so that the next request asks again.
          this.memory.forgetRight(principal, target.model);
          refused();
        }
      }),
    );
    // In the order asked, whatever the order the reads ended in.
    const order = new Map(terms.map((term, i) => [term.relation.name, i]));
    const rank = (name: string) => order.get(name.split('.')[0] as string) ?? 0;
    unreadable.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
    return Object.keys(meta).length ? { unreadable, meta } : { unreadable };
  }

  /** The related records of a page, read in one call, mapped, with the raw rows they came from. */
  private async related(principal: Principal, term: ExpandTerm, request: PageRequest, stats: ErpStats, unreadable: string[]) {
    const page = await this.readPage(principal, term.target, term.fields, request, stats);
    const mapped = await this.toRecords(principal, term.target, term.fields, page.rows, page.unreadable, stats);
    for (const field of mapped.unreadable) unreadable.push(`${term.relation.name}.${field}`);
    return { rows: page.rows, records: mapped.records };
  }

  /** `to_one`: the record each record's link points to (null: no link, or outside the related resource's scope). */
  private async expandOne(principal: Principal, term: ExpandTerm, rows: readonly ErpRow[], records: ApiRecord[], stats: ErpStats, unreadable: string[]): Promise<void> {
    const { relation, target } = term;
    const ids = [...new Set(rows.map((row) => many2oneId(row[relation.link])).filter((id): id is number => id !== undefined))];
    const byId = new Map<number, ApiRecord>();
    if (ids.length > 0) {
      const request: PageRequest = { domain: [...compileDomain(target, []), ['id', 'in', ids]], fields: erpFieldsOf(term.fields), limit: ids.length, order: 'id asc' };
      const found = await this.related(principal, term, request, stats, unreadable);
      found.records.forEach((record, i) => {
        byId.set(found.rows[i]?.['id'] as number, record);
      });
    }
    rows.forEach((row, i) => {
      const id = many2oneId(row[relation.link]);
      (records[i] as ApiRecord)[relation.name] = id === undefined ? null : (byId.get(id) ?? null);
    });
  }

  /**
   * `to_many`: the records pointing to each record, in the related list route's default order, at most
   * `EXPAND_PER_RECORD` each. One read for the page, of at most that bound times the page's records
   * (never fewer than `EXPAND_READ_FLOOR`) plus one: when it comes back whole, every record's count is
   * known; when it is cut (some record has more than the bound), every record the cut may have
   * reached is named in `truncated` with a null total. Each truncated record has the link that pages
   * the rest.
   */
  private async expandMany(
    principal: Principal,
    term: ExpandTerm,
    rows: readonly ErpRow[],
    records: ApiRecord[],
    stats: ErpStats,
    unreadable: string[],
  ): Promise<ExpandedMeta[string]> {
    const { relation, target } = term;
    const ids = rows.map((row) => row['id'] as number);
    const limit = Math.max(EXPAND_PER_RECORD * ids.length, EXPAND_READ_FLOOR);
    const request: PageRequest = {
      domain: [...compileDomain(target, []), [relation.link, 'in', ids]],
      fields: [...new Set([...erpFieldsOf(term.fields), relation.link])],
      limit: limit + 1,
      order: term.order,
    };
    const found = await this.related(principal, term, request, stats, unreadable);
    const cut = found.rows.length > limit;
    const byParent = new Map<number, ApiRecord[]>(ids.map((id) => [id, []]));
    for (let i = 0; i < Math.min(found.rows.length, limit); i++) {
      const parent = many2oneId(found.rows[i]?.[relation.link]);
      if (parent !== undefined) byParent.get(parent)?.push(found.records[i] as ApiRecord);
    }
    const truncated: TruncatedRelation[] = [];
    rows.forEach((row, i) => {
      const id = row['id'] as number;
      const all = byParent.get(id) ?? [];
      const shown = all.slice(0, EXPAND_PER_RECORD);
      (records[i] as ApiRecord)[relation.name] = shown;
      if (all.length > EXPAND_PER_RECORD || cut)
        truncated.push({ id, total: cut ? null : all.length, next: `/api/v1/${target.path}?${relation.filter}=${id}&offset=${shown.length}` });
    });
    return { resource: target.path, per_record_max: EXPAND_PER_RECORD, truncated };
  }

  /** The ERP's major version: which grouped read it serves (the aggregate route). */
  async erpMajor(): Promise<number> {
    return (await this.erp.connect()).version.major;
  }

  /**
   * A grouped read (`read_group`, `formatted_read_group`) of the resource's model, with the context
   * of every call: the groups as the ERP answers them, checked to be a list of objects.
   */
  async groups(principal: Principal, resource: ResourceSpec, method: 'read_group' | 'formatted_read_group', kwargs: Record<string, unknown>, stats: ErpStats): Promise<ErpRow[]> {
    const answer = await this.call(principal, resource.model, method, null, kwargs, stats);
    if (Array.isArray(answer) && answer.every((group) => group !== null && typeof group === 'object' && !Array.isArray(group))) return answer as ErpRow[];
    throw new ErpUnavailable(`the ERP answered ${method} with something that is not a list of groups`);
  }

  private call(principal: Principal, model: string, method: string, ids: readonly number[] | null, kwargs: Record<string, unknown>, stats: ErpStats) {
    return this.erp.call(principal, { model, method, ids, kwargs: { ...kwargs, context: ERP_CONTEXT } }, stats);
  }

  /** `search_read` of the page, leaving out (and reporting) the fields the account cannot read. */
  private async readPage(principal: Principal, resource: ResourceSpec, fields: readonly FieldSpec[], request: PageRequest, stats: ErpStats): Promise<PageRows> {
    const { fields: wanted, ...options } = request;
    let blocked = this.memory.unreadableOn(principal, resource.model) ?? new Map<string, string>();
    const read = (erpFields: readonly string[]) => this.call(principal, resource.model, 'search_read', null, { ...options, fields: erpFields }, stats).then(expectRows);
    const missing = this.gapsOf(resource).erpFields;
    const readable = (f: string) => !blocked.has(f) && !missing.has(f);
    let rows: ErpRow[];
    try {
      rows = await read(wanted.filter(readable));
    } catch (error) {
      if (!isRelationRefusal(error, resource)) throw error;
      const found = await this.findUnreadable(
        resource,
        wanted.filter((f) => f !== 'id' && readable(f)),
        read,
      );
      if (found.size === 0) throw error;
      blocked = new Map([...blocked, ...found]);
      this.memory.rememberUnreadable(principal, resource.model, blocked);
      rows = await read(wanted.filter(readable));
    }
    const unreadable = new Map<string, string>();
    for (const field of fields) {
      const erp = erpFieldOf(field);
      const model = erp === undefined ? undefined : blocked.get(erp);
      if (model !== undefined) unreadable.set(field.name, model);
    }
    return { rows, unreadable };
  }

  /**
   * The fields whose reading raises an AccessError naming another model, by halving: each with that
   * model. A refusal of the resource's own model on the way (the right was taken away meanwhile) ends
   * the search: it is passed on, and nothing is learned.
   */
  private async findUnreadable(resource: ResourceSpec, fields: readonly string[], read: (fields: readonly string[]) => Promise<unknown>): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const probe = async (group: readonly string[]): Promise<void> => {
      try {
        await read(['id', ...group]);
      } catch (error) {
        if (!isRelationRefusal(error, resource)) throw error;
        if (group.length === 1) {
          found.set(group[0] as string, error.model);
          return;
        }
        const half = Math.ceil(group.length / 2);
        await Promise.all([probe(group.slice(0, half)), probe(group.slice(half))]);
      }
    };
    if (fields.length > 0) await probe(fields);
    return found;
  }

  private async toRecords(
    principal: Principal,
    resource: ResourceSpec,
    fields: readonly FieldSpec[],
    rows: readonly ErpRow[],
    unreadable: Map<string, string>,
    stats: ErpStats,
  ): Promise<ReadRecords> {
    // No record, no null: an empty page names no field (what is remembered still holds for the next one).
    if (rows.length === 0) return { records: [], unreadable: [] };
    const dropped = this.gapsOf(resource).apiFields;
    const related = await this.readRelations(principal, fields, rows, unreadable, dropped, stats);
    if (unreadable.size > 0) this.warnOnce(principal, resource, unreadable);
    const map = this.mapperFor(resource, fields, new Set([...unreadable.keys(), ...dropped]));
    return { records: rows.map((row) => map(row, related) as ApiRecord), unreadable: fields.filter((f) => unreadable.has(f.name)).map((f) => f.name) };
  }

  /** The unreadable-relation warning, once per account, model and field set while `rememberMs` lasts. */
  private warnOnce(principal: Principal, resource: ResourceSpec, unreadable: ReadonlyMap<string, string>): void {
    const fields = [...unreadable].map(([field, model]) => ({ field, model }));
    const key = `${principal.uid}|${resource.model}|${fields
      .map(({ field, model }) => `${field}:${model}`)
      .sort()
      .join(',')}`;
    if (this.warned.get(key)) return;
    if (this.rememberMs > 0) this.warned.set(key, true, this.rememberMs);
    this.log.warn({ resource: resource.path, erp_uid: principal.uid, fields }, 'unreadable relation: fields answered as null (the API account has no read right on their model)');
  }

  /** Mappers are compiled once per field list (the full list is one shared array) and unreadable set. */
  private readonly mappers = new WeakMap<readonly FieldSpec[], Map<string, ReturnType<typeof compileMapper>>>();

  private mapperFor(resource: ResourceSpec, fields: readonly FieldSpec[], nulls: ReadonlySet<string>) {
    let byUnreadable = this.mappers.get(fields);
    if (!byUnreadable) {
      byUnreadable = new Map();
      this.mappers.set(fields, byUnreadable);
    }
    const key = [...nulls].join(',');
    let map = byUnreadable.get(key);
    if (!map) {
      map = compileMapper(resource, fields, { urlFor: this.urlFor, unreadable: nulls });
      byUnreadable.set(key, map);
    }
    return map;
  }

  /** One `read` per comodel relation, for related values and display names. */
  private async readRelations(
    principal: Principal,
    fields: readonly FieldSpec[],
    rows: readonly ErpRow[],
    unreadable: Map<string, string>,
    /** Fields answered as null because of catalogue drift. */
    dropped: ReadonlySet<string>,
    stats: ErpStats,
  ): Promise<RelatedValues> {
    const groups = new Map<string, { comodel: string; field: string; ids: Set<number>; users: FieldSpec[] }>();
    for (const field of fields) {
      const key = relationKey(field);
      if (key === undefined || unreadable.has(field.name) || dropped.has(field.name)) continue;
      const source = field.source as Extract<FieldSpec['source'], { comodel: string }>;
      const comodelField = source.kind === 'related' ? source.comodelField : 'display_name';
      const group = groups.get(key) ?? { comodel: source.comodel, field: comodelField, ids: new Set<number>(), users: [] };
      group.users.push(field);
      for (const row of rows) for (const id of relatedIds(field, row)) group.ids.add(id);
      groups.set(key, group);
    }
    const related = new Map<string, Map<number, unknown>>();
    await Promise.all(
      [...groups].map(async ([key, group]) => {
        if (group.ids.size === 0) return;
        try {
          const values = expectRows(await this.call(principal, group.comodel, 'read', [...group.ids], { fields: [group.field] }, stats));
          related.set(key, new Map(values.map((value) => [value['id'] as number, value[group.field]])));
        } catch (error) {
          if (!(error instanceof ErpFault && error.kind === 'access_error')) throw error;
          for (const field of group.users) unreadable.set(field.name, error.model ?? group.comodel);
        }
      }),
    );
    return related;
  }
}

/** The id a many2one value holds (`[id, name]`, a bare id, or `false`). */
function many2oneId(value: unknown): number | undefined {
  const id = Array.isArray(value) ? value[0] : value;
  return typeof id === 'number' ? id : undefined;
}

/** A page request that also reads the links of the `to_one` relations expanded (a record's `*_id`, even when `fields=` leaves it out). */
function withLinks(request: PageRequest, expand: readonly ExpandTerm[]): PageRequest {
  const links = expand.filter((term) => term.relation.kind === 'to_one').map((term) => term.relation.link);
  return links.length ? { ...request, fields: [...new Set([...request.fields, ...links])] } : request;
}

/** An answer in the protocol but not of the expected shape is a bad gateway (D22), not a crash. */
function expectRows(value: unknown): ErpRow[] {
  if (Array.isArray(value) && value.every((row) => row !== null && typeof row === 'object' && typeof (row as ErpRow)['id'] === 'number')) return value as ErpRow[];
  throw new ErpUnavailable('the ERP answered a read with something that is not a list of records');
}

function expectCount(value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  throw new ErpUnavailable('the ERP answered a count with something that is not a count');
}

/**
 * An AccessError naming a model other than the resource's: reading some field needs that model.
 * A refusal naming the resource's own model, or none, is the account's right on the model (403).
 */
function isRelationRefusal(error: unknown, resource: ResourceSpec): error is ErpFault & { readonly model: string } {
  if (!(error instanceof ErpFault && error.kind === 'access_error')) return false;
  const model = error.model;
  return model !== undefined && model !== resource.model;
}

function relatedIds(field: FieldSpec, row: ErpRow): number[] {
  const source = field.source;
  if (source.kind === 'distribution_accounts') return distributionAccountIds(row[source.erp]);
  if (source.kind !== 'related' && source.kind !== 'x2many') return [];
  const value = row[source.erp];
  if (Array.isArray(value)) return source.kind === 'related' ? (typeof value[0] === 'number' ? [value[0]] : []) : (value as number[]);
  return typeof value === 'number' ? [value] : [];
}
