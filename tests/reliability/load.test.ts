/**
 * A bounded load run against the gateway as it runs in production (`node packages/gateway/dist/runtime/main.js`, its
 * own process, so the memory measured is its own) on a sandbox ERP: 50,000 requests over 64
 * kept-alive loopback connections, mixing list, detail, cursor and error routes. No answer may be
 * other than the one its route gives when idle, and the gateway must not leak: its live JavaScript
 * heap after a full collection (read through its inspector) does not grow between the end of the
 * first 20,000 answers and the end of the run, and its resident memory stays under a bound. The run
 * stops by itself (request count) and is capped in time.
 */
import autocannon from 'autocannon';
import { GATEWAY_LOGIN } from '@ops-data-gateway/sandbox/seed/security';
import { startStack, type Stack } from '../support/stack';
import { rssMb, startGatewayProcess, type GatewayProcess } from './support/gateway-process';
import { inspectorUrl, liveHeapBytes } from './support/heap-inspector';

const REQUESTS = Number(process.env['LOAD_REQUESTS'] ?? 50000);
const CONNECTIONS = 64;
/** Upper bound of the run: past it the run is stopped and the test fails. */
const CAP_SECONDS = 180;
const WINDOW = Math.min(10000, Math.floor(REQUESTS / 5));
/**
 * Where the baseline is taken: after two windows, once the caches that fill with use (the key
 * check, the parsers, the mappers, V8's compiled code) hold what this mix puts in them.
 */
const SETTLED = 2 * WINDOW;
/**
 * Growth of the live heap allowed over the last 30,000 answers. A leak of one small object per
 * request (a 100-byte string, a closure) would hold 3 MB or more by then; after a full collection
 * the heap of a gateway that does not leak comes back within a few hundred kilobytes, whatever the
 * machine's load (RSS does not: in a run on a loaded machine it grew 13 MB from 20,000 to 50,000
 * answers with no leak, as more answers were in flight at once when it was read).
 */
const HEAP_ALLOWANCE_BYTES = 2 * 1048576;
/**
 * V8 sizes its heap to the allocation rate, not to what is live: with default flags the gateway's RSS
 * climbs by about 110 MB under this load and levels off near 28,000 requests, leak or not. With the
 * heap bounded, as a container would bound it, RSS follows the live set (about 150 MB here at the
 * peak); the bound says it stays there (and a real leak ends in an out-of-memory crash, which fails
 * the run too).
 */
const HEAP_BOUNDS = '--max-semi-space-size=4 --max-old-space-size=128';
const RSS_BOUND_MB = 200;

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

describe(`load: ${REQUESTS} requests over ${CONNECTIONS} connections`, () => {
  let stack: Stack;
  let gateway: GatewayProcess;
  let inspector: string;

  beforeAll(async () => {
    // JSON-RPC: the sandbox re-hashes a JSON-2 bearer key (pbkdf2) on every call, as Odoo does, which
    // would make the sandbox, not the gateway, the bottleneck; over RPC it caches the check.
    stack = await startStack({ transport: 'jsonrpc' });
    gateway = await startGatewayProcess({
      ERP_URL: stack.sandbox.url,
      ERP_DATABASE: stack.sandbox.database,
      ERP_TRANSPORT: 'jsonrpc',
      ERP_LOGIN: GATEWAY_LOGIN,
      // One line per request at info would be 50,000 lines on a pipe: the log level is not what is measured.
      LOG_LEVEL: 'warn',
      NODE_OPTIONS: `${HEAP_BOUNDS} --inspect=127.0.0.1:0`,
    });
    inspector = inspectorUrl(gateway.stderr);
  });
  afterAll(async () => {
    gateway?.kill('SIGKILL');
    await gateway?.exited;
    await stack?.close();
  });

  it(
    'answers every request as its route does when idle, and the gateway does not grow',
    async () => {
      const auth = { Authorization: `Bearer ${stack.keys.valid}` };
      const templates = [
        { path: '/api/v1/space/sites?limit=5', status: 200 },
        { path: '/api/v1/purchase/orders/3?fields=reference,vendor,amount_total,state', status: 200 },
        { path: '/api/v1/fleet/locations?since_id=0&limit=5&total=false', status: 200 },
        { path: '/api/v1/fleet/vehicles?colour=red', status: 400 },
        { path: '/api/v1/purchase/orders/999999?fields=reference', status: 404 },
      ];
      for (const t of templates) expect([t.path, (await stack.get(t.path)).status]).toEqual([t.path, t.status]);
      // The gateway itself, as the load will see it.
      for (const t of templates) expect([t.path, (await fetch(gateway.url + t.path, { headers: auth })).status]).toEqual([t.path, t.status]);

      const unexpected: string[] = [];
      const rss: { at: number; mb: number }[] = [];
      const statuses: Record<string, number> = {};
      let answered = 0;
      let errors = 0;
      const latencies: { p50: number; p99: number }[] = [];
      const sample = () => rss.push({ at: answered, mb: rssMb(gateway.pid) });
      const deadline = performance.now() + CAP_SECONDS * 1000;
      /** One autocannon run of `amount` requests, stopped at the cap. */
      const load = (amount: number) =>
        new Promise<autocannon.Result>((resolve, reject) => {
          const instance = autocannon(
            {
              url: gateway.url,
              connections: CONNECTIONS,
              amount,
              timeout: 10,
              requests: templates.map((t) => ({
                method: 'GET' as const,
                path: t.path,
                headers: auth,
                onResponse: (status: number) => {
                  if (status !== t.status && unexpected.length < 20) unexpected.push(`${t.path} -> ${status}`);
                },
              })),
            },
            (error, results) => {
              clearTimeout(cap);
              if (error) return reject(error);
              for (const [code, { count }] of Object.entries(results.statusCodeStats ?? {})) statuses[code] = (statuses[code] ?? 0) + Number(count);
              errors += results.errors + results.timeouts;
              latencies.push({ p50: results.latency.p50, p99: results.latency.p99 });
              resolve(results);
            },
          );
          instance.on('response', () => {
            answered++;
            if (answered % 500 === 0) sample();
          });
          const cap = setTimeout(() => instance.stop(), Math.max(0, deadline - performance.now()));
        });

      sample();
      const started = performance.now();
      await load(SETTLED);
      const settledHeap = await liveHeapBytes(inspector);
      await load(REQUESTS - SETTLED);
      const finalHeap = await liveHeapBytes(inspector);
      sample();
      const seconds = (performance.now() - started) / 1000;

      const around = (at: number) => median(rss.filter((s) => s.at > at - 2500 && s.at <= at).map((s) => s.mb));
      const peak = Math.max(...rss.map((s) => s.mb));
      const mb = (bytes: number) => (bytes / 1048576).toFixed(2);
      process.stdout.write(
        `load: ${answered} answers in ${seconds.toFixed(1)} s (${Math.round(answered / seconds)} req/s), p50 ${latencies.map((l) => l.p50).join('/')} ms, p99 ${latencies.map((l) => l.p99).join('/')} ms, ` +
          `statuses ${JSON.stringify(statuses)}, live heap after a full collection ${mb(settledHeap)} MB after the first ${SETTLED}, ${mb(finalHeap)} MB after the last; ` +
          `RSS peak ${peak.toFixed(1)} MB (every ${WINDOW}: ${Array.from({ length: Math.floor(REQUESTS / WINDOW) }, (_, i) => around((i + 1) * WINDOW).toFixed(1)).join(', ')})\n`,
      );

      expect(seconds).toBeLessThan(CAP_SECONDS);
      expect(answered).toBe(REQUESTS);
      expect(errors).toBe(0);
      expect(unexpected).toEqual([]);
      expect(Object.keys(statuses).sort()).toEqual(['200', '400', '404']);
      expect(finalHeap - settledHeap).toBeLessThan(HEAP_ALLOWANCE_BYTES);
      expect(peak).toBeLessThan(RSS_BOUND_MB);
    },
    (CAP_SECONDS + 60) * 1000,
  );
});
