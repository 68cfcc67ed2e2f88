/**
 * Change detection shared by two gateway apps through one real redis-server (REDIS_URL;
 * runtime/cache/shared-watch.ts): a write in the ERP reaches the cached answers of both within
 * seconds, while only one of them checks the ERP (the other makes no check at all: the ERP's cost does
 * not grow with the number of gateways); when the one that checks stops, the other takes over; with
 * Redis gone, no cached answer is served (the cache is bypassed), never a stale one and never a 5xx.
 */
import { GATEWAY_LOGIN } from '@ops-data-gateway/sandbox/seed/security';
import type { ErpCall } from '@ops-data-gateway/gateway/runtime/erp/transport';
import { ErpWriter } from '../support/erp-writes';
import { startGateway, type RunningGateway } from '../support/gateway';
import { startRedisServer, type RedisServer } from '../support/redis-server';
import { startStack, type Stack } from '../support/stack';

const LIST = '/api/v1/fleet/vehicles?limit=200&fields=plate&total=false';
const SEEN_WITHIN_MS = 15_000;
type Vehicle = { id: number; plate: string | null };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The change checks among ERP calls: `search_count([])` on a model (the answers' own counts have a domain). */
/** A change check is one `web_search_read` (runtime/cache/change-watch.ts); nothing else the gateway sends calls it. */
const checks = (calls: readonly ErpCall[]) => calls.filter((call) => call.method === 'web_search_read');

describe('change detection shared by two gateway apps through one Redis', () => {
  let redis: RedisServer;
  /** The sandbox ERP (its own gateway is not used). */
  let stack: Stack;
  const apps: RunningGateway[] = [];
  let erp: ErpWriter;
  beforeAll(async () => {
    redis = await startRedisServer();
    stack = await startStack({ transport: 'json2' });
    // A share that lets the sandbox, slow on a loaded machine, be checked about every second.
    const env = { REDIS_URL: redis.url, REDIS_TIMEOUT_MS: '200', CACHE_DEFAULT_TTL_S: '300', CACHE_WATCH_SHARE_PCT: '50', CACHE_WATCH_SETTLE_MS: '2000' };
    for (let i = 0; i < 2; i++) apps.push(await startGateway({ erpUrl: stack.sandbox.url, database: stack.sandbox.database, login: GATEWAY_LOGIN, transport: 'json2', env }));
    // The two apps' connections and the test's own.
    await redis.waitForClients(3);
    erp = new ErpWriter(stack.dbPath);
  });
  afterAll(async () => {
    erp?.close();
    for (const app of apps) await app.close();
    await stack?.close();
    await redis?.stop();
  });

  const list = async (app: RunningGateway): Promise<Vehicle[]> => {
    const res = await app.get(LIST, stack.keys.valid);
    expect(res.status).toBe(200);
    return res.body.data as Vehicle[];
  };
  /** Polls the apps until each shows `plate` on vehicle `id`. */
  const allSee = async (among: readonly RunningGateway[], id: number, plate: string, withinMs = SEEN_WITHIN_MS) => {
    const started = Date.now();
    for (;;) {
      const shown = [];
      for (const app of among) shown.push((await list(app)).find((v) => v.id === id)?.plate);
      if (shown.every((value) => value === plate)) return;
      if (Date.now() - started > withinMs) throw new Error(`the apps showed ${JSON.stringify(shown)}, not ${plate}, after ${withinMs} ms`);
      await sleep(150);
    }
  };
  const checksOf = (app: RunningGateway) => checks(app.erpCalls).length;

  it('drops the cached answers of both apps when the ERP changes, while only one of them checks the ERP', async () => {
    const [a, b] = apps as [RunningGateway, RunningGateway];
    const vehicles = await list(a);
    await list(b);
    // Both serve from the shared cache meanwhile.
    expect((await b.get(LIST, stack.keys.valid)).headers['server-timing']).toMatch(/cache;desc=hit/);
    const id = (vehicles[2] as Vehicle).id;
    erp.write('fleet.vehicle', id, { license_plate: 'SHARED-1' });
    await allSee(apps, id, 'SHARED-1');
    erp.write('fleet.vehicle', id, { license_plate: 'SHARED-2' });
    await allSee(apps, id, 'SHARED-2');
    // One app holds every pair's lease: the other made no check at all.
    expect([checksOf(a) > 0, checksOf(b) > 0].sort()).toEqual([false, true]);
    const names = await redis.client.keys('odg:watch:*');
    expect(names.some((name) => name.includes(':lock:'))).toBe(true);
    expect(names.join(' ')).not.toContain(stack.keys.valid);
  });

  it('is taken over by the other app when the app that checks stops (its lease lapses)', async () => {
    const checker = apps.find((app) => checksOf(app) > 0) as RunningGateway;
    const survivor = apps.find((app) => app !== checker) as RunningGateway;
    await checker.close();
    apps.splice(apps.indexOf(checker), 1);
    const before = checksOf(survivor);
    const id = ((await list(survivor))[4] as Vehicle).id;
    erp.write('fleet.vehicle', id, { license_plate: 'TAKEN-OVER' });
    // Within the lease (10 s at least) plus an interval.
    await allSee([survivor], id, 'TAKEN-OVER', 30_000);
    expect(checksOf(survivor)).toBeGreaterThan(before);
  }, 60_000);
});

describe('change detection with Redis gone: no cached answer is served', () => {
  let redis: RedisServer;
  let stack: Stack;
  let erp: ErpWriter;
  beforeAll(async () => {
    redis = await startRedisServer();
    stack = await startStack({ transport: 'json2', env: { REDIS_URL: redis.url, REDIS_TIMEOUT_MS: '200', CACHE_DEFAULT_TTL_S: '300' } });
    await redis.waitForClients(2);
    erp = new ErpWriter(stack.dbPath);
  });
  afterAll(async () => {
    erp?.close();
    await stack?.close();
    await redis?.stop();
  });

  it('reads every answer from the ERP while Redis is down: a write shows at once, never a 5xx', async () => {
    const before = (await stack.get(LIST)).body.data as Vehicle[];
    await redis.kill();
    const id = (before[1] as Vehicle).id;
    erp.write('fleet.vehicle', id, { license_plate: 'NO-REDIS' });
    const res = await stack.get(LIST);
    expect(res.status).toBe(200);
    expect((res.body.data as Vehicle[]).find((v) => v.id === id)?.plate).toBe('NO-REDIS');
    expect(res.headers['server-timing']).toMatch(/cache;desc=(miss|bypass)/);
  });
});
