/**
 * The response cache's Redis store against a real redis-server: what is set is got back byte for byte
 * until it expires; big answers are not kept; keys are hashed under the configured prefix; and a Redis
 * that is down or paused is a miss and a no-op within the bounded time, never an error, until it
 * answers again.
 */
import { createHash } from 'node:crypto';
import { RedisCacheStore } from '@ops-data-gateway/gateway/runtime/cache/redis-cache-store';
import type { CachedAnswer } from '@ops-data-gateway/gateway/runtime/cache/cache-store';
import { createLogger } from '@ops-data-gateway/gateway/runtime/log';
import { SharedRedis } from '@ops-data-gateway/gateway/runtime/shared-state/redis';
import { startRedisServer, type RedisServer } from '../support/redis-server';

const TIMEOUT_MS = 100;
const PREFIX = 'odg-test:';

const answer = (body: Buffer | string, headers: Record<string, string> = {}): CachedAnswer => ({
  body: Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'),
  etag: '"abc"',
  storedAt: 1_764_000_000_123,
  headers,
});

async function eventually(condition: () => Promise<boolean>, limitMs: number): Promise<void> {
  const until = performance.now() + limitMs;
  while (!(await condition())) {
    if (performance.now() > until) throw new Error(`not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work;
  return { value, ms: performance.now() - started };
}

describe(RedisCacheStore.name, () => {
  let redis: RedisServer;
  let shared: SharedRedis;
  let store: RedisCacheStore;

  beforeAll(async () => {
    redis = await startRedisServer();
    shared = new SharedRedis({ url: redis.url, timeoutMs: TIMEOUT_MS, keyPrefix: PREFIX }, createLogger('silent'));
    store = new RedisCacheStore(shared, 64 * 1024);
    await eventually(async () => shared.usable, 5000);
  });
  afterAll(async () => {
    await shared?.close();
    await redis?.stop();
  });

  it('gives back what was set, byte for byte, with its etag, time and headers', async () => {
    // Every byte value, not only valid UTF-8: the store must never re-encode a body.
    const body = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));
    await store.set('uid=7|fleet/vehicles|limit=2', answer(body, { Deprecation: 'true' }), 60_000);
    const got = await store.get('uid=7|fleet/vehicles|limit=2');
    expect(got?.body.equals(body)).toBe(true);
    expect(got).toEqual({ body, etag: '"abc"', storedAt: 1_764_000_000_123, headers: { Deprecation: 'true' } });
    expect(await store.get('uid=8|fleet/vehicles|limit=2')).toBeUndefined();
  });

  it('forgets an answer after keepMs', async () => {
    await store.set('short', answer('{"data":[]}'), 200);
    expect((await store.get('short'))?.body.toString()).toBe('{"data":[]}');
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await store.get('short')).toBeUndefined();
  });

  it('keeps keys short and opaque under its prefix, and does not keep bodies over its bound', async () => {
    await redis.client.flushall();
    await store.set('uid=7|purchase/orders|state=to approve', answer('x'.repeat(1000)), 60_000);
    await store.set('too big', answer('x'.repeat(64 * 1024 + 1)), 60_000);
    const keys = await redis.client.keys('*');
    expect(keys).toEqual([expect.stringMatching(/^odg-test:cache:[0-9a-f]{64}$/)]);
    expect(await store.get('too big')).toBeUndefined();
  });

  it('reads a value it cannot decode as a miss', async () => {
    await store.set('victim', answer('ok'), 60_000);
    // The store's key for 'victim', overwritten with a header length past the value's end.
    const key = `${PREFIX}cache:${createHash('sha256').update('victim').digest('hex')}`;
    expect(await redis.client.exists(key)).toBe(1);
    await redis.client.set(key, Buffer.from([0, 0, 0, 200, 1, 2]));
    expect(await store.get('victim')).toBeUndefined();
  });

  it('is a miss and a no-op while Redis is paused, each call within the bound, then works again', async () => {
    await store.set('before', answer('kept'), 60_000);
    redis.pause();
    try {
      const got = await timed(store.get('before'));
      expect(got.value).toBeUndefined();
      expect(got.ms).toBeLessThan(TIMEOUT_MS + 200);
      const set = await timed(store.set('during', answer('lost'), 60_000));
      expect(set.ms).toBeLessThan(TIMEOUT_MS + 200);
    } finally {
      redis.resume();
    }
    // After the cool-down Redis is asked again: what it held is there.
    await eventually(async () => (await store.get('before'))?.body.toString() === 'kept', 5000);
  });

  it('is a miss and a no-op while Redis is down, at once, and works again once it is back', async () => {
    await redis.kill();
    const got = await timed(store.get('before'));
    expect(got.value).toBeUndefined();
    expect(got.ms).toBeLessThan(TIMEOUT_MS + 200);
    await expect(store.set('during', answer('lost'), 60_000)).resolves.toBeUndefined();
    await redis.restart();
    await eventually(async () => {
      await store.set('after', answer('back'), 60_000);
      return (await store.get('after'))?.body.toString() === 'back';
    }, 8000);
  });
});
