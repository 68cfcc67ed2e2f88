/**
 * Two gateway apps on one real redis-server (REDIS_URL) behave as one for every limit: a key's quota
 * (RATE_LIMIT_POINTS), an address's failed authentications (AUTH_FAILURE_LIMIT) and the key checks of
 * all addresses (AUTH_CHECK_LIMIT) are counted together whichever app answers. Redis holds the key's
 * id, never the key. When Redis is killed mid-run no answer is 5xx: each app counts in its own memory
 * (the stated fallback) until Redis is back; when Redis is paused every answer still comes within the
 * Redis timeout plus a margin.
 */
import request from 'supertest';
import { GATEWAY_LOGIN } from '@ops-data-gateway/sandbox/seed/security';
import { mintKey } from '../reliability/support/sandbox-keys';
import { startGateway, type RunningGateway } from '../support/gateway';
import { expectDocumented } from '../support/openapi-responses';
import { startRedisServer, type RedisServer } from '../support/redis-server';
import type { FaultProxy } from '../support/fault-proxy';
import { startStackBehindProxy, type Stack } from '../support/stack';

const PATH = '/api/v1/fleet/vehicles?limit=1&total=false&fields=plate';
const POINTS = 6;
const FAILURES = 4;
const CHECKS = 5;
const TIMEOUT_MS = 100;
const PREFIX = 'odg-limits:';

let wrongKeys = 0;
const wrongKey = () => (++wrongKeys).toString(16).padStart(40, 'e');

describe('limits shared by two gateway apps through one Redis', () => {
  let redis: RedisServer;
  let stack: Stack;
  let proxy: FaultProxy;
  /** Two gateway apps, fresh for each test: each keeps its own count of every limit besides Redis's (window-limiter.ts). */
  let apps: readonly RunningGateway[] = [];
  /** Key checks (JSON-2 `context_get`) the ERP received from both apps, through the proxy in front of it. */
  const keyChecks = () => proxy.requests.filter((line) => line.includes('context_get')).length;

  beforeAll(async () => {
    redis = await startRedisServer();
    ({ stack, proxy } = await startStackBehindProxy({ transport: 'json2' }));
  });
  beforeEach(async () => {
    await redis.client.flushall();
    const env = {
      REDIS_URL: redis.url,
      REDIS_TIMEOUT_MS: String(TIMEOUT_MS),
      REDIS_KEY_PREFIX: PREFIX,
      RATE_LIMIT_POINTS: String(POINTS),
      AUTH_FAILURE_LIMIT: String(FAILURES),
      AUTH_CHECK_LIMIT: String(CHECKS),
      // The client address is the X-Forwarded-For entry the (loopback) test writes.
      TRUST_PROXY: 'loopback',
    };
    const start = () => startGateway({ erpUrl: proxy.url, database: stack.sandbox.database, login: GATEWAY_LOGIN, transport: 'json2', env });
    apps = [await start(), await start()];
    // Both connected before counting starts (a not-yet-connected app would count in memory, as designed).
    await redis.waitForClients(3);
  });
  afterEach(async () => {
    for (const app of apps) await app.close();
    // Their connections gone before the next test counts those of its own apps.
    await redis.waitForClients(1);
  });
  afterAll(async () => {
    await proxy?.close();
    await stack?.close();
    await redis?.stop();
  });

  const get = (app: number, key: string, address = '192.0.2.10') =>
    request(apps[app % 2]?.url as string)
      .get(PATH)
      .set('X-Forwarded-For', address)
      .set('Authorization', `Bearer ${key}`)
      .then((res) => expectDocumented(PATH, res));

  it("counts a key's quota once across both apps, in Redis under the key's id (never the key)", async () => {
    const key = mintKey(stack.dbPath, { name: 'shared quota' });
    const left: string[] = [];
    for (let i = 0; i < POINTS; i++) {
      const res = await get(i, key);
      expect(res.status).toBe(200);
      left.push(String(res.headers['ratelimit']).split(';')[1] as string);
    }
    expect(left).toEqual(['r=5', 'r=4', 'r=3', 'r=2', 'r=1', 'r=0']);
    for (const app of [0, 1]) expect((await get(app, key)).status).toBe(429);
    const keys = await redis.client.keys('*');
    expect(keys.some((name) => /^odg-limits:rl:key:[0-9a-f]{12}$/.test(name))).toBe(true);
    expect(keys.every((name) => name.startsWith(PREFIX) && !name.includes(key))).toBe(true);
  });

  it("counts an address's failed authentications once across both apps: at most the limit of key checks reach the ERP", async () => {
    const before = keyChecks();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await get(i, wrongKey(), '198.51.100.77')).status);
    expect(statuses).toEqual([...Array(FAILURES).fill(401), ...Array(12 - FAILURES).fill(429)]);
    expect(keyChecks() - before).toBe(FAILURES);
  });

  it('caps the key checks of all addresses once across both apps', async () => {
    const before = keyChecks();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await get(i, wrongKey(), `198.18.1.${i + 1}`)).status);
    expect(keyChecks() - before).toBe(CHECKS);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20 - CHECKS);
  });

  it('never answers 5xx while Redis is paused, each answer within the timeout and a margin', async () => {
    const key = mintKey(stack.dbPath, { name: 'during a pause' });
    redis.pause();
    try {
      for (let i = 0; i < 6; i++) {
        const started = performance.now();
        const res = await get(i, i % 3 === 2 ? wrongKey() : key, '203.0.113.50');
        expect([res.status, performance.now() - started < TIMEOUT_MS + 400]).toEqual([i % 3 === 2 ? 401 : 200, true]);
      }
    } finally {
      redis.resume();
    }
  });

  it('never answers 5xx once Redis is killed: each app then counts in its own memory, and shares again once Redis is back', async () => {
    const key = mintKey(stack.dbPath, { name: 'through a Redis crash' });
    expect((await get(0, key)).status).toBe(200);
    await redis.kill();
    const statuses: number[] = [];
    for (let i = 0; i < 2 * POINTS + 4; i++) {
      const res = await get(i, key);
      statuses.push(res.status);
      expect(res.headers['ratelimit']).toMatch(/^"per-key";r=\d+;t=\d+$/);
    }
    // Per process now, each from the count it last had from Redis: the app that answered before the
    // kill goes on from 1, the other from 0 (redis-outage.test.ts follows one app through a restart).
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    expect(statuses.filter((status) => status === 200)).toHaveLength(2 * POINTS - 1);
    await redis.restart();
    const fresh = mintKey(stack.dbPath, { name: 'after the crash' });
    // Redis is asked again once connected and past the cool-down: the quota is shared again.
    const until = performance.now() + 10000;
    let counted = 0;
    while (counted === 0 && performance.now() < until) {
      await get(0, fresh);
      counted = (await redis.client.keys(`${PREFIX}rl:key:*`)).length;
      if (counted === 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(counted).toBe(1);
  });
});
