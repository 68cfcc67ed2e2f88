/**
 * Grouped reads on a large table, measured (BENCHMARKS.md, "Grouped reads in the sandbox"): runs
 * only on a database named by SANDBOX_BENCH_DB, made with
 * `node packages/sandbox/dist/cli.js init --db <path> --scale stock.picking=1000000`, and prints
 * each grouping's median beside the floor (the bare SQLite query over the same index), in one run.
 */
import { openOrm, type SandboxHandle } from '../src/seed/init';
import type { MethodSpec } from '../src/orm/types';

const PATH = process.env['SANDBOX_BENCH_DB'];
const ROUNDS = 7;

function median(run: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
}

(PATH ? describe : describe.skip)('grouped reads of 1M stock.picking rows (SANDBOX_BENCH_DB)', () => {
  let handle: SandboxHandle;
  const context = { tz: 'UTC', lang: 'en_US', active_test: false };
  const call = (method: string, named: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    handle.orm.call({ uid: 2, context: { ...context, ...extra } }, 'stock.picking', handle.orm.lookupMethod('stock.picking', method) as MethodSpec, null, [], named);

  beforeAll(() => {
    handle = openOrm({ path: PATH!, version: 19 });
  });
  afterAll(() => handle.close());

  test('count by state: well under a second, and what each other grouping costs', () => {
    const sql = (text: string) => () => handle.db.prepare(text).all();
    const rows: [string, number, number][] = [];
    const measure = (label: string, run: () => unknown, floor: () => unknown) => rows.push([label, median(run), median(floor)]);
    measure(
      'state, __count',
      () => call('formatted_read_group', { domain: [], groupby: ['state'], aggregates: ['__count'] }),
      sql('SELECT state, COUNT(*) FROM stock_picking GROUP BY state'),
    );
    measure('state, read_group lazy', () => call('read_group', { domain: [], fields: [], groupby: ['state'] }), sql('SELECT state, COUNT(*) FROM stock_picking GROUP BY state'));
    measure(
      'partner_id (80 groups), __count',
      () => call('formatted_read_group', { domain: [], groupby: ['partner_id'], aggregates: ['__count'], limit: 80 }),
      sql('SELECT partner_id, COUNT(*) FROM stock_picking GROUP BY partner_id LIMIT 80'),
    );
    measure(
      'scheduled_date:month, __count',
      () => call('formatted_read_group', { domain: [], groupby: ['scheduled_date:month'], aggregates: ['__count'] }),
      sql('SELECT substr(scheduled_date, 1, 7), COUNT(*) FROM stock_picking GROUP BY 1'),
    );
    measure(
      'scheduled_date:month in Europe/Brussels',
      () => call('formatted_read_group', { domain: [], groupby: ['scheduled_date:month'], aggregates: ['__count'] }, { tz: 'Europe/Brussels' }),
      sql('SELECT substr(scheduled_date, 1, 7), COUNT(*) FROM stock_picking GROUP BY 1'),
    );
    measure(
      'state x picking_type_id, __count',
      () => call('formatted_read_group', { domain: [], groupby: ['state', 'picking_type_id'], aggregates: ['__count'] }),
      sql('SELECT state, picking_type_id, COUNT(*) FROM stock_picking GROUP BY 1, 2'),
    );
    const table = rows.map(([label, ms, floor]) => `| ${label} | ${ms.toFixed(0)} | ${floor.toFixed(0)} | ${(ms / floor).toFixed(2)}x |`).join('\n');
    process.stdout.write(`\n| grouping (1M rows) | median ms | bare SQLite ms | ratio |\n|---|---|---|---|\n${table}\n`);
    expect(rows[0]![1]).toBeLessThan(1000);
  });
});
