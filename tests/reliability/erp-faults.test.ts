/**
 * ERP faults (decisions D22, D23, D29), through a fault-injecting proxy between the gateway and the
 * sandbox, over each transport: what the client sees when the ERP refuses connections, hangs, is
 * slow, cuts its answer or answers something that is not its protocol; that nothing hangs past the
 * timeout; that the gateway recovers by itself; and what /healthz and /readyz say meanwhile.
 */
import request from 'supertest';
import type { FaultMode, FaultProxy } from '../support/fault-proxy';
import { expectDocumented } from '../support/openapi-responses';
import { startStackBehindProxy, type Stack, type TransportUnderTest } from '../support/stack';

const TIMEOUT_MS = 1500;
/** How much later than the timeout a 504 may arrive (timer granularity, a loaded CI machine). */
const LATE_MS = 600;
const LIST = '/api/v1/fleet/vehicles?limit=3';

const TRANSPORTS: readonly (readonly [string, TransportUnderTest])[] = [
  ['JSON-2', 'json2'],
  ['XML-RPC', 'xmlrpc'],
  ['JSON-RPC', 'jsonrpc'],
];

describe.each(TRANSPORTS)('ERP faults over %s', (_name, transport) => {
  let stack: Stack;
  let proxy: FaultProxy;
  /** Every data request of the suite with its duration: none may outlast the timeout. */
  const durations: { path: string; mode: string; status: number; ms: number }[] = [];

  beforeAll(async () => {
    ({ stack, proxy } = await startStackBehindProxy({
      transport,
      env: { ERP_TIMEOUT_MS: String(TIMEOUT_MS) },
    }));
  });
  afterAll(async () => {
    await stack.close();
    await proxy.close();
  });
  afterEach(() => {
    proxy.mode = { kind: 'forward' };
  });

  const timedGet = async (path: string) => {
    const started = performance.now();
    const res = await stack.get(path);
    const ms = performance.now() - started;
    durations.push({ path, mode: proxy.mode.kind, status: res.status, ms });
    return { res: expectDocumented(path, res), ms };
  };
  const expectError = (res: request.Response, status: number, code: string) => {
    expect([res.status, res.body]).toEqual([status, { error: { code, message: expect.any(String) } }]);
    // The ERP's own words stay in the log (D22).
    expect(res.body.error.message).not.toMatch(/ECONN|socket|xml|json|parse|odoo|traceback/i);
  };

  it('answers 502 while the ERP is down from the start, 200 once it is back, without a restart', async () => {
    await proxy.stopListening();
    const down = await timedGet(LIST);
    expectError(down.res, 502, 'bad_gateway');
    expect(down.ms).toBeLessThan(1000);
    await proxy.listenAgain();
    // The first answer after the ERP is back is the first the gateway ever gets from it (version,
    // login, rights, then the read), each bounded by the 1.5 s timeout: on a loaded machine one may
    // run out (504). Ask again a few times; anything but 200 or that 504 is a failure.
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4 && statuses.at(-1) !== 200; attempt++) {
      const back = await timedGet(LIST);
      if (back.res.status !== 200) expectError(back.res, 504, 'gateway_timeout');
      statuses.push(back.res.status);
    }
    expect(statuses.at(-1)).toBe(200);
  });

  it.each([
    ['the ERP stops listening (connection refused)', 'stopped'],
    ['the ERP resets every connection', 'refuse'],
  ])('502 bad_gateway within 1 s when %s, then 200 when it is back', async (_case, how) => {
    expect((await timedGet(LIST)).res.status).toBe(200);
    if (how === 'stopped') await proxy.stopListening();
    else proxy.mode = { kind: 'refuse' };
    for (const path of [LIST, '/api/v1/fleet/vehicles/1', '/api/v1/purchase/orders?limit=1']) {
      const { res, ms } = await timedGet(path);
      expectError(res, 502, 'bad_gateway');
      expect(ms).toBeLessThan(1000);
    }
    if (how === 'stopped') await proxy.listenAgain();
    else proxy.mode = { kind: 'forward' };
    expect((await timedGet(LIST)).res.status).toBe(200);
    expect((await timedGet('/api/v1/purchase/orders?limit=1')).res.status).toBe(200);
  });

  it(`504 gateway_timeout at the configured timeout (${TIMEOUT_MS} ms) when the ERP hangs, then 200`, async () => {
    proxy.mode = { kind: 'hang' };
    for (const path of [LIST, '/api/v1/fleet/vehicles/1']) {
      const { res, ms } = await timedGet(path);
      expectError(res, 504, 'gateway_timeout');
      expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(ms).toBeLessThan(TIMEOUT_MS + LATE_MS);
    }
    proxy.mode = { kind: 'forward' };
    expect((await timedGet(LIST)).res.status).toBe(200);
  });

  it('200 when the ERP is slow but within the timeout', async () => {
    proxy.mode = { kind: 'delay', ms: 300 };
    const { res, ms } = await timedGet('/api/v1/fleet/vehicles?limit=2&fields=plate,model');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    expect(ms).toBeGreaterThanOrEqual(300);
  });

  it('504 at the timeout, not a multiple of it, when every ERP call is slow but each within the timeout', async () => {
    // A full list of order lines makes two rounds of calls (page and count, then the related orders): 2 x 1000 ms.
    expect((await timedGet('/api/v1/purchase/order-lines?limit=5')).res.status).toBe(200);
    proxy.mode = { kind: 'delay', ms: 1000 };
    const { res, ms } = await timedGet('/api/v1/purchase/order-lines?limit=5');
    expectError(res, 504, 'gateway_timeout');
    expect(ms).toBeLessThan(TIMEOUT_MS + LATE_MS);
    // The handler's late answer is dropped quietly: the next request on a fresh ERP is served.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    proxy.mode = { kind: 'forward' };
    expect((await timedGet(LIST)).res.status).toBe(200);
    expect(stack.logLines.some((line) => line.includes('unexpected error'))).toBe(false);
  });

  it('replaces a kept-alive connection the ERP side closed, instead of failing the request', async () => {
    proxy.mode = { kind: 'close-reused' };
    for (let i = 0; i < 5; i++) expect((await timedGet(i % 2 ? LIST : '/api/v1/purchase/orders?limit=2')).res.status).toBe(200);
    // Connections were reused, and closed under the gateway.
    expect(proxy.seen).toBeGreaterThan(10);
  });

  const broken: readonly (readonly [string, FaultMode])[] = [
    ['an answer cut in half', { kind: 'cut' }],
    ['an HTML page', { kind: 'html' }],
    [transport === 'xmlrpc' ? 'malformed XML' : 'malformed JSON', { kind: 'garbage' }],
  ];
  it.each(broken)('502 bad_gateway for %s, then 200', async (_case, mode) => {
    proxy.mode = mode;
    for (const path of [LIST, '/api/v1/fleet/vehicles/1']) {
      const { res, ms } = await timedGet(path);
      expectError(res, 502, 'bad_gateway');
      expect(ms).toBeLessThan(TIMEOUT_MS);
    }
    proxy.mode = { kind: 'forward' };
    expect((await timedGet(LIST)).res.status).toBe(200);
  });

  it('logs the ERP failure server-side (the reason, not the key)', () => {
    const failures = stack.logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['erp_error']);
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.every((line) => line['level'] === 'error' && typeof line['erp_error'] === 'string')).toBe(true);
    expect(stack.logLines.join('\n')).not.toContain(stack.keys.valid);
  });

  it('/healthz 200 and /readyz 503 while the ERP is down; /readyz 200 when it is back (D29), without credentials', async () => {
    const health = () => request(stack.url).get('/healthz');
    const ready = () => request(stack.url).get('/readyz');
    expect((await ready()).status).toBe(200);
    await proxy.stopListening();
    expect((await health()).status).toBe(200);
    const down = await ready();
    expect([down.status, down.body.error?.code]).toEqual([503, 'unavailable']);
    proxy.mode = { kind: 'forward' };
    await proxy.listenAgain();
    proxy.mode = { kind: 'hang' };
    const started = performance.now();
    const hung = await ready();
    expect([hung.status, hung.body.error?.code]).toEqual([503, 'unavailable']);
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + LATE_MS);
    proxy.mode = { kind: 'forward' };
    const up = await ready();
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ status: 'ready', erp: { version: expect.any(String), transport } });
    expect(JSON.stringify([up.body, down.body, hung.body])).not.toContain(stack.keys.valid);
    expect((await health()).body).toEqual({ status: 'ok' });
  });

  it('kept every data request within the timeout', () => {
    expect(durations.length).toBeGreaterThan(15);
    const late = durations.filter((d) => d.ms >= TIMEOUT_MS + LATE_MS);
    expect(late).toEqual([]);
    const slowest = new Map<number, number>();
    for (const { status, ms } of durations) slowest.set(status, Math.max(slowest.get(status) ?? 0, ms));
    const summary = [...slowest].sort(([a], [b]) => a - b).map(([status, ms]) => `${status} in ${Math.round(ms)} ms`);
    process.stdout.write(`ERP faults over ${transport}: ${durations.length} requests, slowest ${summary.join(', ')} (timeout ${TIMEOUT_MS} ms)\n`);
  });
});
