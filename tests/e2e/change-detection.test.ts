/**
 * Change detection for cached answers (runtime/cache/change-watch.ts), over real HTTP against the
 * sandbox ERP, with a TTL of five minutes: a write, an archiving, a creation and a deletion made in
 * the ERP as Odoo's ORM makes them (tests/support/erp-writes.ts: `write_date` stamped) reach the
 * cached answers within a few seconds, not a TTL; so does a change of a name another resource shows
 * (a driver's name in fleet/vehicles); a record written twice within one second (the second write
 * shows the `write_date` already seen) within the settle window; the answers of the other models stay
 * cached. The oracle is the ERP's own data: the same list read with the cache off. How often checks
 * run follows what they cost (measured through a proxy that slows every ERP call), and with
 * CACHE_WATCH=off none runs.
 */
import { DatabaseSync } from 'node:sqlite';
import { GATEWAY_LOGIN } from '@ops-data-gateway/sandbox/seed/security';
import request from 'supertest';
import { ErpWriter } from '../support/erp-writes';
import { startGateway } from '../support/gateway';
import type { FaultProxy } from '../support/fault-proxy';
import { cacheOutcomes } from '../support/access-log';
import { startStack, startStackBehindProxy, type Stack } from '../support/stack';

const TTL_S = 300;
const SETTLE_MS = 2000;
const LIST = '/api/v1/fleet/vehicles?limit=200&fields=plate,driver,model&total=false';
/** Far below the TTL: a change is seen within one interval (1 s here), plus the settle window for a same-second rewrite. */
const SEEN_WITHIN_MS = 15_000;

type Vehicle = { id: number; plate: string | null; driver: string | null; model: string | null };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`change detection for cached answers (TTL ${TTL_S} s, CACHE_WATCH on by default)`, () => {
  let stack: Stack;
  /** A second gateway on the same ERP without a cache: what the ERP holds now (the oracle). */
  let direct: Stack['get'];
  let closeDirect: () => Promise<void>;
  let erp: ErpWriter;
  beforeAll(async () => {
    stack = await startStack({
      transport: 'json2',
      // A share that lets the sandbox, slow on a loaded test machine (tens of ms a call), be checked about
      // every second: how the interval follows the cost and the share is proved below, at the default 2 %.
      env: { CACHE_DEFAULT_TTL_S: String(TTL_S), CACHE_WATCH_SETTLE_MS: String(SETTLE_MS), CACHE_WATCH_SHARE_PCT: '50', METRICS_PORT: '0' },
    });
    erp = new ErpWriter(stack.dbPath);
    const uncached = await startGateway({ erpUrl: stack.sandbox.url, database: stack.sandbox.database, login: GATEWAY_LOGIN, transport: 'json2' });
    direct = (path, key = stack.keys.valid) => uncached.get(path, key);
    closeDirect = () => uncached.close();
  });
  afterAll(async () => {
    erp.close();
    await closeDirect();
    await stack.close();
  });

  const list = async (): Promise<Vehicle[]> => {
    const res = await stack.get(LIST);
    expect(res.status).toBe(200);
    return res.body.data as Vehicle[];
  };
  const truth = async (): Promise<Vehicle[]> => {
    const res = await direct(LIST);
    expect(res.status).toBe(200);
    return res.body.data as Vehicle[];
  };
  /** Polls the cached list until it equals the ERP's, and says how long that took (ms). */
  const seen = async (): Promise<number> => {
    const started = Date.now();
    const want = await truth();
    for (;;) {
      if (JSON.stringify(await list()) === JSON.stringify(want)) return Date.now() - started;
      if (Date.now() - started > SEEN_WITHIN_MS) throw new Error(`the cached list still differs from the ERP after ${SEEN_WITHIN_MS} ms`);
      await sleep(100);
    }
  };
  /** A cached list, served from the cache (a hit) before the change is made. */
  const cached = async (): Promise<Vehicle[]> => {
    await list();
    const from = stack.logLines.length;
    const rows = await list();
    expect(cacheOutcomes(stack.logLines, from)).toEqual(['hit']);
    return rows;
  };

  it('serves a repeated list from the cache, and says on a hit that a check found no change since it was stored', async () => {
    await list();
    const started = Date.now();
    let res = await stack.get(LIST);
    // Until the first check after the answer was stored, a hit says nothing of checks.
    expect(res.headers['server-timing']).toMatch(/cache;desc=hit$/);
    while (!/cache-check/.test(res.headers['server-timing'] as string) && Date.now() - started < SEEN_WITHIN_MS) {
      await sleep(200);
      res = await stack.get(LIST);
    }
    expect(res.headers['server-timing']).toMatch(/cache;desc=hit, cache-check;dur=\d+;desc="no change since stored, checked this long ago"/);
    const ago = Number(/cache-check;dur=(\d+)/.exec(res.headers['server-timing'] as string)?.[1]);
    expect(ago).toBeLessThan(SEEN_WITHIN_MS);
    // Age still counts from the ERP's answer: the check vouches for it, it does not make it newer.
    expect(Number(res.headers['age'])).toBeGreaterThanOrEqual(Math.floor(ago / 1000));
  });

  it('drops the answers of a model written in the ERP: the new value within seconds, not the TTL', async () => {
    const before = await cached();
    const target = before[3] as Vehicle;
    erp.write('fleet.vehicle', target.id, { license_plate: `CD-${Date.now() % 100000}` });
    const ms = await seen();
    expect((await list()).find((v) => v.id === target.id)?.plate).toMatch(/^CD-/);
    expect(ms).toBeLessThan(SEEN_WITHIN_MS);
  });

  it('drops them on an archiving (the record leaves the scope), a creation and a deletion', async () => {
    const before = await cached();
    const archived = (before[5] as Vehicle).id;
    erp.write('fleet.vehicle', archived, { active: 0 });
    await seen();
    expect((await list()).map((v) => v.id)).not.toContain(archived);

    await cached();
    const created = erp.copy('fleet.vehicle', (before[6] as Vehicle).id, { license_plate: 'CD-NEW' });
    await seen();
    expect((await list()).find((v) => v.id === created)?.plate).toBe('CD-NEW');

    await cached();
    erp.delete('fleet.vehicle', created);
    await seen();
    expect((await list()).map((v) => v.id)).not.toContain(created);
  });

  /** Renames the driver of a vehicle of `vehicles` in the ERP, as Odoo's ORM does (the stored complete_name, its display name, follows); the vehicle. */
  const renameADriver = (vehicles: readonly Vehicle[], name: string): Vehicle => {
    const withDriver = vehicles.find((v) => v.driver !== null) as Vehicle;
    const db = new DatabaseSync(stack.dbPath);
    const { driver_id: driverId } = db.prepare('SELECT driver_id FROM fleet_vehicle WHERE id = ?').get(withDriver.id) as { driver_id: number };
    db.close();
    erp.write('res.partner', driverId, { name, complete_name: name });
    return withDriver;
  };

  it("drops an answer that shows another model's names when that model changes (a driver's name in fleet/vehicles)", async () => {
    const renamed = renameADriver(await cached(), `Driver renamed ${Date.now() % 100000}`);
    await seen();
    expect((await list()).find((v) => v.id === renamed.id)?.driver).toContain('Driver renamed');
  });

  /** Polls `path` through the cached gateway until it answers what the uncached one does; how long that took (ms). */
  const seenAt = async (path: string): Promise<number> => {
    const started = Date.now();
    const want = JSON.stringify((await direct(path)).body);
    for (;;) {
      const res = await stack.get(path);
      expect(res.status).toBe(200);
      if (JSON.stringify(res.body) === want) return Date.now() - started;
      if (Date.now() - started > SEEN_WITHIN_MS) throw new Error(`${path} still differs from the ERP after ${SEEN_WITHIN_MS} ms`);
      await sleep(100);
    }
  };

  it('drops an expanded answer when a related record changes (a line of a purchase order), checked against the same page uncached', async () => {
    const path = '/api/v1/purchase/orders?limit=3&order=id&fields=id,reference&expand=lines(id,description)';
    await stack.get(path);
    const from = stack.logLines.length;
    const page = (await stack.get(path)).body as { data: { id: number; lines: { id: number; description: string }[] }[] };
    expect(cacheOutcomes(stack.logLines, from)).toEqual(['hit']);
    const line = page.data.flatMap((order) => order.lines)[0] as { id: number };
    const description = `Line rewritten ${Date.now() % 100000}`;
    erp.write('purchase.order.line', line.id, { name: description });
    await seenAt(path);
    const after = (await stack.get(path)).body as typeof page;
    expect(after.data.flatMap((order) => order.lines).find((l) => l.id === line.id)?.description).toBe(description);
  });

  it("keeps an answer cached whose fields show none of a comodel's data when that comodel changes (plates only, a driver renamed)", async () => {
    const plates = '/api/v1/fleet/vehicles?limit=200&fields=plate&total=false';
    await stack.get(plates);
    renameADriver(await cached(), `Driver again ${Date.now() % 100000}`);
    // The list that shows drivers is dropped and shows the new name...
    await seen();
    // ...the one that shows plates only is still served from the cache.
    const from = stack.logLines.length;
    await stack.get(plates);
    expect(cacheOutcomes(stack.logLines, from)).toEqual(['hit']);
  });

  it('sees a second write of a record within the same second (the same write_date) once that second has settled', async () => {
    const before = await cached();
    const id = (before[8] as Vehicle).id;
    const at = new Date();
    erp.write('fleet.vehicle', id, { license_plate: 'SAME-1' }, at);
    await seen();
    await cached();
    // Within the same second: write_date reads exactly as the first write's.
    erp.write('fleet.vehicle', id, { license_plate: 'SAME-2' }, at);
    const ms = await seen();
    expect((await list()).find((v) => v.id === id)?.plate).toBe('SAME-2');
    expect(ms).toBeLessThan(SETTLE_MS + SEEN_WITHIN_MS);
  });

  it('keeps the answers of resources that do not depend on a model cached when it changes', async () => {
    // purchase/orders shows no vehicle (fleet/trips would: it shows the vehicle's name).
    const trips = '/api/v1/purchase/orders?limit=5&fields=id';
    await stack.get(trips);
    await stack.get(trips);
    const vehicles = await cached();
    erp.write('fleet.vehicle', (vehicles[2] as Vehicle).id, { license_plate: `CD-O-${Date.now() % 1000}` });
    await seen();
    const from = stack.logLines.length;
    await stack.get(trips);
    expect(cacheOutcomes(stack.logLines, from)).toEqual(['hit']);
  });

  it('counts its checks, their ERP time, the changes seen and the entries dropped; /readyz shows each model watched', async () => {
    const metrics = (await request(stack.metricsUrl as string).get('/metrics')).text;
    const sum = (pattern: RegExp) =>
      metrics
        .split('\n')
        .filter((line) => pattern.test(line))
        .reduce((total, line) => total + Number(line.split(' ').at(-1)), 0);
    expect(sum(/^odg_cache_checks_total\{model="fleet\.vehicle",outcome="baseline"\}/)).toBe(1);
    expect(sum(/^odg_cache_checks_total\{model="fleet\.vehicle",outcome="changed"\}/)).toBeGreaterThanOrEqual(6);
    expect(sum(/^odg_cache_checks_total\{model="res\.partner",outcome="changed"\}/)).toBeGreaterThanOrEqual(1);
    expect(sum(/^odg_cache_check_seconds_total\{model="fleet\.vehicle"\}/)).toBeGreaterThan(0);
    expect(sum(/^odg_cache_entries_dropped_total /)).toBeGreaterThanOrEqual(6);
    expect(sum(/^odg_cache_check_interval_seconds\{model="fleet\.vehicle"\}/)).toBeGreaterThanOrEqual(1);
    const ready = await request(stack.url).get('/readyz');
    expect(ready.body.cache_watch.enabled).toBe(true);
    expect(ready.body.cache_watch.models['fleet.vehicle']).toEqual({ accounts: 1, check_ms: expect.any(Number), interval_ms: expect.any(Number), blind: false });
    expect(Object.keys(ready.body.cache_watch.models)).toEqual(expect.arrayContaining(['fleet.vehicle', 'res.partner', 'fleet.vehicle.model', 'purchase.order']));
  });
});

describe('change detection off (CACHE_WATCH=off): answers are bound by their TTL alone', () => {
  let stack: Stack;
  let erp: ErpWriter;
  beforeAll(async () => {
    stack = await startStack({ transport: 'json2', env: { CACHE_DEFAULT_TTL_S: String(TTL_S), CACHE_WATCH: 'off' } });
    erp = new ErpWriter(stack.dbPath);
  });
  afterAll(async () => {
    erp.close();
    await stack.close();
  });

  it('keeps serving the cached answer after a write, makes no check, and says so on /readyz', async () => {
    const before = (await stack.get(LIST)).body.data as Vehicle[];
    const target = before[1] as Vehicle;
    erp.write('fleet.vehicle', target.id, { license_plate: 'OFF-1' });
    const calls = stack.erpCalls.length;
    await sleep(2500);
    const after = (await stack.get(LIST)).body.data as Vehicle[];
    expect(after).toEqual(before);
    expect(stack.erpCalls.slice(calls)).toEqual([]);
    expect((await request(stack.url).get('/readyz')).body.cache_watch).toEqual({ enabled: false });
  });
});

describe('the interval follows what a check costs (CACHE_WATCH_SHARE_PCT at its default 2 %, every ERP call 100 ms slower)', () => {
  let stack: Stack;
  let proxy: FaultProxy;
  beforeAll(async () => {
    ({ stack, proxy } = await startStackBehindProxy({ transport: 'json2', env: { CACHE_DEFAULT_TTL_S: String(TTL_S), METRICS_PORT: '0' } }));
  });
  afterAll(async () => {
    await stack.close();
    await proxy.close();
  });

  it('spaces the checks so that all of them together take at most 2 % of the ERP: no check but the first looks within the interval', async () => {
    proxy.mode = { kind: 'delay', ms: 100 };
    const path = '/api/v1/purchase/orders?limit=5&fields=vendor';
    expect((await stack.get(path)).status).toBe(200);
    const models = (await request(stack.url).get('/readyz')).body.cache_watch.models as Record<string, { check_ms: number; interval_ms: number }>;
    const watched = Object.keys(models).length;
    expect(watched).toBeGreaterThanOrEqual(2);
    for (const [model, { check_ms, interval_ms }] of Object.entries(models)) {
      // One call (web_search_read) of at least 100 ms; the next check of the model waits cost × watched ÷ 2 %.
      expect([model, check_ms >= 100]).toEqual([model, true]);
      // (check_ms is rounded to hundredths and interval_ms to a millisecond: the formula holds to that rounding.)
      expect([model, Math.abs(interval_ms - Math.max(1000, (check_ms * watched) / 0.02)) <= 0.005 * 50 * watched + 1]).toEqual([model, true]);
    }
    // Served from the cache meanwhile, and no second look at any model within its interval (at least 10 s here).
    await sleep(3000);
    const from = stack.logLines.length;
    expect((await stack.get(path)).status).toBe(200);
    expect(cacheOutcomes(stack.logLines, from)).toEqual(['hit']);
    const metrics = (await request(stack.metricsUrl as string).get('/metrics')).text;
    const checks = metrics.split('\n').filter((line) => line.startsWith('odg_cache_checks_total{'));
    expect(checks.filter((line) => !/outcome="baseline"/.test(line))).toEqual([]);
    expect(checks.map((line) => Number(line.split(' ').at(-1)))).toEqual(checks.map(() => 1));
  });
});
