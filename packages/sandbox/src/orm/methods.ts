/**
 * @module What each public method does once its arguments are bound: searches and reads with
 * the read right checked first (as `_search` does), the identity and permission probes of
 * section 7 in each version's shape, and the write methods refused at the rights level (nobody
 * in the sandbox may write).
 */
import type { StatementCache } from '../store/statements';
import type { AccessControl } from './access';
import type { BoundArguments } from './binding';
import { compileDomain, type DomainContext } from './domain';
import { parseDomain } from './domain-parse';
import { OPERATIONS, accessError, typeError, valueError, type Operation } from './errors';
import { fieldsGet } from './fields-get';
import { boundedFields, compileOrder } from './order';
import { pyRepr, pyTruthy } from './python';
import { readRecords, resolveFieldNames, type ReadContext, type RowSource } from './read';
import type { GroupContext } from './read-group';
import { formattedReadGroup, readGroup } from './read-group-format';
import { isPytzZone } from './temporal';
import type { ModelInfo, Registry } from './registry';
import { param, raw, sql } from './sql';
import { quoteIdent } from '../store/naming';
import type { Env, OdooVersion } from './types';
import { ormTraits } from './version-traits';

/** Everything a method needs about the call. */
export interface Request {
  readonly version: OdooVersion;
  readonly registry: Registry;
  readonly access: AccessControl;
  readonly statements: StatementCache;
  readonly env: Env;
  readonly model: ModelInfo;
  /** The recordset of a record method (`[]` for `@api.model` ones). */
  readonly ids: readonly number[];
  readonly args: BoundArguments;
  readonly now: Date;
  /** `active_test` of the context (Python truthiness, default true). */
  readonly activeTest: boolean;
  /** Time zone of the request: context `tz`, else the user's, else UTC. */
  readonly tz: string;
  /** `lang` and `tz` columns of the calling user. */
  readonly userPreferences: () => { lang: string | null; tz: string | null };
}

export type Handler = (request: Request) => unknown;

function arg(request: Request, name: string, fallback: unknown = undefined): unknown {
  return Object.hasOwn(request.args.values, name) ? request.args.values[name] : fallback;
}

function domainContext(request: Request): DomainContext {
  return {
    registry: request.registry,
    version: request.version,
    access: request.access,
    uid: request.env.uid,
    activeTest: request.activeTest,
    tz: request.tz,
    now: request.now,
  };
}

function readContext(request: Request): ReadContext {
  return {
    registry: request.registry,
    version: request.version,
    access: request.access,
    uid: request.env.uid,
    statements: request.statements,
    now: request.now,
  };
}

function groupContext(request: Request): GroupContext {
  const tz = request.env.context['tz'];
  return {
    registry: request.registry,
    version: request.version,
    access: request.access,
    uid: request.env.uid,
    statements: request.statements,
    domain: domainContext(request),
    contextTz: typeof tz === 'string' && isPytzZone(tz) ? tz : undefined,
  };
}

/** A grouped read's `limit` or `offset`: any falsy value means none (`if limit:`); PostgreSQL refuses negatives. */
function groupNumber(value: unknown, what: 'limit' | 'offset'): number | null {
  if (!pyTruthy(value)) return null;
  const n = typeof value === 'string' ? Number(value) : value === true ? 1 : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw valueError(`invalid ${what} ${pyRepr(value)}`);
  return Math.round(n);
}

/** `read_group(domain, fields, groupby, offset=0, limit=None, orderby=False, lazy=True)`. */
const readGroupHandler: Handler = (request) =>
  readGroup(groupContext(request), request.model, {
    domain: arg(request, 'domain'),
    fields: arg(request, 'fields'),
    groupby: arg(request, 'groupby'),
    offset: groupNumber(arg(request, 'offset'), 'offset') ?? 0,
    limit: groupNumber(arg(request, 'limit'), 'limit'),
    orderby: arg(request, 'orderby', false),
    lazy: pyTruthy(arg(request, 'lazy', true)),
    context: request.env.context,
  });

/** `formatted_read_group(domain, groupby=(), aggregates=(), having=(), offset=0, limit=None, order=None)` (19). */
const formattedReadGroupHandler: Handler = (request) =>
  formattedReadGroup(groupContext(request), request.model, {
    domain: arg(request, 'domain'),
    groupby: arg(request, 'groupby', []),
    aggregates: arg(request, 'aggregates', []),
    having: arg(request, 'having', []),
    offset: groupNumber(arg(request, 'offset'), 'offset') ?? 0,
    limit: groupNumber(arg(request, 'limit'), 'limit'),
    order: arg(request, 'order', null),
    context: request.env.context,
  });

/** `limit`: None/False mean no limit (RPC has no None), True is 1. */
function limitArg(value: unknown): number | null {
  if (value === undefined || value === null || value === false) return null;
  if (value === true) return 1;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw valueError(`invalid limit ${pyRepr(value)}`);
  if (n < 0) throw valueError('LIMIT must not be negative');
  return Math.trunc(n);
}

function offsetArg(value: unknown): number {
  if (value === undefined || value === null || value === false) return 0;
  const n = typeof value === 'string' ? Number(value) : value === true ? 1 : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw valueError(`invalid offset ${pyRepr(value)}`);
  if (n < 0) throw valueError('OFFSET must not be negative');
  return Math.trunc(n);
}

function orderArg(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

/** `_search`: read right, domain (with `active_test`), then order, as Odoo checks them. */
function searchSource(request: Request, domain: unknown, limit: unknown, offset: unknown, order: unknown): RowSource {
  request.access.check(request.env.uid, request.model.name, 'read');
  const where = compileDomain(domainContext(request), request.model, domain);
  const bounded = boundedFields(request.model, parseDomain(domain, request.version));
  const compiled = compileOrder(request.registry, request.version, request.model, orderArg(order), bounded);
  return { kind: 'search', where, order: compiled, limit: limitArg(limit), offset: offsetArg(offset) };
}

const search: Handler = (request) => {
  const source = searchSource(request, arg(request, 'domain'), arg(request, 'limit'), arg(request, 'offset'), arg(request, 'order'));
  return readRecords(readContext(request), request.model, ['id'], source, { displayNames: false, x2manyActiveTest: true }).map((r) => r['id']);
};

const searchRead: Handler = (request) => {
  const domain = arg(request, 'domain');
  const source = searchSource(request, pyTruthy(domain) ? domain : [], arg(request, 'limit'), arg(request, 'offset'), arg(request, 'order'));
  const fields = resolveFieldNames(request.version, request.model, arg(request, 'fields'));
  for (const key of Object.keys(request.args.extraKeywords)) {
    if (key !== 'load') throw typeError(`BaseModel._read_format() got an unexpected keyword argument '${key}'`);
  }
  const load = Object.hasOwn(request.args.extraKeywords, 'load') ? request.args.extraKeywords['load'] : '_classic_read';
  // search_read drops active_test after the search: x2many values never show archived rows.
  return readRecords(readContext(request), request.model, fields, source, { displayNames: load === '_classic_read', x2manyActiveTest: true });
};

const searchCount: Handler = (request) => countOf(request, arg(request, 'domain'), limitArg(arg(request, 'limit')));

/** `search_count(domain, limit)`: the records the domain finds (with `active_test`), `limit` at most. */
function countOf(request: Request, domain: unknown, limit: number | null): number {
  request.access.check(request.env.uid, request.model.name, 'read');
  const where = compileDomain(domainContext(request), request.model, domain);
  const table = raw(quoteIdent(request.model.table));
  const query =
    limit === null ? sql`SELECT COUNT(*) AS "n" FROM ${table} t WHERE ${where}` : sql`SELECT COUNT(*) AS "n" FROM (SELECT 1 FROM ${table} t WHERE ${where} LIMIT ${param(limit)})`;
  return request.statements.get<{ n: number }>(query)?.n ?? 0;
}

/**
 * web's `web_search_read` (17 and later; addons/web/models/models.py): the records `search_fetch`
 * finds, read by a specification, and `length`: none found, 0; the page full (`len == limit`, the
 * count limit not reached) or context `force_search_count`, `search_count(domain, limit=count_limit)`;
 * else offset plus the page's length. The sandbox reads flat specifications (`{"field": {}}`: a
 * many2one as its bare id, an x2many as its ids, as web_read gives them); a nested one (`"fields"`,
 * `"limit"`, `"order"` inside) is refused as not supported here.
 */
const webSearchRead: Handler = (request) => {
  const specification = arg(request, 'specification');
  if (specification === null || typeof specification !== 'object' || Array.isArray(specification)) {
    throw valueError(`web_search_read: specification must be a dict of field names, got ${pyRepr(specification)}`);
  }
  const names = Object.keys(specification);
  for (const [name, inner] of Object.entries(specification as Record<string, unknown>)) {
    if (inner !== null && typeof inner === 'object' && Object.keys(inner).length > 0) {
      throw valueError(`web_search_read: the sandbox reads flat specifications only ({"${name}": {}})`);
    }
  }
  const domain = arg(request, 'domain');
  const [offset, limit, countLimit] = [offsetArg(arg(request, 'offset')), limitArg(arg(request, 'limit')), limitArg(arg(request, 'count_limit'))];
  const source = searchSource(request, domain, limit, offset, arg(request, 'order'));
  const fields = resolveFieldNames(request.version, request.model, names);
  const records = readRecords(readContext(request), request.model, fields, source, { displayNames: false, x2manyActiveTest: true });
  if (!records.length) return { length: 0, records: [] };
  const current = records.length + offset;
  const countLimitReached = Boolean(countLimit) && (countLimit as number) <= current;
  const force = pyTruthy(request.env.context['force_search_count']);
  const length = limit && ((records.length === limit && !countLimitReached) || force) ? countOf(request, domain, countLimit) : current;
  return { length, records };
};

/** `read`: ids order kept, missing ids dropped, archived rows returned; nothing read for no ids. */
const read: Handler = (request) => {
  const fieldsArg = arg(request, 'fields');
  if (!request.ids.length) {
    if (ormTraits(request.version).readChecksFieldsWithoutIds && pyTruthy(fieldsArg)) resolveFieldNames(request.version, request.model, fieldsArg);
    return [];
  }
  request.access.check(request.env.uid, request.model.name, 'read');
  const fields = resolveFieldNames(request.version, request.model, fieldsArg);
  const load = arg(request, 'load', '_classic_read');
  return readRecords(
    readContext(request),
    request.model,
    fields,
    { kind: 'ids', ids: request.ids },
    {
      displayNames: load === '_classic_read',
      x2manyActiveTest: request.activeTest,
    },
  );
};

const fieldsGetHandler: Handler = (request) => fieldsGet(request.version, request.model, arg(request, 'allfields'), arg(request, 'attributes'));

/** `name_search`: `display_name <operator> name` AND the extra domain, `_order`, limit 100. */
const nameSearch: Handler = (request) => {
  const name = arg(request, 'name', '');
  const extra = arg(request, ormTraits(request.version).nameSearchDomainParam);
  const domain = [['display_name', arg(request, 'operator', 'ilike'), name], ...(Array.isArray(extra) ? extra : [])];
  const source = searchSource(request, domain, arg(request, 'limit', 100), 0, undefined);
  return readRecords(readContext(request), request.model, ['display_name'], source, { displayNames: false, x2manyActiveTest: true }).map((r) => [r['id'], r['display_name']]);
};

/** 17's `name_get`: `[[id, display_name]]` of the records. */
const nameGet: Handler = (request) => {
  if (!request.ids.length) return [];
  request.access.check(request.env.uid, request.model.name, 'read');
  return readRecords(
    readContext(request),
    request.model,
    ['display_name'],
    { kind: 'ids', ids: request.ids },
    {
      displayNames: false,
      x2manyActiveTest: true,
    },
  ).map((r) => [r['id'], r['display_name']]);
};

function operationArg(request: Request): Operation {
  const operation = arg(request, 'operation');
  if (typeof operation !== 'string' || !OPERATIONS.includes(operation as Operation)) throw valueError('Invalid access mode');
  return operation as Operation;
}

/** 17: true / false / AccessError. 18-19: `check_access` (None) or `has_access` (bool). */
const checkAccessRights: Handler = (request) => {
  const operation = operationArg(request);
  const raise = pyTruthy(arg(request, 'raise_exception', true));
  const allowed = request.access.has(request.env.uid, request.model.name, operation);
  if (!allowed && raise) request.access.check(request.env.uid, request.model.name, operation);
  if (ormTraits(request.version).checkAccessRightsReturnsNone && raise) return null;
  return allowed;
};

const hasAccess: Handler = (request) => request.access.has(request.env.uid, request.model.name, operationArg(request));

const checkAccess: Handler = (request) => {
  request.access.check(request.env.uid, request.model.name, operationArg(request));
  return null;
};

/** `res.users.context_get()`: `{lang, tz, uid}` from the calling user's preferences. */
const contextGet: Handler = (request) => {
  const { lang, tz } = request.userPreferences();
  return { lang: lang ?? 'en_US', tz: tz ?? false, uid: request.env.uid };
};

/** `ensure_one()`: `ValueError("Expected singleton: res.users()")` unless exactly one record. */
function ensureOne(request: Request): number {
  if (request.ids.length !== 1) throw valueError(`Expected singleton: ${request.model.name}(${request.ids.join(', ')})`);
  return request.ids[0]!;
}

function singleUser(request: Request): number {
  const uid = ensureOne(request);
  // Odoo 17.2+: a user outside base.group_user may only ask about himself.
  if (uid !== request.env.uid && !request.access.hasGroup(request.env.uid, 'base.group_user')) {
    throw accessError('You can ony call user.has_group() with your current user.');
  }
  return uid;
}

/** 17: `@api.model has_group(group_ext_id)` on the calling user; 18-19: a singleton record method. */
const hasGroup: Handler = (request) => {
  const uid = ormTraits(request.version).hasGroupOnModel ? request.env.uid : singleUser(request);
  return request.access.hasGroup(uid, String(arg(request, 'group_ext_id')));
};

/** `has_groups('a,!b')`: in none of the negated groups, and in one of the others (if any). */
const hasGroups: Handler = (request) => {
  const uid = singleUser(request);
  const specs = String(arg(request, 'group_spec'))
    .split(',')
    .map((s) => s.trim());
  const negatives = specs.filter((s) => s.startsWith('!')).map((s) => s.slice(1));
  const positives = specs.filter((s) => !s.startsWith('!'));
  if (negatives.some((g) => request.access.hasGroup(uid, g))) return false;
  if (positives.some((g) => request.access.hasGroup(uid, g))) return true;
  return positives.length === 0;
};

/** Writes are refused by the model ACL (no group may write); on no records they do nothing. */
function refuse(operation: Operation, emptyResult?: unknown): Handler {
  return (request) => {
    if (emptyResult !== undefined && !request.ids.length) return emptyResult;
    request.access.check(request.env.uid, request.model.name, operation);
    throw accessError(`${request.model.name}.${operation} is not available in the sandbox`);
  };
}

const copy: Handler = (request) => {
  ensureOne(request);
  return refuse('create')(request);
};

const HANDLERS: Readonly<Record<string, Handler>> = {
  search,
  search_read: searchRead,
  search_count: searchCount,
  web_search_read: webSearchRead,
  read,
  fields_get: fieldsGetHandler,
  read_group: readGroupHandler,
  formatted_read_group: formattedReadGroupHandler,
  name_search: nameSearch,
  name_get: nameGet,
  check_access_rights: checkAccessRights,
  has_access: hasAccess,
  check_access: checkAccess,
  context_get: contextGet,
  has_group: hasGroup,
  has_groups: hasGroups,
  create: refuse('create'),
  write: refuse('write', true),
  unlink: refuse('unlink', true),
  copy,
  toggle_active: refuse('write', true),
  action_archive: refuse('write', true),
  action_unarchive: refuse('write', true),
};

/** The implementation of a method spec (any `action_*` is a refused write). */
export function handlerFor(method: string): Handler | undefined {
  return HANDLERS[method] ?? (method.startsWith('action_') ? refuse('write', true) : undefined);
}
