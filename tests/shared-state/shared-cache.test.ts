/**
 * The response cache shared by two gateway apps through one real redis-server (REDIS_URL): an answer
 * one app read from the ERP is served by the other from Redis (a hit, with its Age, the same body and
 * ETag, and no ERP read); accounts never share an entry there either; and with Redis gone every
 * request is read from the ERP (the cache bypassed), never a 5xx.
 */
import request from 'supertest';
import { GATEWAY_LOGIN } from '@ops-data-gateway/sandbox/seed/security';
import { startGateway, type RunningGateway } from '../support/gateway';
import { expectDocumented } from '../support/openapi-responses';
import { startRedisServer, type RedisServer } from '../support/redis-server';
import type { FaultProxy } from '../support/fault-proxy';
import { startStackBehindProxy, type Stack } from '../support/stack';

const PATH = '/api/v1/fleet/vehicles?limit=3&fields=plate,fuel_type';
const SEARCH_READ = /fleet\.vehicle\/search_read$/;

describe('the response cache shared by two gateway apps through one Redis', () => {
  let redis: RedisServer;
  let stack: Stack;
  let second: RunningGateway;
  let proxy: FaultProxy;
  const reads = () => proxy.requests.filter((line) => SEARCH_READ.test(line)).length;
  const get = (url: string, key: string) =>
    request(url)
      .get(PATH)
      .set('Authorization', `Bearer ${key}`)
      .then((res) => expectDocumented(PATH, res));

  beforeAll(async () => {
    redis = await startRedisServer();
    // The cache's own sharing: change detection's checks (search_reads of the same model, at any time)
    // would blur the count of the answers' reads; shared change detection is shared-change-watch.test.ts.
    const env = { REDIS_URL: redis.url, REDIS_TIMEOUT_MS: '100', CACHE_DEFAULT_TTL_S: '60', CACHE_WATCH: 'off' };
    ({ stack, proxy } = await startStackBehindProxy({ transport: 'json2', env }));
    second = await startGateway({ erpUrl: proxy.url, database: stack.sandbox.database, login: GATEWAY_LOGIN, transport: 'json2', env });
    await redis.waitForClients(3);
  });
  afterAll(async () => {
    await second?.close();
    await proxy?.close();
    await stack?.close();
    await redis?.stop();
  });

  it('serves from Redis, in the other app, the answer one app read from the ERP: same body and ETag, with its Age, no ERP read', async () => {
    const filled = await get(stack.url, stack.keys.valid);
    expect([filled.status, filled.headers['cache-control']]).toEqual([200, 'private, max-age=60']);
    const before = reads();
    const served = await get(second.url, stack.keys.valid);
    expect([served.status, served.text, served.headers['etag']]).toEqual([200, filled.text, filled.headers['etag']]);
    expect(Number(served.headers['age'])).toBeGreaterThanOrEqual(0);
    expect(String(served.headers['server-timing'])).toContain('cache;desc=hit');
    expect(reads() - before).toBe(0);
    // Held in Redis under the prefix, by a hash: no key, no query text in the name.
    const names = await redis.client.keys('odg:cache:*');
    expect(names.length).toBeGreaterThanOrEqual(1);
    expect(names.join(' ')).not.toContain(stack.keys.valid);
    expect(names.join(' ')).not.toContain('fleet');
  });

  it("never serves one account's cached answer to another: the no-read account still gets 403 in the other app", async () => {
    const res = await get(second.url, stack.keys.no_read.key);
    expect([res.status, res.body.error?.code]).toEqual([403, 'forbidden']);
  });

  it('with Redis gone, reads every request from the ERP (the cache bypassed) and never answers 5xx', async () => {
    await redis.kill();
    const before = reads();
    const answers = [await get(stack.url, stack.keys.valid), await get(second.url, stack.keys.valid)];
    expect(answers.map((res) => res.status)).toEqual([200, 200]);
    expect(reads() - before).toBe(2);
  });
});
