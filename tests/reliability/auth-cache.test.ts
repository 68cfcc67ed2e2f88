/**
 * The authentication cache: keyed by a SHA-256 of the key (never the key), bounded in entries and in
 * time (AUTH_CACHE_MAX_ENTRIES, AUTH_CACHE_TTL_MS); and a key the ERP stops accepting (expired, or
 * revoked) stops working at once, well within the cache's lifetime, because every data call still
 * carries the key to the ERP. The sandbox's clock is moved to expire a key; a fault proxy in
 * forward mode shows which key checks (`context_get` over JSON-2) reach the ERP.
 */
import { Authenticator } from '@ops-data-gateway/gateway/runtime/admission/auth';
import { loadConfig } from '@ops-data-gateway/gateway/runtime/config';
import { ErpClient, ErpStats } from '@ops-data-gateway/gateway/runtime/erp/erp-client';
import { TtlCache } from '@ops-data-gateway/gateway/runtime/ttl-cache';
import type { FaultProxy } from '../support/fault-proxy';
import { startStackBehindProxy, type Stack } from '../support/stack';
import { mintKey, revokeKey } from './support/sandbox-keys';

/** Long enough that two calls in a row fall inside it on a loaded machine. */
const TTL_MS = 3000;
const PATH = '/api/v1/fleet/vehicles?limit=1';

describe(TtlCache.name, () => {
  it('forgets an entry once its time is up', () => {
    let now = 0;
    const cache = new TtlCache<string, number>(10, () => now);
    cache.set('a', 1, 100);
    now = 99;
    expect(cache.get('a')).toBe(1);
    now = 100;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('holds at most its bound, dropping the oldest entry first', () => {
    const cache = new TtlCache<string, number>(3, () => 0);
    for (const [i, key] of ['a', 'b', 'c', 'd', 'e'].entries()) cache.set(key, i, 1000);
    expect(cache.size).toBe(3);
    expect(['a', 'b', 'c', 'd', 'e'].map((key) => cache.get(key))).toEqual([undefined, undefined, 2, 3, 4]);
    // Setting a key again makes it the newest.
    cache.set('c', 9, 1000);
    cache.set('f', 5, 1000);
    expect(['c', 'd', 'e', 'f'].map((key) => cache.get(key))).toEqual([9, undefined, 4, 5]);
    cache.delete('c');
    expect([cache.get('c'), cache.size]).toEqual([undefined, 2]);
  });
});

describe('the authentication cache against the sandbox ERP', () => {
  let stack: Stack;
  let proxy: FaultProxy;
  let clock = new Date();

  beforeAll(async () => {
    ({ stack, proxy } = await startStackBehindProxy({
      transport: 'json2',
      now: () => clock,
      env: { AUTH_CACHE_TTL_MS: String(TTL_MS), AUTH_CACHE_MAX_ENTRIES: '2' },
    }));
  });
  afterAll(async () => {
    await proxy.close();
    await stack.close();
  });

  /** Status of a request with `key`, and whether the ERP was asked to check the key. */
  const call = async (key: string) => {
    proxy.resetCounts();
    const res = await stack.get(PATH, key);
    return { status: res.status, checked: proxy.requests.some((r) => r.includes('/context_get')) };
  };

  it('keys the cache by a SHA-256 of the key, never the key itself', async () => {
    const config = loadConfig({ ERP_URL: stack.sandbox.url, ERP_DATABASE: stack.sandbox.database, ERP_TRANSPORT: 'json2' });
    const auth = new Authenticator(new ErpClient(config.erp), config.erp.apiGroup, config.auth);
    await auth.authenticate(`Bearer ${stack.keys.valid}`, new ErpStats());
    // White box: the verdicts' TtlCache and its map.
    const entries = (auth as unknown as { verdicts: { entries: Map<string, unknown> } }).verdicts.entries;
    expect([...entries.keys()]).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
    expect([...entries.keys()][0]).not.toContain(stack.keys.valid);
  });

  it(`asks the ERP again once an entry is ${TTL_MS} ms old`, async () => {
    const key = mintKey(stack.dbPath, { name: 'ttl' });
    expect(await call(key)).toEqual({ status: 200, checked: true });
    expect(await call(key)).toEqual({ status: 200, checked: false });
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 100));
    expect(await call(key)).toEqual({ status: 200, checked: true });
  });

  it('holds at most AUTH_CACHE_MAX_ENTRIES keys (2): a third pushes the oldest out', async () => {
    const [k1, k2, k3] = [1, 2, 3].map((i) => mintKey(stack.dbPath, { name: `bound ${i}` })) as [string, string, string];
    for (const key of [k1, k2, k3]) expect(await call(key)).toEqual({ status: 200, checked: true });
    expect(await call(k3)).toEqual({ status: 200, checked: false });
    expect(await call(k1)).toEqual({ status: 200, checked: true });
  });

  it('stops serving a key the moment it expires, though its check is still cached', async () => {
    const key = mintKey(stack.dbPath, { name: 'expires soon', expiresAt: new Date(clock.getTime() + 3600_000), now: () => clock });
    expect(await call(key)).toEqual({ status: 200, checked: true });
    expect(await call(key)).toEqual({ status: 200, checked: false });
    clock = new Date(clock.getTime() + 2 * 3600_000);
    const started = performance.now();
    const res = await stack.get(PATH, key);
    expect([res.status, res.body.error.code]).toEqual([401, 'unauthorized']);
    expect(performance.now() - started).toBeLessThan(TTL_MS);
    expect((await call(key)).status).toBe(401);
  });

  it('stops serving a key the moment it is revoked, though its check is still cached', async () => {
    const key = mintKey(stack.dbPath, { name: 'revoked soon' });
    expect(await call(key)).toEqual({ status: 200, checked: true });
    expect(await call(key)).toEqual({ status: 200, checked: false });
    revokeKey(stack.dbPath, key);
    const res = await stack.get(PATH, key);
    expect([res.status, res.body.error.code]).toEqual([401, 'unauthorized']);
    expect((await call(key)).status).toBe(401);
  });
});
