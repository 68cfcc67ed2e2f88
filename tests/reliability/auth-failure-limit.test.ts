/**
 * Failed authentications are limited per client address (decision D26): past AUTH_FAILURE_LIMIT
 * failures within the window, an address gets 429 `rate_limited` with Retry-After for any key the
 * gateway has not already validated, without the ERP being asked. Other addresses are unaffected,
 * and keys already validated from the blocked address keep working (they never reach the ERP's key
 * check). Addresses come from X-Forwarded-For only when TRUST_PROXY says so.
 */
import request from 'supertest';
import { AuthFailureLimit } from '../../runtime/http/auth-failure-limit';
import { GatewayError } from '../../runtime/errors';
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

describe(AuthFailureLimit.name, () => {
  it('allows the limit, then refuses with Retry-After until the window ends; addresses are independent', () => {
    let now = 1_000_000;
    const limit = new AuthFailureLimit(3, 10_000, () => now);
    for (let i = 0; i < 3; i++) {
      expect(() => limit.check('a')).not.toThrow();
      limit.recordFailure('a');
    }
    let refusal: unknown;
    try {
      limit.check('a');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(GatewayError);
    expect([(refusal as GatewayError).status, (refusal as GatewayError).code, (refusal as GatewayError).headers]).toEqual([429, 'rate_limited', { 'Retry-After': '10' }]);
    now += 6_500;
    expect(() => limit.check('a')).toThrow(expect.objectContaining({ headers: { 'Retry-After': '4' } }));
    expect(() => limit.check('b')).not.toThrow();
    now += 3_600;
    expect(() => limit.check('a')).not.toThrow();
  });
});

describe('failed authentications per client address (TRUST_PROXY=true)', () => {
  let stack: Stack;
  let proxy: FaultProxy;
  beforeAll(async () => {
    ({ stack, proxy } = await startStackBehindProxy({
      transport: 'json2',
      env: { TRUST_PROXY: 'true', AUTH_FAILURE_LIMIT: String(LIMIT), AUTH_FAILURE_WINDOW_MS: '60000' },
    }));
  });
  afterAll(async () => {
    await proxy.close();
    await stack.close();
  });

  const from = (address: string, key: string) =>
    request(stack.url).get(PATH).set('X-Forwarded-For', address).set('Authorization', `Bearer ${key}`).then((res) => expectDocumented(PATH, res));

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
      const res = await request(stack.url).get(PATH).set('X-Forwarded-For', `192.0.2.${i + 1}`).set('Authorization', `Bearer ${wrongKey()}`);
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429, 429]);
  });
});
