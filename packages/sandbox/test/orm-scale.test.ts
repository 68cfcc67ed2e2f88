/**
 * Scaling a model for benchmarks, and the read path on a large table: a 100k-row fleet (the
 * 1M-row target is measured by hand, see the sandbox notes), paged `search_read` and `search_count`.
 * The table has the indexes Odoo gives fleet_vehicle: its primary key only (odoo-indexes.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initDatabase, openOrm, type SandboxHandle } from '../src/seed/init';
import type { MethodSpec } from '../src/orm/types';

const ROWS = 100_000;
const dir = mkdtempSync(join(tmpdir(), 'orm-scale-'));
let handle: SandboxHandle;
/** CPU time (user + system) the init took: wall time on a loaded machine measures the other processes. */
let initCpuMs = 0;

beforeAll(() => {
  const cpu = process.cpuUsage();
  const report = initDatabase({ path: join(dir, 'scaled.db'), scale: { 'fleet.vehicle': ROWS } });
  const used = process.cpuUsage(cpu);
  initCpuMs = (used.user + used.system) / 1000;
  expect(report.rows['fleet.vehicle']).toBe(ROWS);
  handle = openOrm({ path: join(dir, 'scaled.db'), version: 19 });
}, 60_000);
afterAll(() => {
  handle.close();
  rmSync(dir, { recursive: true, force: true });
});

function call(method: string, positional: unknown[], named: Record<string, unknown> = {}): unknown {
  const spec = handle.orm.lookupMethod('fleet.vehicle', method) as MethodSpec;
  return handle.orm.call({ uid: 3, context: {} }, 'fleet.vehicle', spec, null, positional, named);
}

function median(times: number[]): number {
  return [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

test('scaling 100k rows stays well within the 1M budget (60 s for 1M)', () => {
  // Measured linear: a tenth of the rows must take well under a tenth of the budget plus the demo data.
  // The init is synchronous (SQLite in this process), so its CPU time is its cost whatever else runs.
  expect(initCpuMs).toBeLessThan(15_000);
});

test('scaled rows are valid: many2ones to existing rows, selection values in range', () => {
  const db = handle.db;
  const dangling = db.prepare('SELECT COUNT(*) AS n FROM fleet_vehicle v LEFT JOIN fleet_vehicle_model m ON m.id = v.model_id WHERE m.id IS NULL').get() as { n: number };
  expect(dangling.n).toBe(0);
  const states = db.prepare('SELECT DISTINCT assignation_state AS s FROM fleet_vehicle').all() as { s: string }[];
  expect(states.map((r) => r.s).sort()).toEqual(['assigned', 'free', 'maintenance', 'out_of_service', 'sold']);
});

test('a page near the end of 100k rows by id answers in a few milliseconds (the primary key)', () => {
  const fields = ['license_plate', 'model_id', 'driver_id', 'fuel_type', 'acquisition_date', 'company_id', 'active'];
  const page = () => call('search_read', [[['id', '>', ROWS - 1000]]], { fields, order: 'id', limit: 50 }) as { id: number }[];
  expect(page()[0]!.id).toBeGreaterThan(ROWS - 1000);
  const times = Array.from({ length: 20 }, () => {
    const started = performance.now();
    page();
    return performance.now() - started;
  });
  expect(median(times)).toBeLessThan(20);
});

test("a page in the default order is the table's first 50 in that order (read by sorting the table: Odoo has no index on fleet_vehicle's _order either)", () => {
  const page = call('search_read', [[]], { fields: ['license_plate', 'acquisition_date'], limit: 50 }) as { license_plate: string | false; acquisition_date: string | false }[];
  // PostgreSQL's order (NULLs last when ascending), computed here by SQLite on its own.
  const expected = handle.db
    .prepare(
      'SELECT license_plate, acquisition_date FROM fleet_vehicle WHERE active = 1 ORDER BY license_plate IS NULL, license_plate, acquisition_date IS NULL, acquisition_date LIMIT 50',
    )
    .all() as { license_plate: string | null; acquisition_date: string | null }[];
  expect(page.map((r) => [r.license_plate || null, r.acquisition_date || null])).toEqual(expected.map((r) => [r.license_plate, r.acquisition_date]));
});

test('search_count is a plain count', () => {
  const active = (handle.db.prepare('SELECT COUNT(*) AS n FROM fleet_vehicle WHERE active = 1').get() as { n: number }).n;
  expect(call('search_count', [[]])).toBe(active);
});

test('a grouped count of 100k rows by a selection is one indexed query: right counts, tens of milliseconds', () => {
  const oracle = handle.db.prepare('SELECT assignation_state AS s, COUNT(*) AS n FROM fleet_vehicle WHERE active = 1 GROUP BY 1 ORDER BY 1').all() as { s: string; n: number }[];
  const group = () => call('formatted_read_group', [[]], { groupby: ['assignation_state'], aggregates: ['__count'] }) as { assignation_state: string; __count: number }[];
  expect(group().map((g) => [g.assignation_state, g.__count])).toEqual(oracle.map((o) => [o.s, o.n]));
  const times = Array.from({ length: 9 }, () => {
    const started = performance.now();
    group();
    return performance.now() - started;
  });
  // About 15 ms alone; a tenth of the 1M-row target (BENCHMARKS.md), with room for a loaded machine.
  expect(median(times)).toBeLessThan(250);
});
