/**
 * @module The mirror: the live ERP's records of the common models, read as the administrator
 * (archived ones included), loaded with the same ids into a fresh sandbox database whose tables
 * come from the sandbox's own schema code. Identical calls must then give identical answers.
 * The sandbox's seeded security (groups, access rows) is kept and attached to the live users of
 * the same logins, so the technical account and the special keys behave as their live twins.
 */
import type { FieldInfo, Registry } from '@ops-data-gateway/sandbox/orm/registry';
import { ApiKeys } from '@ops-data-gateway/sandbox/security/api-keys';
import { ADMIN_LOGIN, GATEWAY_LOGIN, NO_FLEET_LOGIN, SEEDED_USERS, seedSecurity } from '@ops-data-gateway/sandbox/seed/security';
import { openDatabase } from '@ops-data-gateway/sandbox/store/database';
import { quoteIdent } from '@ops-data-gateway/sandbox/store/naming';
import { createIndexes, createTables, USER_PREFERENCE_COLUMNS } from '@ops-data-gateway/sandbox/orm/schema';
import type { OdooVersion } from '@ops-data-gateway/sandbox/orm/types';
import type { CommonModel, Schema } from './schema';
import { mustCall, type AccountName, type KeyName, type Side } from './wire';

export type LiveRecord = Readonly<Record<string, unknown>>;

/** The live records of every common model, by id, as read (many2one as `[id, name]`). */
export type Snapshot = ReadonlyMap<string, ReadonlyMap<number, LiveRecord>>;

/** Rows whose numeric field is NULL (read as 0), by model and field. */
export type NullNumbers = ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<number>>>;

/** Rows whose datetime keeps a fraction of a second that reads cut off, by model and field. */
export type Fractions = ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<number>>>;

/**
 * What the mirror stores for a datetime the live ERP keeps with a fraction of a second. Only the
 * fraction's presence shows through the API (a read cuts it, a whole-second bound compares with it),
 * never its value: any fraction answers the series alike.
 */
const SOME_FRACTION = '.500000';

const NUMERIC = new Set(['integer', 'float', 'monetary']);
const NO_ARCHIVE_FILTER = { active_test: false };

export async function readSnapshot(live: Side, schema: Schema, major: number): Promise<{ snapshot: Snapshot; nulls: NullNumbers; fractions: Fractions }> {
  const snapshot = new Map<string, Map<number, LiveRecord>>();
  const nulls = new Map<string, Map<string, Set<number>>>();
  const fractions = new Map<string, Map<string, Set<number>>>();
  for (const model of schema.models.values()) {
    const ids = (await mustCall(live, { kind: 'execute', model: model.name, method: 'search', kwargs: { domain: [], order: 'id', context: NO_ARCHIVE_FILTER } })) as number[];
    const names = model.fields.map((f) => f.name);
    if (model.name === 'res.users') for (const extra of USER_PREFERENCE_COLUMNS) if (model.live[extra] && !names.includes(extra)) names.push(extra);
    const records = ids.length
      ? ((await mustCall(live, { kind: 'execute', model: model.name, method: 'read', ids, kwargs: { fields: names, context: NO_ARCHIVE_FILTER } })) as LiveRecord[])
      : [];
    snapshot.set(model.name, new Map(records.map((r) => [r['id'] as number, r])));
    const perField = new Map<string, Set<number>>();
    for (const field of model.mirrored.filter((f) => NUMERIC.has(f.type) && f.name !== 'id' && records.some((r) => r[f.name] === 0))) {
      const found = await nullRows(live, model.name, field.name, major);
      if (found.size) perField.set(field.name, found);
    }
    nulls.set(model.name, perField);
    const withFractions = new Map<string, Set<number>>();
    for (const field of major < 19 ? model.mirrored.filter((f) => f.type === 'datetime') : []) {
      const found = await fractionRows(live, model.name, field.name, records);
      if (found.size) withFractions.set(field.name, found);
    }
    fractions.set(model.name, withFractions);
  }
  return { snapshot, nulls, fractions };
}

/**
 * Rows whose datetime holds a fraction of a second. Reads cut it; 17/18 compare a domain's value
 * with the stored one exactly (19 compares whole seconds, so there it never shows): the rows that
 * `in` the whole-second values read do not match are the ones with a fraction.
 */
async function fractionRows(live: Side, model: string, field: string, records: readonly LiveRecord[]): Promise<Set<number>> {
  const read = records.filter((r) => typeof r[field] === 'string');
  if (!read.length) return new Set();
  const values = [...new Set(read.map((r) => r[field] as string))];
  const whole = new Set((await mustCall(live, { kind: 'execute', model, method: 'search', kwargs: { domain: [[field, 'in', values]], context: NO_ARCHIVE_FILTER } })) as number[]);
  return new Set(read.map((r) => r['id'] as number).filter((id) => !whole.has(id)));
}

/** A live value as the sandbox column stores it. */
/**
 * Rows whose numeric field is NULL. Reads give 0. Odoo 17 matches NULL, and only NULL, with
 * `= false`: asked so. 18/19 domains treat NULL as 0, but ordering does not: NULLs come first with
 * `nulls first` and last with `nulls last`, the other rows keep their order. The NULL rows are the
 * prefix of the first list that is the suffix of the second (a field NULL on every row, or on none,
 * cannot be told apart there).
 */
async function nullRows(live: Side, model: string, field: string, major: number): Promise<Set<number>> {
  if (major < 18) {
    const ids = (await mustCall(live, { kind: 'execute', model, method: 'search', kwargs: { domain: [[field, '=', false]], context: NO_ARCHIVE_FILTER } })) as number[];
    return new Set(ids);
  }
  const search = (nulls: string) =>
    mustCall(live, { kind: 'execute', model, method: 'search', kwargs: { domain: [], order: `${field} asc nulls ${nulls}, id`, context: NO_ARCHIVE_FILTER } }) as Promise<number[]>;
  return nullPrefix(await search('first'), await search('last'));
}

/** The prefix of `first` that `last` ends with, the rest being the same sequence (see `nullRows`). */
export function nullPrefix(first: readonly number[], last: readonly number[]): Set<number> {
  const n = first.length;
  for (let k = 1; k < n; k++) {
    if (first.slice(k).every((id, i) => id === last[i]) && first.slice(0, k).every((id, i) => id === last[n - k + i])) return new Set(first.slice(0, k));
  }
  return new Set();
}

function columnValue(field: FieldInfo, value: unknown, isNull = false, withFraction = false): string | number | null {
  if (isNull) return null;
  if (withFraction && typeof value === 'string') return `${value}${SOME_FRACTION}`;
  switch (field.type) {
    case 'many2one':
      return Array.isArray(value) ? (value[0] as number) : typeof value === 'number' ? value : null;
    case 'boolean':
      return value === true ? 1 : 0;
    case 'integer':
    case 'float':
    case 'monetary':
      return typeof value === 'number' ? value : null;
    case 'json':
      return value === false || value === null || value === undefined ? null : JSON.stringify(value);
    default:
      return value === false || value === null || value === undefined ? null : String(value);
  }
}

export interface MirrorKeys {
  readonly uids: Record<AccountName, number | false>;
  readonly keys: Partial<Record<KeyName, string>>;
}

export interface MirrorOptions {
  readonly path: string;
  readonly registry: Registry;
  readonly schema: Schema;
  readonly snapshot: Snapshot;
  readonly nulls: NullNumbers;
  /** Datetimes kept with a fraction of a second (17/18), stored with one so that domains compare as live. */
  readonly fractions?: Fractions;
  /** `tz`/`lang` by uid, from the accounts' own `context_get` (user preference columns). */
  readonly preferences?: ReadonlyMap<number, Readonly<Record<string, unknown>>>;
  readonly version: OdooVersion;
  /** Key expiry is judged against this clock (the sandbox's). */
  readonly now?: Date;
}

/** Builds the mirror database and creates the sandbox twins of the live keys. */
export function buildMirror(options: MirrorOptions): MirrorKeys {
  const db = openDatabase(options.path, { bulk: true });
  try {
    db.exec('BEGIN');
    createTables(db, options.registry);
    for (const model of options.schema.models.values()) {
      loadModel(db, model, options.snapshot.get(model.name)!, options.nulls.get(model.name), options.fractions?.get(model.name));
    }
    const users = [...(options.snapshot.get('res.users')?.values() ?? [])];
    const uidOf = (login: string): number | false => (users.find((u) => u['login'] === login)?.['id'] as number | undefined) ?? false;
    attachSecurity(db, options.registry, uidOf);
    for (const [uid, prefs] of options.preferences ?? []) {
      for (const column of USER_PREFERENCE_COLUMNS) {
        const value = prefs[column];
        db.prepare(`UPDATE "res_users" SET ${quoteIdent(column)} = ? WHERE "id" = ?`).run(typeof value === 'string' ? value : null, uid);
      }
    }
    db.exec('COMMIT');
    createIndexes(db, options.registry);
    const keys = new ApiKeys(db, { version: options.version, ...(options.now ? { now: () => options.now! } : {}) });
    const uids = { admin: uidOf(ADMIN_LOGIN), api: uidOf(GATEWAY_LOGIN), noRead: uidOf(NO_FLEET_LOGIN) };
    const now = options.now ?? new Date();
    const make = (uid: number | false, name: string, expires?: Date) => (uid === false ? undefined : keys.generateKey(uid, name, expires ?? null));
    const generated: Partial<Record<KeyName, string | undefined>> = {
      admin: make(uids.admin, 'differential: admin'),
      valid: make(uids.api, 'differential: valid'),
      forbidden: make(uids.admin, 'differential: forbidden'),
      expired: make(uids.api, 'differential: expired', new Date(now.getTime() - 86_400_000)),
      noRead: make(uids.noRead, 'differential: no read'),
    };
    return { uids, keys: Object.fromEntries(Object.entries(generated).filter(([, v]) => v)) as Partial<Record<KeyName, string>> };
  } finally {
    db.close();
  }
}

function loadModel(
  db: ReturnType<typeof openDatabase>,
  model: CommonModel,
  records: ReadonlyMap<number, LiveRecord>,
  nulls?: ReadonlyMap<string, ReadonlySet<number>>,
  fractions?: ReadonlyMap<string, ReadonlySet<number>>,
): void {
  const stored = model.mirrored.filter((f) => f.store);
  const columns = stored.map((f) => f.name);
  const preferences = model.name === 'res.users' ? USER_PREFERENCE_COLUMNS.filter((c) => model.live[c] && !columns.includes(c)) : [];
  const all = [...columns, ...preferences];
  const insert = db.prepare(`INSERT INTO ${quoteIdent(model.sandbox.table)} (${all.map(quoteIdent).join(', ')}) VALUES (${all.map(() => '?').join(', ')})`);
  for (const record of records.values()) {
    const id = record['id'] as number;
    const values = stored.map((f) => columnValue(f, record[f.name], nulls?.get(f.name)?.has(id) ?? false, fractions?.get(f.name)?.has(id) ?? false));
    for (const column of preferences) values.push(record[column] === false || record[column] === undefined ? null : String(record[column]));
    insert.run(...values);
  }
  // A model without `active` in the live version (product.attribute before 18) has no archived
  // record: the sandbox's own column says so, else every row would be hidden.
  if (model.sandbox.hasActive && !model.mirrored.some((f) => f.name === 'active')) {
    db.prepare(`UPDATE ${quoteIdent(model.sandbox.table)} SET "active" = 1`).run();
  }
  for (const field of model.mirrored.filter((f) => f.type === 'many2many')) {
    const link = db.prepare(`INSERT INTO ${quoteIdent(field.relationTable!)} ("a", "b") VALUES (?, ?)`);
    for (const record of records.values()) for (const target of (record[field.name] as number[] | undefined) ?? []) link.run(record['id'] as number, target);
  }
}

/**
 * The sandbox's groups and access rows, with its seeded users' memberships moved to the live
 * users of the same logins (every other live user is an internal user).
 */
function attachSecurity(db: ReturnType<typeof openDatabase>, registry: Registry, uidOf: (login: string) => number | false): void {
  seedSecurity(db, registry, 0);
  const OFFSET = 1_000_000_000;
  db.prepare('UPDATE "res_groups_users_rel" SET "uid" = "uid" + ?').run(OFFSET);
  for (const user of SEEDED_USERS) {
    const live = uidOf(user.login);
    if (live === false) db.prepare('DELETE FROM "res_groups_users_rel" WHERE "uid" = ?').run(user.id + OFFSET);
    else db.prepare('UPDATE "res_groups_users_rel" SET "uid" = ? WHERE "uid" = ?').run(live, user.id + OFFSET);
  }
  const internal = db.prepare(`SELECT "id" FROM "res_groups" WHERE "xml_id" = 'base.group_user'`).get() as { id: number } | undefined;
  if (!internal) return;
  db.prepare('INSERT OR IGNORE INTO "res_groups_users_rel" ("gid", "uid") SELECT ?, "id" FROM "res_users"').run(internal.id);
}
