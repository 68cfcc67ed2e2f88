/**
 * Graceful shutdown of the real process (`node packages/gateway/dist/runtime/main.js`): on SIGTERM it stops accepting
 * connections at once, closes idle kept-alive ones, lets the request in flight finish with its 200,
 * and exits 0. The request is kept in flight by a fault proxy delaying the ERP's answer. The same
 * process also shows that main.ts answers unreadable requests in the error envelope.
 */
import { Agent } from 'node:http';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { startStack, type Stack } from '../support/stack';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process';
import { rawExchange } from './support/raw-exchange';
import { get, tryConnect, waitFor } from './support/raw-http';

const DELAY_MS = 1500;

describe('graceful shutdown of packages/gateway/dist/runtime/main.js on SIGTERM', () => {
  let stack: Stack;
  let proxy: FaultProxy;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    stack = await startStack({ transport: 'json2' });
    proxy = await startFaultProxy(stack.sandbox.url);
    gateway = await startGatewayProcess({
      ERP_URL: proxy.url,
      ERP_DATABASE: stack.sandbox.database,
      ERP_TRANSPORT: 'json2',
      ERP_TIMEOUT_MS: '5000',
    });
  });
  afterAll(async () => {
    gateway?.kill('SIGKILL');
    await proxy?.close();
    await stack?.close();
  });

  it('answers an unreadable request in the error envelope (main.ts hardens its server)', async () => {
    const answer = await rawExchange(gateway.url, 'GET /api/v1/fleet/vehicles?a=b c HTTP/1.1\r\nHost: x\r\n\r\n');
    expect([answer.status, JSON.parse(answer.body).error.code, answer.headers['x-content-type-options']]).toEqual([400, 'bad_request', 'nosniff']);
  });

  it('refuses new connections, closes idle ones, finishes the request in flight with 200, exits 0', async () => {
    const detail = `${gateway.url}/api/v1/fleet/vehicles/1?fields=plate`;
    expect((await get(detail, stack.keys.valid)).status).toBe(200);
    // An idle kept-alive connection, opened before the signal.
    const keptAlive = new Agent({ keepAlive: true });
    const idle = await get(`${gateway.url}/healthz`, stack.keys.valid, keptAlive);
    expect(idle.status).toBe(200);
    const [idleSocket] = Object.values(keptAlive.freeSockets).flat();
    expect(idleSocket).toBeDefined();
    const idleClosed = new Promise<void>((resolve) => idleSocket?.once('close', () => resolve()));

    proxy.mode = { kind: 'delay', ms: DELAY_MS };
    const started = performance.now();
    const inFlight = get(detail, stack.keys.valid);
    await waitFor(() => proxy.inFlight > 0, 3000);
    gateway.kill('SIGTERM');

    // The signal is handled asynchronously: connections are refused from then on.
    await waitFor(async () => (await tryConnect(gateway.url)) === 'ECONNREFUSED', 1000);
    expect(await tryConnect(gateway.url)).toBe('ECONNREFUSED');
    await idleClosed;

    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).data.id).toBe(1);
    // Its connection ends with it rather than idling until the keep-alive timeout.
    expect(answer.connection).toBe('close');
    expect(performance.now() - started).toBeGreaterThanOrEqual(DELAY_MS - 50);

    const exit = await gateway.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(performance.now() - started).toBeLessThan(DELAY_MS + 3000);
    // The log is flushed at exit: the shutdown was announced, and did not end on the deadline.
    expect(gateway.stdout.some((line) => line.includes('shutting down'))).toBe(true);
    expect(gateway.stdout.some((line) => line.includes('shutdown deadline reached'))).toBe(false);
    keptAlive.destroy();
  });
});
