/**
 * @module Reads a resource's records from the ERP for one request: the page and the count in
 * parallel, then one batched `read` per relation whose values live on a comodel, then the mapping.
 *
 * Unreadable relations (interface spec, general rule 4): on Odoo, reading a field whose value comes
 * from a model the account cannot read fails the *whole* call with AccessError, even for a computed
 * field with no declared relation. So when a page read fails that way, the fields to blame are found
 * by halving the field list, remembered per account and model for the auth cache's lifetime, and
 * the page is read again without them; they are `null` in the answer and named in a warning.
 *
 * Catalogue drift (DRIFT_CHECK=warn): fields the ERP no longer has are left out of the read and
 * answered as `null` too (`gapsOf`, from the drift check; logged once by the check, not per request).
 */
import type { Logger } from 'pino';
import { ErpFault, ErpUnavailable } from './erp/erp-error';
import type { ErpClient, ErpStats } from './erp/erp-client';
import type { Principal } from './admission/auth';
import { notFound } from './errors';
import { detailRequest, ERP_CONTEXT, erpFieldOf, listRequests, type PageRequest } from './erp-requests';
import { NO_GAPS, type DriftGaps } from './drift/drift-gaps';
import type { DetailQuery, ListQuery } from './query/parse-query';
import { compileMapper, distributionAccountIds, relationKey, type ApiRecord, type ErpRow, type RelatedValues } from './records';
import type { FieldSpec, ResourceSpec } from './resource-spec';
import { TtlCache } from './ttl-cache';

export interface ListPage {
  readonly data: ApiRecord[];
  readonly meta: { total?: number; next_since_id?: number | null };
}

interface PageRows {
  readonly rows: ErpRow[];
  /** API fields left null, with the model the account cannot read. */
  readonly unreadable: Map<string, string>;
}

export class ResourceReader {
  /** `uid|model` → ERP fields that account cannot read on that model, with the model to blame. */
  private readonly unreadableFields: TtlCache<string, ReadonlyMap<string, string>>;

  constructor(
    private readonly erp: ErpClient,
    private readonly log: Logger,
    private readonly urlFor: (model: string, id: number) => string,
    private readonly rememberMs: number,
    private readonly gapsOf: (resource: ResourceSpec) => DriftGaps = () => NO_GAPS,
  ) {
    this.unreadableFields = new TtlCache(10000);
  }

  async list(principal: Principal, resource: ResourceSpec, query: ListQuery, stats: ErpStats): Promise<ListPage> {
    const requests = listRequests(resource, query);
    const cursor = query.sinceId !== undefined;
    const pageP = this.readPage(principal, resource, query.fields, requests.page, stats);
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
    const data = await this.toRecords(principal, resource, query.fields, rows, page.unreadable, stats);
    return { data, meta };
  }

  /**
   * The records of one ERP page, mapped: the building block of exports and of the change feed,
   * which read page after page with requests of their own.
   */
  async records(principal: Principal, resource: ResourceSpec, fields: readonly FieldSpec[], request: PageRequest, stats: ErpStats): Promise<ApiRecord[]> {
    const page = await this.readPage(principal, resource, fields, request, stats);
    return this.toRecords(principal, resource, fields, page.rows, page.unreadable, stats);
  }

  /** Ids (and the other ERP fields named) of the records of `domain`, unmapped: the change feed's scan. */
  async scan(principal: Principal, resource: ResourceSpec, request: PageRequest, stats: ErpStats): Promise<ErpRow[]> {
    const { fields, ...options } = request;
    return expectRows(await this.call(principal, resource.model, 'search_read', null, { ...options, fields }, stats));
  }

  async count(principal: Principal, resource: ResourceSpec, domain: PageRequest['domain'], stats: ErpStats): Promise<number> {
    return expectCount(await this.call(principal, resource.model, 'search_count', null, { domain }, stats));
  }

  async detail(principal: Principal, resource: ResourceSpec, id: number, query: DetailQuery, stats: ErpStats): Promise<ApiRecord> {
    const page = await this.readPage(principal, resource, query.fields, detailRequest(resource, id, query), stats);
    if (page.rows.length === 0) throw notFound(`No ${resource.path} record with id ${id}.`);
    const [record] = await this.toRecords(principal, resource, query.fields, page.rows, page.unreadable, stats);
    return record as ApiRecord;
  }

  private call(principal: Principal, model: string, method: string, ids: readonly number[] | null, kwargs: Record<string, unknown>, stats: ErpStats) {
    return this.erp.call(principal, { model, method, ids, kwargs: { ...kwargs, context: ERP_CONTEXT } }, stats);
  }

  /** `search_read` of the page, leaving out (and reporting) the fields the account cannot read. */
  private async readPage(principal: Principal, resource: ResourceSpec, fields: readonly FieldSpec[], request: PageRequest, stats: ErpStats): Promise<PageRows> {
    const { fields: wanted, ...options } = request;
    const cacheKey = `${principal.uid}|${resource.model}`;
    let blocked = this.unreadableFields.get(cacheKey) ?? new Map<string, string>();
    const read = (erpFields: readonly string[]) => this.call(principal, resource.model, 'search_read', null, { ...options, fields: erpFields }, stats).then(expectRows);
    const missing = this.gapsOf(resource).erpFields;
    const readable = (f: string) => !blocked.has(f) && !missing.has(f);
    let rows: ErpRow[];
    try {
      rows = await read(wanted.filter(readable));
    } catch (error) {
      if (!isAccessError(error)) throw error;
      const found = await this.findUnreadable(
        wanted.filter((f) => f !== 'id' && readable(f)),
        read,
      );
      if (found.size === 0) throw error;
      blocked = new Map([...blocked, ...found]);
      this.unreadableFields.set(cacheKey, blocked, this.rememberMs);
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

  /** The fields whose reading raises AccessError, by halving: each with the model the error names. */
  private async findUnreadable(fields: readonly string[], read: (fields: readonly string[]) => Promise<unknown>): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const probe = async (group: readonly string[]): Promise<void> => {
      try {
        await read(['id', ...group]);
      } catch (error) {
        if (!isAccessError(error)) throw error;
        if (group.length === 1) {
          found.set(group[0] as string, (error as ErpFault).model ?? 'unknown');
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
  ): Promise<ApiRecord[]> {
    const dropped = this.gapsOf(resource).apiFields;
    const related = rows.length ? await this.readRelations(principal, fields, rows, unreadable, dropped, stats) : new Map();
    if (unreadable.size > 0)
      this.log.warn(
        { resource: resource.path, fields: [...unreadable].map(([field, model]) => ({ field, model })) },
        'unreadable relation: fields answered as null (the API account has no read right on their model)',
      );
    const map = this.mapperFor(resource, fields, new Set([...unreadable.keys(), ...dropped]));
    return rows.map((row) => map(row, related) as ApiRecord);
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
          if (!isAccessError(error)) throw error;
          for (const field of group.users) unreadable.set(field.name, (error as ErpFault).model ?? group.comodel);
        }
      }),
    );
    return related;
  }
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

function isAccessError(error: unknown): boolean {
  return error instanceof ErpFault && error.kind === 'access_error';
}

function relatedIds(field: FieldSpec, row: ErpRow): number[] {
  const source = field.source;
  if (source.kind === 'distribution_accounts') return distributionAccountIds(row[source.erp]);
  if (source.kind !== 'related' && source.kind !== 'x2many') return [];
  const value = row[source.erp];
  if (Array.isArray(value)) return source.kind === 'related' ? (typeof value[0] === 'number' ? [value[0]] : []) : (value as number[]);
  return typeof value === 'number' ? [value] : [];
}
