/**
 * Protecting the ERP: at most ERP_MAX_CONCURRENCY calls reach it at once, at most ERP_MAX_QUEUE wait
 * for a slot, and the excess is refused at once with 503 `unavailable` and Retry-After rather than
 * piled onto the ERP. A fault proxy slows the ERP down and counts the calls it has in flight.
 */
import type { FaultProxy } from '../support/fault-proxy';
import { expectDocumented } from '../support/openapi-responses';
import { startStackBehindProxy, type Stack } from '../support/stack';

const CONCURRENCY = 4;
const QUEUE = 6;
/** Long enough that a whole burst reaches the gateway before the first ERP call ends, even on a busy machine. */
const DELAY_MS = 1000;

describe('ERP concurrency bound (ERP_MAX_CONCURRENCY, ERP_MAX_QUEUE)', () => {
  let stack: Stack;
  let proxy: FaultProxy;

  beforeAll(async () => {
    ({ stack, proxy } = await startStackBehindProxy({
      transport: 'json2',
      env: { ERP_MAX_CONCURRENCY: String(CONCURRENCY), ERP_MAX_QUEUE: String(QUEUE), ERP_TIMEOUT_MS: '5000' },
    }));
    // Key check, group and read right are cached from here on: each page below is one ERP call.
    expect((await stack.get('/api/v1/fleet/vehicles?limit=1&total=false&fields=plate')).status).toBe(200);
    expect((await stack.get('/api/v1/purchase/orders?limit=1')).status).toBe(200);
  });
  afterAll(async () => {
    await stack.close();
    await proxy.close();
  });
  beforeEach(() => {
    proxy.mode = { kind: 'delay', ms: DELAY_MS };
    proxy.resetCounts();
  });

  const burst = (paths: readonly string[]) =>
    Promise.all(
      paths.map(async (path) => {
        const started = performance.now();
        const res = await stack.get(path);
        return { res: expectDocumented(path, res), ms: performance.now() - started };
      }),
    );

  it(`serves ${CONCURRENCY} + ${QUEUE} one-call requests of a burst of 20 and refuses the rest at once with 503 and Retry-After`, async () => {
    // Twenty different reads: identical ones in flight would be sent once (erp-coalescing.test.ts).
    const answers = await burst(Array.from({ length: 20 }, (_, i) => `/api/v1/fleet/vehicles?limit=1&offset=${i}&total=false&fields=plate`));
    const served = answers.filter((a) => a.res.status === 200);
    const refused = answers.filter((a) => a.res.status === 503);
    expect([served.length, refused.length]).toEqual([CONCURRENCY + QUEUE, 20 - CONCURRENCY - QUEUE]);
    for (const { res, ms } of refused) {
      expect(res.body).toEqual({ error: { code: 'unavailable', message: expect.any(String) } });
      expect(res.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
      // Refused before any ERP call ends: the client is not kept waiting for a slot it will not get.
      expect(ms).toBeLessThan(DELAY_MS);
    }
    expect(proxy.seen).toBe(CONCURRENCY + QUEUE);
    expect(proxy.maxInFlight).toBe(CONCURRENCY);
  });

  it('never has more than the bound in flight at the ERP under a burst of multi-call requests; each answer is 200, 503 or 504', async () => {
    proxy.mode = { kind: 'delay', ms: 300 };
    const paths = Array.from({ length: 30 }, (_, i) => (i % 2 ? `/api/v1/purchase/orders?limit=2&offset=${i}` : `/api/v1/fleet/vehicles?limit=3&offset=${i}`));
    const answers = await burst(paths);
    const statuses = new Set(answers.map((a) => a.res.status));
    // 504: a request whose later calls waited for a slot past the request deadline.
    expect([...statuses].every((s) => s === 200 || s === 503 || s === 504)).toBe(true);
    expect(statuses.has(200)).toBe(true);
    expect(proxy.maxInFlight).toBeLessThanOrEqual(CONCURRENCY);
  });

  it('serves everything again once the burst is over', async () => {
    // Over for the ERP too: the calls of requests the deadline already answered run to their end.
    for (let quiet = 0; quiet < 5; quiet = proxy.inFlight > 0 ? 0 : quiet + 1) await new Promise((resolve) => setTimeout(resolve, 50));
    proxy.mode = { kind: 'forward' };
    const answers = await burst(Array.from({ length: CONCURRENCY + QUEUE }, () => '/api/v1/fleet/vehicles?limit=2&total=false'));
    expect(answers.map((a) => a.res.status)).toEqual(Array(CONCURRENCY + QUEUE).fill(200));
  });
});
