/**
 * Per-key rate limits (decision D26), over real HTTP against the sandbox: off unless the operator
 * sets RATE_LIMIT_POINTS (no RateLimit fields then); when set, every data answer carries the IETF
 * draft's RateLimit-Policy and RateLimit fields, the key's points go down by its requests' costs, and
 * past the quota the answer is 429 `rate_limited` with Retry-After, without the ERP being asked. Keys
 * are limited one by one, even keys of the same ERP account; a 304 is charged its own (lower) cost.
 */
import { expectDocumented } from '../support/openapi-responses';
import { startStack, type Stack } from '../support/stack';
import { mintKey } from '../reliability/support/sandbox-keys';

const LIST = '/api/v1/fleet/vehicles?limit=2&total=false&fields=plate';
const COUNTED = '/api/v1/fleet/vehicles?limit=2&fields=plate';
const DETAIL = '/api/v1/fleet/vehicles/1?fields=plate';
const remaining = (header: unknown) => Number(/^"per-key";r=(\d+);t=(\d+)$/.exec(String(header))?.[1]);

describe('per-key rate limits off (RATE_LIMIT_POINTS unset)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ transport: 'json2' });
  });
  afterAll(async () => stack?.close());

  it('answers without RateLimit fields and never 429 for the key', async () => {
    for (let i = 0; i < 30; i++) {
      const res = expectDocumented(LIST, await stack.get(LIST));
      expect(res.status).toBe(200);
      expect([res.headers['ratelimit'], res.headers['ratelimit-policy']]).toEqual([undefined, undefined]);
    }
  });
});

describe('per-key rate limits on (RATE_LIMIT_POINTS=10 per 60 s, counted lists cost 3, a 304 costs 0)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      transport: 'json2',
      env: { RATE_LIMIT_POINTS: '10', RATE_LIMIT_WINDOW_SECONDS: '60', RATE_LIMIT_COSTS: 'counted_list=3,list=1,detail=1,not_modified=0' },
    });
  });
  afterAll(async () => stack?.close());

  it('charges each answer its cost, says so in RateLimit-Policy and RateLimit, then answers 429 without asking the ERP', async () => {
    const key = mintKey(stack.dbPath, { name: 'limited dashboard' });
    const seen: number[] = [];
    for (const path of [COUNTED, LIST, DETAIL, COUNTED]) {
      const res = expectDocumented(path, await stack.get(path, key));
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"per-key";q=10;w=60');
      const [, , seconds] = /^"per-key";r=(\d+);t=(\d+)$/.exec(String(res.headers['ratelimit'])) ?? [];
      expect(Number(seconds)).toBeGreaterThanOrEqual(1);
      expect(Number(seconds)).toBeLessThanOrEqual(60);
      seen.push(remaining(res.headers['ratelimit']));
    }
    expect(seen).toEqual([7, 6, 5, 2]);

    // A counted list no longer fits (3 > 2); the ERP is not asked for it.
    const calls = stack.erpCalls.length;
    const refused = expectDocumented(COUNTED, await stack.get(COUNTED, key));
    expect([refused.status, refused.body.error.code]).toEqual([429, 'rate_limited']);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.headers['ratelimit']).toMatch(/^"per-key";r=0;t=\d+$/);
    expect(stack.erpCalls.length).toBe(calls);
    // A refused request costs nothing: the two points left still buy two details.
    for (const left of [1, 0]) expect(remaining((await stack.get(DETAIL, key)).headers['ratelimit'])).toBe(left);
    expect((await stack.get(DETAIL, key)).status).toBe(429);
  });

  it('limits each key by itself, even two keys of the same ERP account', async () => {
    const first = mintKey(stack.dbPath, { name: 'first' });
    const second = mintKey(stack.dbPath, { name: 'second' });
    for (let i = 0; i < 10; i++) expect((await stack.get(LIST, first)).status).toBe(200);
    expect((await stack.get(LIST, first)).status).toBe(429);
    const other = await stack.get(LIST, second);
    expect([other.status, remaining(other.headers['ratelimit'])]).toEqual([200, 9]);
  });

  it('charges a 304 its own cost once answered (here nothing)', async () => {
    const key = mintKey(stack.dbPath, { name: 'revalidating' });
    const first = await stack.get(DETAIL, key);
    expect([first.status, remaining(first.headers['ratelimit'])]).toEqual([200, 9]);
    for (let i = 0; i < 5; i++) {
      const res = expectDocumented(DETAIL, await stack.get(DETAIL, key).set('If-None-Match', String(first.headers['etag'])));
      // Admitted at a detail's cost (the gateway cannot know before reading), then given back.
      expect([res.status, remaining(res.headers['ratelimit'])]).toEqual([304, 8]);
    }
  });
});

describe('per-key rate limits with the response cache (CACHE_DEFAULT_TTL_S=60, a cached answer costs 0)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      transport: 'json2',
      env: { RATE_LIMIT_POINTS: '10', RATE_LIMIT_WINDOW_SECONDS: '60', RATE_LIMIT_COSTS: 'detail=2,cached=0', CACHE_DEFAULT_TTL_S: '60' },
    });
  });
  afterAll(async () => stack?.close());

  it('charges an answer the cache gave its own cost once answered: the ERP read costs 2, every hit after it nothing', async () => {
    const key = mintKey(stack.dbPath, { name: 'cached dashboard' });
    const first = expectDocumented(DETAIL, await stack.get(DETAIL, key));
    expect([first.status, remaining(first.headers['ratelimit'])]).toEqual([200, 8]);
    const calls = stack.erpCalls.length;
    for (let i = 0; i < 5; i++) {
      const res = expectDocumented(DETAIL, await stack.get(DETAIL, key));
      // Admitted at a detail's cost (the gateway cannot know before looking), given back once the cache answered.
      expect([res.status, res.headers['age'] !== undefined, remaining(res.headers['ratelimit'])]).toEqual([200, true, 6]);
    }
    expect(stack.erpCalls.length - calls).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = await stack.get(DETAIL, key);
    expect(remaining(after.headers['ratelimit'])).toBe(6);
  });
});
