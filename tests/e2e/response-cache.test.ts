/**
 * The response cache (runtime/cache/), over real HTTP against the sandbox ERP: what a client receives
 * (headers, bodies, statuses) and what the gateway asks the ERP (`erpCalls`, the access log's
 * `cache`). Freshness: a change in the ERP shows once the TTL has passed, and not before. Revocation:
 * a revoked or expired key gets 401 within AUTH_CACHE_TTL_MS even while its answers are cached. Two
 * accounts never share an entry. Errors and drift never poison it. The cache stays within
 * CACHE_MAX_BYTES. With the cache off (the default), the answers are those of a gateway without one.
 * These suites prove the TTL's own behaviour, with change detection off (CACHE_WATCH=off: the ERP
 * calls they count are the answers' own); change detection is proved in change-detection.test.ts.
 */
import { DatabaseSync } from 'node:sqlite';
import request from 'supertest';
import type { FaultProxy } from '../support/fault-proxy';
import { expectDocumented } from '../support/openapi-responses';
import { cacheOutcomes } from '../support/access-log';
import { startStack, startStackBehindProxy, type Stack } from '../support/stack';
import { createDriftDatabase, gatewayEnv, type DriftDatabase } from '../drift/support/drift-sandbox';
import { startGatewayWithEnv, type RunningGateway } from '../support/gateway';
import { mintKey, revokeKey } from '../reliability/support/sandbox-keys';

const TTL_S = 3;
const AUTH_TTL_MS = 1000;
const LIST = '/api/v1/fleet/vehicles?limit=5&fields=plate,model';

function setPlate(dbPath: string, id: number, plate: string): void {
  const db = new DatabaseSync(dbPath);
  try {
    db.prepare('UPDATE fleet_vehicle SET license_plate = ? WHERE id = ?').run(plate, id);
  } finally {
    db.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`the response cache, TTL ${TTL_S} s`, () => {
  let stack: Stack;
  let proxy: FaultProxy;
  let clock = new Date();
  beforeAll(async () => {
    ({ stack, proxy } = await startStackBehindProxy({
      transport: 'json2',
      now: () => clock,
      // The TTL's own behaviour: change detection (on by default) is tested in change-detection.test.ts.
      env: { CACHE_DEFAULT_TTL_S: String(TTL_S), AUTH_CACHE_TTL_MS: String(AUTH_TTL_MS), CACHE_WATCH: 'off' },
    }));
  });
  afterAll(async () => {
    await stack.close();
    await proxy.close();
  });

  /** ERP reads of fleet.vehicle records made since `from`. */
  const vehicleReads = (from: number) => stack.erpCalls.slice(from).filter((call) => call.model === 'fleet.vehicle' && call.method === 'search_read').length;

  it('answers a repeated list from the cache: one ERP read, private max-age, Age, the same ETag and body', async () => {
    const [calls, lines] = [stack.erpCalls.length, stack.logLines.length];
    const first = expectDocumented(LIST, await stack.get(LIST));
    const second = expectDocumented(LIST, await stack.get(LIST));
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([first.headers['cache-control'], second.headers['cache-control']]).toEqual([`private, max-age=${TTL_S}`, `private, max-age=${TTL_S}`]);
    expect([first.headers['age'], second.headers['age']]).toEqual(['0', expect.stringMatching(/^[0-2]$/)]);
    expect(second.headers['etag']).toBe(first.headers['etag']);
    expect(second.text).toBe(first.text);
    expect(vehicleReads(calls)).toBe(1);
    expect(cacheOutcomes(stack.logLines, lines)).toEqual(['miss', 'hit']);
  });

  it('shares an entry between spellings of the same query, and not with another query', async () => {
    const [calls, lines] = [stack.erpCalls.length, stack.logLines.length];
    const a = await stack.get('/api/v1/fleet/vehicles?limit=4&fuel_type=diesel&total=true&fields=plate');
    const b = await stack.get('/api/v1/fleet/vehicles?total=true&fields=plate&fuel_type=diesel&limit=4');
    const c = await stack.get('/api/v1/fleet/vehicles?fields=plate&fuel_type=diesel&limit=04');
    const other = await stack.get('/api/v1/fleet/vehicles?limit=3&fuel_type=diesel&fields=plate');
    expect([a.status, b.text, c.text, other.status]).toEqual([200, a.text, a.text, 200]);
    expect(other.body.data).toHaveLength(Math.min(3, a.body.data.length));
    expect(cacheOutcomes(stack.logLines, lines)).toEqual(['miss', 'hit', 'hit', 'miss']);
    expect(vehicleReads(calls)).toBe(2);
  });

  it('caches a detail and its count-free answer, and answers 304 from the cache', async () => {
    const path = '/api/v1/fleet/vehicles/3?fields=plate';
    const first = expectDocumented(path, await stack.get(path));
    const lines = stack.logLines.length;
    const calls = stack.erpCalls.length;
    const notModified = expectDocumented(path, await stack.get(path).set('If-None-Match', String(first.headers['etag'])));
    expect([notModified.status, notModified.text ?? '', notModified.headers['etag'], notModified.headers['cache-control']]).toEqual([
      304,
      '',
      first.headers['etag'],
      `private, max-age=${TTL_S}`,
    ]);
    expect(notModified.headers['age']).toMatch(/^[0-2]$/);
    expect(stack.erpCalls.length).toBe(calls);
    expect(cacheOutcomes(stack.logLines, lines)).toEqual(['hit']);
  });

  it('caches the count with its page: meta.total stays what it was until the entry expires', async () => {
    const path = '/api/v1/fleet/vehicles?limit=1&fields=plate';
    const before = await stack.get(path);
    const db = new DatabaseSync(stack.dbPath);
    try {
      db.prepare('UPDATE fleet_vehicle SET active = 0 WHERE id = (SELECT max(id) FROM fleet_vehicle WHERE active = 1)').run();
    } finally {
      db.close();
    }
    const cached = await stack.get(path);
    expect(cached.body.meta.total).toBe(before.body.meta.total);
    await sleep(TTL_S * 1000 + 100);
    const after = await stack.get(path);
    expect(after.body.meta.total).toBe(before.body.meta.total - 1);
  });

  it(`shows a change in the ERP once the TTL (${TTL_S} s) has passed, and not before`, async () => {
    const path = '/api/v1/fleet/vehicles/2?fields=plate';
    const before = await stack.get(path);
    const started = Date.now();
    setPlate(stack.dbPath, 2, 'CACHE-1');
    const seen: string[] = [];
    for (;;) {
      const res = await stack.get(path);
      seen.push(res.body.data.plate);
      if (res.body.data.plate === 'CACHE-1') break;
      expect(Date.now() - started).toBeLessThan(TTL_S * 1000 + 500);
      await sleep(250);
    }
    // Old while cached (well past a second), new once the TTL has passed; never back to the old value.
    expect(seen[0]).toBe(before.body.data.plate);
    expect(Date.now() - started).toBeGreaterThan((TTL_S - 1) * 1000);
    const again = await stack.get(path);
    expect(again.body.data.plate).toBe('CACHE-1');
  });

  it(`answers a revoked key 401 within AUTH_CACHE_TTL_MS (${AUTH_TTL_MS} ms) though its answer is cached`, async () => {
    const key = mintKey(stack.dbPath, { name: 'cache revoked' });
    expect((await stack.get(LIST, key)).status).toBe(200);
    revokeKey(stack.dbPath, key);
    const revoked = Date.now();
    let status = 200;
    while (status === 200) {
      expect(Date.now() - revoked).toBeLessThan(AUTH_TTL_MS + 500);
      status = (await stack.get(LIST, key)).status;
      if (status === 200) await sleep(100);
    }
    expect(status).toBe(401);
    // The entry itself is still fresh: another key of the account is served from it.
    const lines = stack.logLines.length;
    expect((await stack.get(LIST)).status).toBe(200);
    expect(cacheOutcomes(stack.logLines, lines)).toEqual(['hit']);
  });

  it(`answers an expired key 401 within AUTH_CACHE_TTL_MS (${AUTH_TTL_MS} ms) though its answer is cached`, async () => {
    const key = mintKey(stack.dbPath, { name: 'cache expires', expiresAt: new Date(clock.getTime() + 3600_000), now: () => clock });
    expect((await stack.get(LIST, key)).status).toBe(200);
    clock = new Date(clock.getTime() + 2 * 3600_000);
    const expired = Date.now();
    let res = await stack.get(LIST, key);
    while (res.status === 200) {
      expect(Date.now() - expired).toBeLessThan(AUTH_TTL_MS + 500);
      await sleep(100);
      res = await stack.get(LIST, key);
    }
    expect([res.status, res.body.error.code]).toEqual([401, 'unauthorized']);
  });

  it("never gives one account another's cached answer: the no-read account stays 403, and reads its own entries", async () => {
    expect((await stack.get(LIST)).status).toBe(200);
    const noRead = stack.keys.no_read.key;
    const denied = expectDocumented(LIST, await stack.get(LIST, noRead));
    expect([denied.status, denied.body.error.code, denied.headers['cache-control'], denied.headers['age']]).toEqual([403, 'forbidden', 'no-store', undefined]);
    // On a resource both accounts may read, each has an entry of its own.
    const shared = '/api/v1/stock/pickings?limit=2';
    await stack.get(shared);
    const lines = stack.logLines.length;
    const other = await stack.get(shared, noRead);
    const mine = await stack.get(shared);
    expect([other.status, mine.status]).toEqual([200, 200]);
    expect(cacheOutcomes(stack.logLines, lines)).toEqual(['miss', 'hit']);
  });

  it('reads an entry missed by many requests at once from the ERP once, count included', async () => {
    const path = '/api/v1/fleet/vehicles?limit=6&fields=plate,seats';
    // The key and its read right known beforehand: only the reads of the answer remain.
    expect((await stack.get('/api/v1/fleet/vehicles?limit=1&fields=plate')).status).toBe(200);
    const calls = stack.erpCalls.length;
    // The count answers 300 ms after the page: requests arriving between the two wait for the whole answer.
    proxy.mode = { kind: 'delay', ms: 300, only: /search_count/ };
    const first = stack.get(path).then((res) => res);
    await sleep(100);
    const others = await Promise.all(Array.from({ length: 6 }, () => stack.get(path)));
    proxy.mode = { kind: 'forward' };
    const all = [await first, ...others];
    for (const res of all) expect([res.status, res.text]).toEqual([200, all[0]?.text]);
    const reads = stack.erpCalls.slice(calls).filter((call) => call.method === 'search_read' || call.method === 'search_count');
    expect(reads.map((call) => `${call.model} ${call.method}`).sort()).toEqual(['fleet.vehicle search_count', 'fleet.vehicle search_read']);
  });

  it('never stores an ERP error: the next request reads the ERP again', async () => {
    const path = '/api/v1/fleet/vehicles?limit=2&fields=vin';
    proxy.mode = { kind: 'html' };
    const failed = await stack.get(path);
    proxy.mode = { kind: 'forward' };
    expect([failed.status, failed.headers['cache-control'], failed.headers['age']]).toEqual([502, 'no-store', undefined]);
    const lines = stack.logLines.length;
    const ok = await stack.get(path);
    expect([ok.status, ok.headers['age']]).toEqual([200, '0']);
    expect(cacheOutcomes(stack.logLines, lines)).toEqual(['miss']);
  });

  it('answers HEAD from the cache with the same headers, and 304 when If-None-Match holds the ETag', async () => {
    const get = await stack.get(LIST);
    const head = (ifNoneMatch?: string) => {
      const test = request(stack.url).head(LIST).set('Authorization', `Bearer ${stack.keys.valid}`);
      return ifNoneMatch ? test.set('If-None-Match', ifNoneMatch) : test;
    };
    const lines = stack.logLines.length;
    const plain = expectDocumented(LIST, await head(), 'HEAD');
    expect([plain.status, plain.headers['etag'], plain.headers['cache-control'], plain.headers['content-length']]).toEqual([
      200,
      get.headers['etag'],
      `private, max-age=${TTL_S}`,
      String(Buffer.byteLength(get.text)),
    ]);
    expect(plain.headers['age']).toMatch(/^[0-9]+$/);
    expect((await head(String(get.headers['etag']))).status).toBe(304);
    expect(cacheOutcomes(stack.logLines, lines)).toEqual(['hit', 'hit']);
  });
});

describe('stale-while-revalidate (TTL 1 s, stale window 30 s)', () => {
  let stack: Stack;
  let proxy: FaultProxy;
  beforeAll(async () => {
    ({ stack, proxy } = await startStackBehindProxy({ transport: 'json2', env: { CACHE_DEFAULT_TTL_S: '1', CACHE_DEFAULT_STALE_S: '30', CACHE_WATCH: 'off' } }));
  });
  afterAll(async () => {
    await stack.close();
    await proxy.close();
  });

  it('serves the stale answer at once, reads it again once in the background however many ask, then serves the new one', async () => {
    const path = '/api/v1/fleet/vehicles/4?fields=plate';
    const first = await stack.get(path);
    expect(first.headers['cache-control']).toBe('private, max-age=1, stale-while-revalidate=30');
    setPlate(stack.dbPath, 4, 'STALE-1');
    await sleep(1100);
    const calls = stack.erpCalls.length;
    const lines = stack.logLines.length;
    // The ERP takes its time: every request below arrives while the one refresh is still reading.
    proxy.mode = { kind: 'delay', ms: 500, only: /search_read/ };
    const asked = performance.now();
    const stale = await Promise.all(Array.from({ length: 8 }, () => stack.get(path)));
    // Answered without waiting for the refresh.
    expect(performance.now() - asked).toBeLessThan(450);
    proxy.mode = { kind: 'forward' };
    for (const res of stale) {
      expect([res.status, res.body.data.plate]).toEqual([200, first.body.data.plate]);
      expect(Number(res.headers['age'])).toBeGreaterThanOrEqual(1);
    }
    expect(cacheOutcomes(stack.logLines, lines)).toEqual(Array(8).fill('stale'));
    let fresh = await stack.get(path);
    for (let i = 0; i < 40 && fresh.body.data.plate !== 'STALE-1'; i++) {
      await sleep(50);
      fresh = await stack.get(path);
    }
    expect([fresh.body.data.plate, fresh.headers['age']]).toEqual(['STALE-1', '0']);
    expect(stack.erpCalls.slice(calls).filter((call) => call.model === 'fleet.vehicle' && call.method === 'search_read')).toHaveLength(1);
  });
});

describe('the cache bound (CACHE_MAX_BYTES=65536)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ transport: 'json2', env: { CACHE_DEFAULT_TTL_S: '300', CACHE_MAX_BYTES: '65536', CACHE_WATCH: 'off' } });
  });
  afterAll(() => stack.close());

  it('evicts the least recently used answers once full, and never keeps one larger than a quarter of it', async () => {
    // Pages of about 8 KB: the first is pushed out by the ten after it.
    const page = (offset: number) => `/api/v1/stock/pickings?limit=20&offset=${offset}`;
    const first = await stack.get(page(0));
    expect(first.status).toBe(200);
    expect(Buffer.byteLength(first.text)).toBeGreaterThan(4000);
    expect(Buffer.byteLength(first.text)).toBeLessThan(16384);
    let lines = stack.logLines.length;
    expect((await stack.get(page(0))).status).toBe(200);
    expect(cacheOutcomes(stack.logLines, lines)).toEqual(['hit']);
    for (let i = 1; i <= 10; i++) await stack.get(page(i * 20));
    lines = stack.logLines.length;
    await stack.get(page(0));
    await stack.get(page(200));
    expect(cacheOutcomes(stack.logLines, lines)).toEqual(['miss', 'hit']);
    // Larger than 16 KB: read and answered, never offered to the cache.
    const large = '/api/v1/stock/pickings?limit=200';
    lines = stack.logLines.length;
    const big = await stack.get(large);
    expect(Buffer.byteLength(big.text)).toBeGreaterThan(16384);
    await stack.get(large);
    expect(cacheOutcomes(stack.logLines, lines)).toEqual(['bypass', 'bypass']);
    expect(big.headers['cache-control']).toBe('private, max-age=300');
  });
});

describe('drift learned after an answer was cached', () => {
  let database: DriftDatabase;
  let gateway: RunningGateway;
  let port = 0;
  beforeAll(async () => {
    database = createDriftDatabase();
    const sandbox = await database.serve();
    port = Number(new URL(sandbox.url).port);
    gateway = await startGatewayWithEnv(gatewayEnv(sandbox, { DRIFT_CHECK: 'warn', ERP_TRANSPORT: 'json2', CACHE_DEFAULT_TTL_S: '300', CACHE_WATCH: 'off' }), false);
  });
  afterAll(async () => {
    await gateway.close();
    await database.close();
  });

  it('never serves an answer stored before the gateway learned that a field is gone', async () => {
    const path = '/api/v1/fleet/vehicles?limit=3&fields=plate,vin';
    const before = await gateway.get(path, database.keys.valid);
    expect(before.body.data.some((record: { vin: unknown }) => record.vin !== null)).toBe(true);
    // The same ERP comes back without fleet.vehicle.vin_sn, on the same address.
    await database.closeServed();
    await database.serve({ removeFields: ['fleet.vehicle.vin_sn'] }, 19, port);
    const lines = gateway.logLines.length;
    // Another request teaches the gateway the drift (the cached list never reaches the ERP)...
    const detail = await gateway.get('/api/v1/fleet/vehicles/1?fields=vin', database.keys.valid);
    expect([detail.status, detail.body.data?.vin]).toEqual([200, null]);
    // ...and the list is no longer served from the entry stored before it.
    const after = await gateway.get(path, database.keys.valid);
    expect(after.status).toBe(200);
    for (const record of after.body.data) expect(record.vin).toBeNull();
    expect(cacheOutcomes(gateway.logLines, lines)).toEqual(['miss', 'miss']);
  });
});

describe('with the cache off (the default)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ transport: 'json2' });
  });
  afterAll(() => stack.close());

  it('answers as a gateway without a cache: no-store, no Age, every request read from the ERP', async () => {
    const calls = stack.erpCalls.length;
    const lines = stack.logLines.length;
    const first = expectDocumented(LIST, await stack.get(LIST));
    const second = expectDocumented(LIST, await stack.get(LIST).set('If-None-Match', String(first.headers['etag'])));
    expect([first.status, first.headers['cache-control'], first.headers['age']]).toEqual([200, 'no-store', undefined]);
    expect([second.status, second.headers['cache-control'], second.headers['age']]).toEqual([304, 'no-store', undefined]);
    expect(stack.erpCalls.slice(calls).filter((call) => call.method === 'search_read')).toHaveLength(2);
    expect(cacheOutcomes(stack.logLines, lines)).toEqual(['off', 'off']);
  });
});
