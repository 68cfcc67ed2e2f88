/**
 * Failed authentications are limited per client address (decision D26): past AUTH_FAILURE_LIMIT
 * failures within the window, an address gets 429 `rate_limited` with Retry-After for any key the
 * gateway has not already validated, without the ERP being asked. Other addresses are unaffected,
 * and keys already validated from the blocked address keep working (they never reach the ERP's key
 * check). Addresses come from X-Forwarded-For only when TRUST_PROXY says so (a hop count or subnets:
 * the right-most untrusted entry). Concurrent bad keys never overshoot the limit, key checks are
 * capped for all addresses together, and refused keys never evict accepted ones from the cache.
 */
import request from 'supertest';
import { AuthFailureLimit } from '@ops-data-gateway/gateway/runtime/admission/auth-failure-limit';
import { GatewayError } from '@ops-data-gateway/gateway/runtime/errors';
import type { FaultProxy } from '../support/fault-proxy';
import { expectDocumented } from '../support/openapi-responses';
import { startStack, startStackBehindProxy, type Stack } from '../support/stack';
import { mintKey } from './support/sandbox-keys';

const LIMIT = 5;
const PATH = '/api/v1/fleet/vehicles?limit=1';
const ATTACKER = '203.0.113.7';
const NEIGHBOUR = '198.51.100.9';
/** A well-formed key nobody holds (40 hex characters), different each time. */
let wrongKeys = 0;
const wrongKey = () => (++wrongKeys).toString(16).padStart(40, 'f');

/** Begins a key check for `address` and settles it at once as a failure; rejects as `begin` does. */
const failOnce = async (limit: AuthFailureLimit, address: string) => (await limit.begin(address))(true);
/** What `begin` refused with (or undefined when it let the check go). */
const refusalOf = (attempt: Promise<unknown>) =>
  attempt.then(
    () => undefined,
    (error: unknown) => error,
  );

describe(AuthFailureLimit.name, () => {
  // The windows are rate-limiter-flexible's, timed by Date.now and setTimeout: jest's clock drives them.
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('allows the limit, then refuses with Retry-After until the window ends; addresses are independent', async () => {
    const limit = new AuthFailureLimit(3, 10_000);
    for (let i = 0; i < 3; i++) await failOnce(limit, 'a');
    const refusal = await refusalOf(limit.begin('a'));
    expect(refusal).toBeInstanceOf(GatewayError);
    expect([(refusal as GatewayError).status, (refusal as GatewayError).code, (refusal as GatewayError).headers]).toEqual([429, 'rate_limited', { 'Retry-After': '10' }]);
    jest.advanceTimersByTime(6_500);
    expect(await refusalOf(limit.begin('a'))).toEqual(expect.objectContaining({ headers: { 'Retry-After': '4' } }));
    expect(await refusalOf(limit.begin('b'))).toBeUndefined();
    jest.advanceTimersByTime(3_600);
    expect(await refusalOf(limit.begin('a'))).toBeUndefined();
  });

  it('counts checks still waiting for the ERP, so concurrent bad keys cannot overshoot the limit', async () => {
    const limit = new AuthFailureLimit(3, 10_000);
    const pending = await Promise.all([limit.begin('a'), limit.begin('a'), limit.begin('a')]);
    expect(await refusalOf(limit.begin('a'))).toEqual(expect.objectContaining({ code: 'rate_limited' }));
    // A check that turns out good frees its place; the failed ones stay counted.
    pending[0]?.(false);
    pending[1]?.(true);
    pending[2]?.(true);
    await Promise.resolve();
    expect(await refusalOf(failOnce(limit, 'a'))).toBeUndefined();
    expect(await refusalOf(limit.begin('a'))).toEqual(expect.objectContaining({ code: 'rate_limited' }));
  });

  it('caps key checks for all addresses together, whatever each address has left', async () => {
    const limit = new AuthFailureLimit(1000, 60_000, 4);
    for (let i = 0; i < 4; i++) (await limit.begin(`10.0.0.${i}`))(false);
    expect(await refusalOf(limit.begin('10.0.0.99'))).toEqual(expect.objectContaining({ code: 'rate_limited', headers: { 'Retry-After': '60' } }));
    jest.advanceTimersByTime(60_000);
    expect(await refusalOf(limit.begin('10.0.0.99'))).toBeUndefined();
  });
});

describe('failed authentications per client address behind one trusted proxy (TRUST_PROXY=1)', () => {
  let stack: Stack;
  let proxy: FaultProxy;
  beforeAll(async () => {
    ({ stack, proxy } = await startStackBehindProxy({
      transport: 'json2',
      env: { TRUST_PROXY: '1', AUTH_FAILURE_LIMIT: String(LIMIT), AUTH_FAILURE_WINDOW_MS: '60000' },
    }));
  });
  afterAll(async () => {
    await proxy.close();
    await stack.close();
  });

  // The proxy appends the address it saw: the client's own entries come before it and are not trusted.
  const from = (address: string, key: string, spoofed = '192.0.2.1') =>
    request(stack.url)
      .get(PATH)
      .set('X-Forwarded-For', `${spoofed}, ${address}`)
      .set('Authorization', `Bearer ${key}`)
      .then((res) => expectDocumented(PATH, res));

  it('429 rate_limited with Retry-After once an address has failed the limit, without asking the ERP', async () => {
    expect((await from(ATTACKER, stack.keys.valid)).status).toBe(200);
    for (let i = 0; i < LIMIT; i++) expect((await from(ATTACKER, wrongKey())).status).toBe(401);
    proxy.resetCounts();
    for (const key of [wrongKey(), wrongKey(), mintKey(stack.dbPath, { name: 'fresh, from the blocked address' })]) {
      const res = await from(ATTACKER, key);
      expect([res.status, res.body.error.code]).toEqual([429, 'rate_limited']);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    // Not one key check reached the ERP for them.
    expect(proxy.requests).toEqual([]);
  });

  it('takes the right-most address the proxy wrote: rotating the left-most entries does not evade the limit', async () => {
    proxy.resetCounts();
    for (let i = 0; i < 20; i++) expect((await from(ATTACKER, wrongKey(), `192.0.2.${i + 10}`)).status).toBe(429);
    expect(proxy.requests).toEqual([]);
  });

  it('keeps serving a key already validated from the blocked address', async () => {
    for (let i = 0; i < 3; i++) expect((await from(ATTACKER, stack.keys.valid)).status).toBe(200);
  });

  it('leaves other addresses alone: a valid key (never seen before) works, a wrong one is a plain 401', async () => {
    expect((await from(NEIGHBOUR, mintKey(stack.dbPath, { name: 'neighbour' }))).status).toBe(200);
    expect((await from(NEIGHBOUR, wrongKey())).status).toBe(401);
  });
});

describe('failed authentications without a trusted proxy', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ transport: 'json2', env: { AUTH_FAILURE_LIMIT: String(LIMIT) } });
  });
  afterAll(() => stack.close());

  it('ignores X-Forwarded-For: rotating it does not evade the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await request(stack.url)
        .get(PATH)
        .set('X-Forwarded-For', `192.0.2.${i + 1}`)
        .set('Authorization', `Bearer ${wrongKey()}`);
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429, 429]);
  });
});

describe('a flood of bad keys', () => {
  let stack: Stack;
  let proxy: FaultProxy;
  beforeAll(async () => {
    ({ stack, proxy } = await startStackBehindProxy({
      transport: 'json2',
      env: { AUTH_FAILURE_LIMIT: String(LIMIT), AUTH_CHECK_LIMIT: '1000', AUTH_CACHE_MAX_ENTRIES: '4' },
    }));
  });
  afterAll(async () => {
    await proxy.close();
    await stack.close();
  });

  // First: the flood below uses up this address's failures.
  it('64 concurrent requests with one new valid key from one address: one key check, every answer 200', async () => {
    proxy.resetCounts();
    const statuses = await Promise.all(Array.from({ length: 64 }, () => stack.get(PATH).then((res) => res.status)));
    expect(statuses).toEqual(Array(64).fill(200));
    expect(proxy.requests.filter((r) => r.includes('context_get'))).toHaveLength(1);
  });

  it('64 concurrent bad keys from one address send at most the limit of key checks to the ERP', async () => {
    proxy.resetCounts();
    const statuses = await Promise.all(Array.from({ length: 64 }, () => stack.get(PATH, wrongKey()).then((res) => res.status)));
    expect(statuses.filter((s) => s === 401).length).toBe(LIMIT);
    expect(statuses.filter((s) => s === 429).length).toBe(64 - LIMIT);
    expect(proxy.requests.filter((r) => r.includes('context_get')).length).toBeLessThanOrEqual(LIMIT);
  });
});

describe('refused keys and accepted keys in separate caches', () => {
  let stack: Stack;
  let proxy: FaultProxy;
  beforeAll(async () => {
    ({ stack, proxy } = await startStackBehindProxy({
      transport: 'json2',
      // A tiny cache of accepted keys: refused ones would evict the valid key at once if they shared it.
      env: { AUTH_FAILURE_LIMIT: '1000', AUTH_CACHE_MAX_ENTRIES: '2' },
    }));
  });
  afterAll(async () => {
    await proxy.close();
    await stack.close();
  });

  it('a junk-key flood does not make a valid key be checked at the ERP again', async () => {
    expect((await stack.get(PATH)).status).toBe(200);
    for (let i = 0; i < 30; i++) expect((await stack.get(PATH, wrongKey())).status).toBe(401);
    proxy.resetCounts();
    expect((await stack.get(PATH)).status).toBe(200);
    // Only the data call: no key check (context_get) and no group check (has_group).
    expect(proxy.requests.filter((r) => /context_get|has_group|has_access/.test(r))).toEqual([]);
  });
});

describe('the overall cap on key checks', () => {
  let stack: Stack;
  let proxy: FaultProxy;
  beforeAll(async () => {
    ({ stack, proxy } = await startStackBehindProxy({
      transport: 'json2',
      env: { TRUST_PROXY: '1', AUTH_FAILURE_LIMIT: '1000', AUTH_CHECK_LIMIT: '10' },
    }));
  });
  afterAll(async () => {
    await proxy.close();
    await stack.close();
  });

  it('holds whatever the addresses: 100 random keys from 100 addresses send at most 10 key checks to the ERP', async () => {
    expect((await stack.get(PATH)).status).toBe(200);
    proxy.resetCounts();
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await request(stack.url)
        .get(PATH)
        .set('X-Forwarded-For', `198.18.0.${i + 1}`)
        .set('Authorization', `Bearer ${wrongKey()}`);
      statuses.push(res.status);
    }
    expect(proxy.requests.filter((r) => r.includes('context_get')).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(90);
    // A key already accepted is still served.
    expect((await stack.get(PATH)).status).toBe(200);
  });
});
