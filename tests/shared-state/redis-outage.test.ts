/**
 * A Redis outage never resets a limit: a real redis-server is killed in the middle of an attack, then
 * started again (empty), and the gateway that counted in it goes on from the count it had: while Redis
 * is down it counts in its memory from there, and once Redis answers again Redis is brought up to what
 * the gateway counted meanwhile. For each limit that falls back (an address's failed authentications,
 * the cap of key checks of all addresses, a key's quota), the whole attack, across the kill and the
 * restart, gets exactly the limit through and nothing more (the counts in memory would otherwise start
 * from zero at the kill, and Redis again from zero at its restart: three times the limit). Two gateways
 * that counted alone before they could reach Redis add what they let through to its count once they do.
 */
import { createHash } from 'node:crypto';
import request from 'supertest';
import { GATEWAY_LOGIN } from '@ops-data-gateway/sandbox/seed/security';
import { mintKey } from '../reliability/support/sandbox-keys';
import type { FaultProxy } from '../support/fault-proxy';
import { startGateway, type RunningGateway } from '../support/gateway';
import { startRedisServer, type RedisServer } from '../support/redis-server';
import { startStackBehindProxy, type Stack } from '../support/stack';

const PATH = '/api/v1/fleet/vehicles?limit=1&total=false&fields=plate';
const PREFIX = 'odg-outage:';
const LIMIT = 6;
/** After the restart, how long the gateway may take to ask Redis again (reconnection, then its 2 s cool-down). */
const BACK_WITHIN_MS = 15000;

let wrongKeys = 0;
const wrongKey = () => (++wrongKeys).toString(16).padStart(40, 'd');

describe('limits through a Redis killed mid-attack and started again', () => {
  let redis: RedisServer;
  let stack: Stack;
  let proxy: FaultProxy;
  let gateways: RunningGateway[] = [];
  const keyChecks = () => proxy.requests.filter((line) => line.includes('context_get')).length;

  beforeAll(async () => {
    redis = await startRedisServer();
    // The sandbox behind a counting proxy; each test starts its own gateway on it (its own counts in memory).
    ({ stack, proxy } = await startStackBehindProxy({ transport: 'json2' }));
  });
  afterEach(async () => {
    for (const gateway of gateways) await gateway.close();
    gateways = [];
    await redis.restart();
  });
  afterAll(async () => {
    await proxy?.close();
    await stack?.close();
    await redis?.stop();
  });

  /** A gateway on the shared Redis (connected to it before this resolves, unless Redis is down), and how to ask it. */
  async function startCounting(env: Record<string, string>, redisUp = true): Promise<(key: string, address: string) => Promise<number>> {
    const gateway = await startGateway({
      erpUrl: proxy.url,
      database: stack.sandbox.database,
      login: GATEWAY_LOGIN,
      transport: 'json2',
      env: { REDIS_URL: redis.url, REDIS_TIMEOUT_MS: '100', REDIS_KEY_PREFIX: PREFIX, TRUST_PROXY: 'loopback', ...env },
    });
    gateways.push(gateway);
    if (redisUp) await redis.waitForClients(1 + gateways.length);
    const url = gateway.url;
    return async (key, address) => {
      const res = await request(url).get(PATH).set('X-Forwarded-For', address).set('Authorization', `Bearer ${key}`);
      return res.status;
    };
  }

  /** Sends requests until Redis holds `counter` again (the gateway asks it again), each answer collected. */
  async function untilRedisCounts(counter: string, send: () => Promise<number>): Promise<{ statuses: number[]; count: number }> {
    const statuses: number[] = [];
    const until = performance.now() + BACK_WITHIN_MS;
    for (;;) {
      statuses.push(await send());
      const count = await redis.client.get(`${PREFIX}rl:${counter}`);
      if (count !== null) return { statuses, count: Number(count) };
      if (performance.now() > until) throw new Error(`the gateway did not count in Redis again within ${BACK_WITHIN_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it("an address's failed authentications: the limit of 401s across the kill and the restart, then 429 only", async () => {
    const get = await startCounting({ AUTH_FAILURE_LIMIT: String(LIMIT), AUTH_FAILURE_WINDOW_MS: '120000', AUTH_CHECK_LIMIT: '1000' });
    const address = '198.51.100.66';
    const before = keyChecks();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT / 2; i++) statuses.push(await get(wrongKey(), address));
    expect(await redis.client.get(`${PREFIX}rl:auth-failures:${address}`)).toBe(String(LIMIT / 2));
    await redis.kill();
    for (let i = 0; i < 3 * LIMIT; i++) statuses.push(await get(wrongKey(), address));
    await redis.restart();
    const back = await untilRedisCounts(`auth-failures:${address}`, () => get(wrongKey(), address));
    statuses.push(...back.statuses);
    expect(statuses).toEqual([...Array(LIMIT).fill(401), ...Array(statuses.length - LIMIT).fill(429)]);
    // Redis, restarted empty, was brought up to what the gateway counted while it was away.
    expect(back.count).toBe(LIMIT);
    expect(keyChecks() - before).toBe(LIMIT);
    // Another address is not held by it.
    expect(await get(wrongKey(), '198.51.100.67')).toBe(401);
  });

  it('the key checks of all addresses: the cap of checks reaches the ERP across the kill and the restart', async () => {
    const get = await startCounting({ AUTH_FAILURE_LIMIT: '1000', AUTH_CHECK_LIMIT: String(LIMIT), AUTH_FAILURE_WINDOW_MS: '120000' });
    let addresses = 0;
    const fromNewAddress = () => get(wrongKey(), `198.18.7.${++addresses}`);
    const before = keyChecks();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT / 2; i++) statuses.push(await fromNewAddress());
    await redis.kill();
    for (let i = 0; i < 3 * LIMIT; i++) statuses.push(await fromNewAddress());
    await redis.restart();
    const back = await untilRedisCounts('key-checks:all', fromNewAddress);
    statuses.push(...back.statuses);
    expect(statuses).toEqual([...Array(LIMIT).fill(401), ...Array(statuses.length - LIMIT).fill(429)]);
    expect(back.count).toBe(LIMIT);
    expect(keyChecks() - before).toBe(LIMIT);
  });

  it('two gateways that counted alone before Redis was up: once it is, their points are added to its count, and the limit holds across them', async () => {
    await redis.kill();
    const env = { AUTH_FAILURE_LIMIT: String(LIMIT), AUTH_FAILURE_WINDOW_MS: '120000', AUTH_CHECK_LIMIT: '1000' };
    const apps = [await startCounting(env, false), await startCounting(env, false)];
    const address = '198.51.100.88';
    const statuses: number[] = [];
    // Each counts alone (not connected): a third of the limit each.
    for (const get of apps) for (let i = 0; i < LIMIT / 3; i++) statuses.push(await get(wrongKey(), address));
    await redis.restart();
    await redis.waitForClients(3);
    // Now in Redis: each adds the points it let through alone to Redis's count, then decides.
    for (let i = 0; i < 2 * LIMIT; i++) statuses.push(await (apps[i % 2] as (typeof apps)[number])(wrongKey(), address));
    expect(statuses).toEqual([...Array(LIMIT).fill(401), ...Array(statuses.length - LIMIT).fill(429)]);
    expect(await redis.client.get(`${PREFIX}rl:auth-failures:${address}`)).toBe(String(LIMIT));
  });

  it("a key's quota (RATE_LIMIT_POINTS): the quota of 200s across the kill and the restart, then 429 only", async () => {
    const get = await startCounting({ RATE_LIMIT_POINTS: String(LIMIT), RATE_LIMIT_WINDOW_SECONDS: '120' });
    const key = mintKey(stack.dbPath, { name: 'through a Redis outage' });
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT / 2; i++) statuses.push(await get(key, '192.0.2.5'));
    await redis.kill();
    for (let i = 0; i < 3 * LIMIT; i++) statuses.push(await get(key, '192.0.2.5'));
    await redis.restart();
    // The counter is named by the key's id (a prefix of its SHA-256, as in the logs).
    const keyId = createHash('sha256').update(key).digest('hex').slice(0, 12);
    const back = await untilRedisCounts(`key:${keyId}`, () => get(key, '192.0.2.5'));
    statuses.push(...back.statuses);
    expect(statuses).toEqual([...Array(LIMIT).fill(200), ...Array(statuses.length - LIMIT).fill(429)]);
    expect(back.count).toBe(LIMIT);
  });
});
