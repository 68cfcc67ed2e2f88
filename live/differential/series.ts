/**
 * @module The series of calls sent to both sides: searches with every operator of the reference
 * (section 9.2) on a field of each type, null and empty-string cases, dotted paths, order strings,
 * paging, counts, reads, `fields_get`, every error class, refused writes and the key cases. Values
 * in domains are taken from the mirrored records, so the searches select something.
 */
import { modelOrder, type FieldInfo } from '@ops-data-gateway/sandbox/orm/registry';
import type { OdooVersion } from '@ops-data-gateway/sandbox/orm/types';
import { GATEWAY_LOGIN } from '@ops-data-gateway/sandbox/seed/security';
import type { Transport } from './answer';
import type { LiveRecord, NullNumbers, Snapshot } from './mirror';
import { FIELDS_GET_ATTRIBUTES, type CommonModel, type Schema } from './schema';
import type { AccountName, ExecuteCall, KeyName, WireCall } from './wire';

export interface SeriesCall {
  readonly call: WireCall;
  readonly transports: readonly Transport[];
  /** The order the answer's top-level list follows (ties compared as sets). */
  readonly order?: { readonly model: string; readonly order: string };
  /** Applied to both results before comparing (keep what both sides can have). */
  readonly project?: (value: unknown) => unknown;
}

export interface SeriesInput {
  readonly schema: Schema;
  readonly snapshot: Snapshot;
  readonly major: number;
  readonly transports: readonly Transport[];
  /** Keys both sides have. */
  readonly keys: ReadonlySet<KeyName>;
  /** Rows whose numbers are NULL in the live database (grouped sums over them). */
  readonly nulls?: NullNumbers;
}

type Leaf = [string, string, unknown];
const ARCHIVED = { active_test: false };
const RPC: readonly Transport[] = ['jsonrpc', 'xmlrpc'];

export function buildSeries(input: SeriesInput): SeriesCall[] {
  const out: SeriesCall[] = [];
  const all = input.transports;
  const add = (call: WireCall, extra: Partial<SeriesCall> = {}) => out.push({ call, transports: extra.transports ?? all, ...extra });
  for (const model of input.schema.models.values()) modelCalls(model, input, add);
  errorCalls(input, add);
  keyCalls(input, add);
  return out;
}

type Add = (call: WireCall, extra?: Partial<SeriesCall>) => void;

function exec(model: string, method: string, kwargs: Record<string, unknown>, extra: { ids?: number[]; as?: AccountName; key?: KeyName } = {}): ExecuteCall {
  return { kind: 'execute', model, method, kwargs, ...extra };
}

/** Searchable on both sides: stored on both (non-stored computed fields search differently by nature). */
function searchable(model: CommonModel, field: FieldInfo): boolean {
  return (
    field.name !== 'id' && field.name !== 'display_name' && (field.store || field.type === 'one2many' || field.type === 'many2many') && model.live[field.name]?.store !== false
  );
}

function modelCalls(model: CommonModel, input: SeriesInput, add: Add): void {
  const records = [...(input.snapshot.get(model.name)?.values() ?? [])];
  const names = model.fields.map((f) => f.name);
  const ids = records.map((r) => r['id'] as number);
  const name = model.name;
  const defaultOrder = { model: name, order: modelOrder(model.sandbox, input.major as OdooVersion) };

  // fields_get: attributes of the fields both sides have.
  const both = [...model.sandbox.fields.keys()].filter((f) => model.live[f]);
  add(exec(name, 'fields_get', { allfields: both, attributes: [...FIELDS_GET_ATTRIBUTES] }), { project: (v) => withoutValues(pick(v, both), model.sandboxOnlyValues) });
  // Every record and every compared field: the encodings of every type.
  add(exec(name, 'search_read', { domain: [], fields: names, context: ARCHIVED }), { order: defaultOrder });
  add(exec(name, 'search_read', { domain: [], fields: names }), { order: defaultOrder });
  add(exec(name, 'search_count', { domain: [] }));
  add(exec(name, 'search_count', { domain: [], limit: 2 }));
  add(exec(name, 'search_count', { domain: [], context: ARCHIVED }));
  if (ids.length) {
    const some = [...ids.slice(0, 3)].reverse();
    add(exec(name, 'read', { fields: names }, { ids: [...some, Math.max(...ids) + 1000] }));
    add(exec(name, 'read', { fields: ['display_name'] }, { ids: [ids[0]!] }));
  }
  add(exec(name, 'search', { domain: [], order: 'id desc', limit: 3, offset: 1, context: ARCHIVED }));
  add(exec(name, 'search', { domain: [], limit: 2, context: ARCHIVED }), { order: defaultOrder });
  add(exec(name, 'search_read', { domain: [], fields: ['id'], offset: 2, limit: 2, order: 'id' }));

  const byType = new Map<string, FieldInfo>();
  for (const field of model.fields) if (searchable(model, field) && !byType.has(field.type)) byType.set(field.type, field);
  for (const field of byType.values()) {
    const values = records.map((r) => r[field.name]);
    for (const leaf of leavesFor(field, values, model, input)) {
      add(exec(name, 'search', { domain: [leaf], order: 'id', context: ARCHIVED }));
    }
    // Orders on this field: both directions, nulls placement, with id as the last key.
    if (['char', 'integer', 'float', 'monetary', 'date', 'datetime', 'selection', 'many2one', 'boolean'].includes(field.type)) {
      for (const order of [`${field.name} desc, id`, `${field.name} asc nulls first, id`, `${field.name} desc nulls last, id desc`]) {
        add(exec(name, 'search', { domain: [], order, context: ARCHIVED }), { order: { model: name, order } });
      }
      add(exec(name, 'search', { domain: [], order: field.name, limit: 4, context: ARCHIVED }), { order: { model: name, order: field.name } });
    }
  }
  const char = byType.get('char');
  const m2o = byType.get('many2one');
  if (char && m2o) {
    const order = `${m2o.name} desc, ${char.name}, id`;
    add(exec(name, 'search_read', { domain: ['|', [char.name, '!=', false], '!', [m2o.name, '=', false]], fields: [char.name, m2o.name], order }), {
      order: { model: name, order },
    });
  }
}

/** `field op value` for each comparison operator. */
function compared(f: string, value: unknown): Leaf[] {
  return (['=', '!=', '<', '<=', '>', '>='] as const).map((operator): Leaf => [f, operator, value]);
}

function middle<T>(values: readonly T[]): T | undefined {
  return values[Math.floor(values.length / 2)];
}

function distinct(values: readonly unknown[]): unknown[] {
  const seen = new Set<string>();
  return values
    .filter((v) => v !== false && v !== null && v !== undefined && !seen.has(JSON.stringify(v)) && seen.add(JSON.stringify(v)) !== undefined)
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

function leavesFor(field: FieldInfo, raw: readonly unknown[], model: CommonModel, input: SeriesInput): Leaf[] {
  const f = field.name;
  const values = distinct(raw);
  const v = middle(values);
  const nulls: Leaf[] = [
    [f, '=', false],
    [f, '!=', false],
    [f, 'in', [false]],
    [f, '=?', false],
  ];
  switch (field.type) {
    case 'char':
    case 'text':
    case 'html': {
      const leaves: Leaf[] = [...nulls, [f, '=', ''], [f, 'ilike', ''], [f, 'not ilike', ''], [f, '=like', ''], [f, 'not in', [false]]];
      // A NUL in a text value: PostgreSQL-backed Odoo refuses it (psycopg2's ValueError), never matches everything.
      leaves.push([f, '=', 'nul\u0000byte'], [f, 'ilike', '\u0000']);
      if (typeof v !== 'string') return leaves;
      const sub = v.slice(1, 4);
      return [
        ...leaves,
        ...compared(f, v),
        [f, 'like', sub],
        [f, 'ilike', sub.toUpperCase()],
        [f, 'not like', sub],
        [f, 'not ilike', sub.toUpperCase()],
        [f, '=like', `${v.charAt(0)}%`],
        [f, '=ilike', `${v.charAt(0).toLowerCase()}%`],
        [f, 'like', `${v.charAt(0)}_`],
        [f, 'in', [v, 'no such value']],
        [f, 'not in', [v]],
        [f, '=?', v],
      ];
    }
    case 'integer':
    case 'float':
    case 'monetary': {
      const n = typeof v === 'number' ? v : 1;
      return [...nulls, [f, '=', 0], [f, '!=', 0], ...compared(f, n), [f, '<', 1], [f, '>=', 0], [f, 'in', [n, 0]], [f, 'not in', [n]], [f, '=?', n]];
    }
    case 'boolean':
      return [
        [f, '=', true],
        [f, '=', false],
        [f, '!=', true],
        [f, '!=', false],
        [f, 'in', [false]],
        [f, 'in', [true, false]],
        [f, 'not in', [true]],
      ];
    case 'date': {
      const leaves: Leaf[] = [...nulls, [f, '<', false]];
      if (typeof v !== 'string') return leaves;
      return [...leaves, ...compared(f, v), [f, 'in', [v]], [f, 'not in', [v]]];
    }
    case 'datetime': {
      if (typeof v !== 'string') return nulls;
      const day = v.slice(0, 10);
      // Odoo keeps fractions of a second (create_date, write_date, values from datetime.now()) that
      // reads cut off; before 19 a domain compares them exactly, so a value read back may match
      // nothing there. The mirror learns which rows have one (mirror.ts, `fractionRows`).
      return [...nulls, ...compared(f, v), [f, '<', day], [f, '<=', day], [f, '>', day], [f, '>=', day], [f, '=', day]];
    }
    case 'selection': {
      const leaves: Leaf[] = [...nulls];
      if (typeof v !== 'string') return leaves;
      const other = values.find((x) => x !== v) ?? 'no_such_key';
      return [...leaves, [f, '=', v], [f, '!=', v], [f, 'in', [v, other]], [f, 'not in', [v]], [f, 'ilike', v.slice(0, 3)]];
    }
    case 'many2one':
      return many2oneLeaves(field, raw, model, input, nulls);
    case 'one2many':
    case 'many2many': {
      const lists = raw.filter((x): x is number[] => Array.isArray(x) && x.length > 0);
      const id = middle(lists)?.[0];
      const leaves: Leaf[] = [
        [f, '=', false],
        [f, '!=', false],
      ];
      if (id === undefined) return leaves;
      return [...leaves, [f, '=', id], [f, 'in', [id]], [f, 'not in', [id]], [f, 'any', [['id', '=', id]]], [f, 'not any', [['id', '=', id]]]];
    }
    default:
      return [];
  }
}

function many2oneLeaves(field: FieldInfo, raw: readonly unknown[], model: CommonModel, input: SeriesInput, nulls: Leaf[]): Leaf[] {
  const f = field.name;
  const pairs = distinct(raw.filter(Array.isArray)) as [number, string | false][];
  const pair = middle(pairs);
  const leaves: Leaf[] = [...nulls, [f, 'ilike', ''], [f, 'not ilike', '']];
  if (!pair) return leaves;
  const [id, label] = pair;
  leaves.push([f, '=', id], [f, '!=', id], [f, 'in', [id]], [f, 'not in', [id]], [f, 'any', [['id', '=', id]]], [f, 'not any', [['id', '=', id]]], [`${f}.id`, '=', id]);
  if (typeof label === 'string' && label.length > 2) leaves.push([f, 'ilike', label.slice(1, 4)], [f, '=', label], [f, 'not ilike', label.slice(1, 4)]);
  const comodel = input.schema.models.get(field.relation!);
  const coName = comodel?.fields.find((x) => x.type === 'char' && x.store && x.name !== 'display_name');
  const coRecord = input.snapshot.get(field.relation!)?.get(id);
  if (coName && typeof coRecord?.[coName.name] === 'string')
    leaves.push([`${f}.${coName.name}`, '=', coRecord[coName.name]], [`${f}.${coName.name}`, 'ilike', (coRecord[coName.name] as string).slice(0, 2)]);
  if (comodel && comodel.live['parent_id']?.relation === comodel.name) leaves.push([f, 'child_of', id], [f, 'parent_of', id]);
  void model;
  return leaves;
}

function pick(value: unknown, keys: readonly string[]): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(keys.filter((k) => k in value).map((k) => [k, (value as Record<string, unknown>)[k]]));
}

/** `fields_get` descriptions without the selection values the schema notes as sandbox-only. */
function withoutValues(value: unknown, gaps: ReadonlyMap<string, readonly string[]>): unknown {
  if (!gaps.size || !value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [field, values] of gaps) {
    const description = out[field] as Record<string, unknown> | undefined;
    const selection = description?.['selection'];
    if (!Array.isArray(selection)) continue;
    out[field] = { ...description, selection: selection.filter((pair) => !(Array.isArray(pair) && values.includes(pair[0] as string))) };
  }
  return out;
}

/** Every error class, on the first common model that has records (fleet.vehicle when present). */
function errorCalls(input: SeriesInput, add: Add): void {
  const model = input.schema.models.get('fleet.vehicle') ?? [...input.schema.models.values()][0];
  if (!model) return;
  const m = model.name;
  const id = [...(input.snapshot.get(m)?.keys() ?? [])][0] ?? 1;
  add(exec('x.no.such.model', 'search_read', { domain: [] }));
  add(exec(m, 'search_read', { domain: [['no_such_field', '=', 1]], fields: ['id'] }));
  add(exec(m, 'search_read', { domain: [['id', 'no such operator', 1]], fields: ['id'] }));
  add(exec(m, 'search_read', { domain: ['|', ['id', '=', 1]], fields: ['id'] }));
  add(exec(m, 'search_read', { domain: [['id', '=', 1, 2]], fields: ['id'] }));
  add(exec(m, 'search_read', { domain: [], fields: ['id'], order: 'no_such_field' }));
  add(exec(m, 'search_read', { domain: [], fields: ['id'], order: 'id;' }));
  add(exec(m, 'search_read', { domain: [], fields: ['id'], order: 'id asc desc' }));
  add(exec(m, 'search_read', { domain: [], fields: ['no_such_field'] }));
  add(exec(m, 'read', { fields: ['no_such_field'] }, { ids: [id] }));
  add(exec(m, 'read', { fields: ['id'] }, { ids: [99_999_999] }));
  add(exec(m, '_x', {}));
  add(exec(m, 'no_such_method', {}));
  add(exec(m, 'search_count', { domain: [], bogus: 1 }));
  add(exec(m, 'search', {}));
  add(exec(m, 'search_read', { domain: [], fields: ['id'] }, { ids: [id] }));
  add(exec(m, 'read', { fields: ['id'] }), { transports: input.transports.filter((t) => t !== 'json2') });
  // Access: the technical account cannot read the odometer log, nor write anything.
  if (input.keys.has('valid')) {
    const api = { as: 'api' as const, key: 'valid' as const };
    if (input.schema.models.has('fleet.vehicle.odometer')) add(exec('fleet.vehicle.odometer', 'search_read', { domain: [], fields: ['id'] }, api));
    if (m === 'fleet.vehicle' && model.fields.some((f) => f.name === 'odometer')) add(exec(m, 'read', { fields: ['odometer'] }, { ids: [id], ...api }));
    add(exec(m, 'search_count', { domain: [] }, api));
    add(exec(m, 'create', { vals_list: [{ name: 'differential check' }] }, api));
    add(exec(m, 'write', { vals: { name: 'differential check' } }, { ids: [id], ...api }));
    add(exec(m, 'unlink', {}, { ids: [id], ...api }));
  }
  if (input.keys.has('noRead')) add(exec(m, 'search_read', { domain: [], fields: ['id'] }, { as: 'noRead', key: 'noRead' }));
}

function keyCalls(input: SeriesInput, add: Add): void {
  const rpc = input.transports.filter((t) => RPC.includes(t));
  add({ kind: 'version' });
  const cases: [AccountName, KeyName][] = [
    ['api', 'valid'],
    ['api', 'wrong'],
    ['admin', 'admin'],
    ['admin', 'valid'],
    ['api', 'expired'],
    ['noRead', 'noRead'],
    ['admin', 'forbidden'],
  ];
  for (const [as, key] of cases) {
    if (key !== 'wrong' && !input.keys.has(key)) continue;
    if (key === 'expired' && input.major < 18) continue;
    add({ kind: 'authenticate', as, key }, { transports: rpc });
    add(exec('res.users', 'context_get', {}, { as, key }));
  }
  const m = input.schema.models.has('fleet.vehicle') ? 'fleet.vehicle' : [...input.schema.models.keys()][0];
  if (!m) return;
  if (input.keys.has('valid')) {
    add(exec(m, 'search_count', { domain: [] }, { as: 'api', key: 'wrong' }));
    add({ ...exec(m, 'search_count', { domain: [] }, { as: 'api', key: 'valid' }), noAuthorization: true }, { transports: input.transports.filter((t) => t === 'json2') });
    add({ ...exec(m, 'search_count', { domain: [] }, { as: 'api', key: 'valid' }), contentType: 'text/plain' });
    if (input.major >= 18 && input.keys.has('expired')) add(exec(m, 'search_count', { domain: [] }, { as: 'api', key: 'expired' }));
    // 17: `@api.model` on the calling user; 18+: a record method on that user (reference 7.2).
    const users = [...(input.snapshot.get('res.users')?.values() ?? [])];
    const apiUid = users.find((u) => u['login'] === GATEWAY_LOGIN)?.['id'] as number | undefined;
    const ids = input.major >= 18 ? { ids: apiUid === undefined ? [] : [apiUid] } : {};
    for (const group of ['base.group_user', 'ops_api.group_api_user']) add(exec('res.users', 'has_group', { group_ext_id: group }, { as: 'api', key: 'valid', ...ids }));
  }
}

/** Order key of a record or id under an order string, from the mirrored records (ties: equal keys). */
export function tieKeyOf(snapshot: Snapshot, model: string, order: string): (item: unknown) => string {
  const terms = order
    .split(',')
    .map((t) => t.trim().split(/\s+/)[0]!)
    .filter(Boolean);
  const records = snapshot.get(model);
  return (item) => {
    const id = typeof item === 'number' ? item : ((item as LiveRecord)?.['id'] as number);
    const record = records?.get(id);
    const parts: unknown[] = [];
    for (const t of terms) {
      const part = t === 'id' ? id : keyPart(record?.[t]);
      parts.push(part);
      // Odoo keeps fractions of a second that reads (and so the mirror) round off: rows equal to the
      // second may be ordered by the unseen fraction, so the keys after a datetime decide nothing.
      if (typeof part === 'string' && DATETIME.test(part)) break;
    }
    return JSON.stringify(parts);
  };
}

const DATETIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

function keyPart(value: unknown): unknown {
  if (Array.isArray(value) && typeof value[0] === 'number') return value[0];
  return value ?? false;
}
