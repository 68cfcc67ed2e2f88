/**
 * The demo data: deterministic, valid (required values, existing many2one targets, every
 * selection value), with the promised shapes (emails, phones, distributions), and the fixed
 * security the gateway relies on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { loadRegistry } from '../src/models';
import { buildRegistry } from '../src/orm/registry';
import { openDatabase } from '../src/store/database';
import { createTables } from '../src/orm/schema';
import { seedDemoData } from '../src/seed/demo';
import { findUserByLogin, initDatabase, isUserActive, openOrm } from '../src/seed/init';
import { ADMIN_LOGIN, API_GROUP, GATEWAY_LOGIN, NO_FLEET_LOGIN } from '../src/seed/security';

const dir = mkdtempSync(join(tmpdir(), 'orm-seed-'));
const path = (name: string) => join(dir, name);
let db: DatabaseSync;

beforeAll(() => {
  initDatabase({ path: path('a.db'), seed: 1 });
  initDatabase({ path: path('b.db'), seed: 1 });
  initDatabase({ path: path('c.db'), seed: 2 });
  db = new DatabaseSync(path('a.db'));
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const all = <T = Record<string, unknown>>(text: string, ...params: (string | number)[]) => db.prepare(text).all(...params) as T[];
const registry = loadRegistry();

function dump(file: string, table: string): string {
  const other = new DatabaseSync(path(file));
  try {
    return JSON.stringify(other.prepare(`SELECT * FROM "${table}" ORDER BY id`).all());
  } finally {
    other.close();
  }
}

test('the same seed gives the same data, another seed other data', () => {
  for (const table of ['res_partner', 'fleet_vehicle', 'approval_product_line']) {
    expect(dump('b.db', table)).toBe(dump('a.db', table));
    expect(dump('c.db', table)).not.toBe(dump('a.db', table));
  }
});

test('every model has its demo rows; required fields are set; many2ones point at rows', () => {
  for (const model of registry.models.values()) {
    const count = all<{ n: number }>(`SELECT COUNT(*) AS n FROM "${model.table}"`)[0]!.n;
    expect([model.name, count]).toEqual([model.name, model.name === 'res.users' ? Math.max(model.demoRows, 4) : model.demoRows]);
    for (const field of model.columns) {
      if (field.required) {
        expect([model.name, field.name, all(`SELECT id FROM "${model.table}" WHERE "${field.name}" IS NULL`).length]).toEqual([model.name, field.name, 0]);
      }
      if (field.type === 'many2one') {
        const comodel = registry.require(field.relation!);
        const dangling = all(`SELECT t.id FROM "${model.table}" t LEFT JOIN "${comodel.table}" c ON c.id = t."${field.name}" WHERE t."${field.name}" IS NOT NULL AND c.id IS NULL`);
        expect([model.name, field.name, dangling.length]).toEqual([model.name, field.name, 0]);
      }
    }
  }
});

test('every selection value occurs', () => {
  for (const model of registry.models.values()) {
    for (const field of model.columns) {
      if (field.type !== 'selection' || model.demoRows < (field.selection?.length ?? 0)) continue;
      const found = new Set(all<{ v: string }>(`SELECT DISTINCT "${field.name}" AS v FROM "${model.table}"`).map((r) => r.v));
      const demo = field.def?.demo;
      const hinted = demo && 'pick' in demo ? demo.pick : demo && 'value' in demo ? [demo.value] : field.selection!.map(([key]) => key);
      for (const key of hinted) expect([model.name, field.name, key, found.has(key as string)]).toEqual([model.name, field.name, key, true]);
    }
  }
});

test('generated values have the promised shapes', () => {
  const partners = all<{ name: string; email: string | null; phone: string | null }>('SELECT name, email, phone FROM res_partner');
  expect(partners.some((p) => /[^\p{ASCII}]/u.test(p.name))).toBe(true);
  for (const p of partners) {
    if (p.email !== null) expect(p.email).toMatch(/^[a-z0-9.]+@example\.test$/);
    if (p.phone !== null) expect(p.phone).toMatch(/^\+000 /);
  }
  const vins = all<{ vin_sn: string | null; license_plate: string | null }>('SELECT vin_sn, license_plate FROM fleet_vehicle');
  for (const v of vins) {
    if (v.vin_sn !== null) expect(v.vin_sn).toMatch(/^[A-HJ-NPR-Z0-9]{17}$/);
    if (v.license_plate !== null) expect(v.license_plate).toMatch(/^[A-Z]{2}-\d{4}-[A-Z]{2}$/);
  }
  const logins = all<{ login: string }>('SELECT login FROM res_users').map((r) => r.login);
  expect(new Set(logins).size).toBe(logins.length);
  const codes = all<{ code: string }>('SELECT code FROM fleet_location').map((r) => r.code);
  expect(new Set(codes).size).toBe(codes.length);
});

test('analytic distributions use existing accounts and sum to 100', () => {
  const accounts = new Set(all<{ id: number }>('SELECT id FROM account_analytic_account').map((r) => String(r.id)));
  const rows = all<{ d: string }>('SELECT analytic_distribution AS d FROM approval_product_line WHERE analytic_distribution IS NOT NULL');
  expect(rows.length).toBeGreaterThan(100);
  for (const { d } of rows) {
    const distribution = JSON.parse(d) as Record<string, number>;
    for (const key of Object.keys(distribution)) expect(accounts.has(key)).toBe(true);
    expect(Object.values(distribution).reduce((a, b) => a + b, 0)).toBe(100);
  }
});

test('create_date over the year before 2026-01-01, write_date after it, both with the microseconds Odoo stores', () => {
  const rows = all<{ c: string; w: string }>('SELECT create_date AS c, write_date AS w FROM fleet_vehicle');
  for (const { c, w } of rows) {
    expect([c, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/.test(c)]).toEqual([c, true]);
    expect(c.slice(0, 19) >= '2025-01-01 00:00:00' && c.slice(0, 19) <= '2026-01-01 00:00:00').toBe(true);
    expect(w >= c && w.slice(0, 19) <= '2026-01-01 00:00:00').toBe(true);
  }
  const months = new Set(rows.map((r) => r.c.slice(0, 7)));
  expect(months.size).toBeGreaterThan(10);
});

test('many2many fields get one to three links per row', () => {
  const counts = all<{ n: number }>('SELECT COUNT(*) AS n FROM it_ticket_user_ids_rel GROUP BY a');
  expect(counts.length).toBe(all<{ n: number }>('SELECT COUNT(*) AS n FROM it_ticket')[0]!.n);
  for (const { n } of counts) expect(n >= 1 && n <= 3).toBe(true);
});

test('seeded users, groups and rights', () => {
  expect(findUserByLogin(db, GATEWAY_LOGIN)).toEqual({ id: 3, active: true });
  expect(findUserByLogin(db, ADMIN_LOGIN)).toEqual({ id: 2, active: true });
  expect(findUserByLogin(db, NO_FLEET_LOGIN)).toEqual({ id: 4, active: true });
  expect(findUserByLogin(db, '__system__')).toEqual({ id: 1, active: false });
  expect(findUserByLogin(db, 'nobody')).toBeUndefined();
  expect([isUserActive(db, 3), isUserActive(db, 1), isUserActive(db, 99999)]).toEqual([true, false, false]);

  const handle = openOrm({ path: path('a.db') });
  try {
    const orm = handle.orm as unknown as { access: { hasGroup(uid: number, g: string): boolean; has(uid: number, m: string, op: string): boolean } };
    expect([orm.access.hasGroup(3, API_GROUP), orm.access.hasGroup(2, API_GROUP), orm.access.hasGroup(4, API_GROUP)]).toEqual([true, false, true]);
    for (const model of registry.models.keys()) {
      expect([model, orm.access.has(2, model, 'read')]).toEqual([model, true]);
      expect([model, orm.access.has(3, model, 'read')]).toEqual([model, model !== 'fleet.vehicle.odometer']);
      expect([model, orm.access.has(4, model, 'read')]).toEqual([model, model !== 'fleet.vehicle.odometer' && model !== 'fleet.vehicle']);
      for (const op of ['write', 'create', 'unlink']) expect(orm.access.has(2, model, op)).toBe(false);
    }
  } finally {
    handle.close();
  }
});

test('a many2one cycle is broken, then its back edge filled', () => {
  const cyclic = buildRegistry([
    { name: 'a.one', description: 'One', demoRows: 5, fields: { name: { type: 'char' }, two_id: { type: 'many2one', relation: 'a.two', required: true } } },
    {
      name: 'a.two',
      description: 'Two',
      demoRows: 4,
      fields: { one_id: { type: 'many2one', relation: 'a.one', required: true }, tag_ids: { type: 'many2many', relation: 'a.one' } },
    },
  ]);
  const memory = openDatabase(':memory:', { bulk: true });
  try {
    createTables(memory, cyclic);
    const state = seedDemoData(memory, cyclic, 1);
    expect(state.deferred).toHaveLength(1);
    const rows = (table: string, column: string) => memory.prepare(`SELECT "${column}" AS v FROM "${table}"`).all() as { v: number | null }[];
    for (const { v } of rows('a_one', 'two_id')) expect(v !== null && v >= 1 && v <= 4).toBe(true);
    for (const { v } of rows('a_two', 'one_id')) expect(v !== null && v >= 1 && v <= 5).toBe(true);
    expect(rows('a_two_tag_ids_rel', 'a').length).toBeGreaterThanOrEqual(4);
  } finally {
    memory.close();
  }
});
