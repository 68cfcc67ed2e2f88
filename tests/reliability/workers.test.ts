/**
 * WORKERS=3 on the real process (`node packages/gateway/dist/runtime/main.js`): three workers share the port and each
 * answers requests; a worker killed is started again and the gateway keeps answering, and no counter
 * of the primary's /metrics goes down across the death (a scrape before, one after); on SIGTERM
 * every worker stops accepting and finishes its requests in flight (200 each), and the gateway exits 0.
 * Requests are held in flight by a fault proxy delaying the ERP's answers.
 */
import { Agent } from 'node:http';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { startStack, type Stack } from '../support/stack';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process';
import { freePort } from '../support/free-port';
import { get, tryConnect, waitFor } from './support/raw-http';

const WORKERS = 3;
/** Long enough that every request of the SIGTERM case is in flight at once, even on a loaded machine. */
const DELAY_MS = 3000;
const PATH = '/api/v1/fleet/vehicles/1?fields=plate';
/** A connection of its own for one request, so that the primary hands it to the next worker. */
const ownConnection = () => new Agent({ keepAlive: false });

/** The JSON log lines of the gateway (the primary's and every worker's). */
const logOf = (gateway: GatewayProcess) => gateway.stdout.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
const listeningPids = (gateway: GatewayProcess) =>
  logOf(gateway)
    .filter((line) => line['msg'] === 'gateway listening')
    .map((line) => Number(line['pid']));

describe(`WORKERS=${WORKERS}: several gateway processes sharing the port`, () => {
  let stack: Stack;
  let proxy: FaultProxy;
  let gateway: GatewayProcess;
  let metricsUrl: string;

  beforeAll(async () => {
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    stack = await startStack({ transport: 'json2' });
    proxy = await startFaultProxy(stack.sandbox.url);
    gateway = await startGatewayProcess({
      ERP_URL: proxy.url,
      ERP_DATABASE: stack.sandbox.database,
      ERP_TRANSPORT: 'json2',
      ERP_TIMEOUT_MS: '5000',
      WORKERS: String(WORKERS),
      METRICS_PORT: String(metricsPort),
    });
    await waitFor(() => listeningPids(gateway).length === WORKERS, 15000);
  });
  afterAll(async () => {
    gateway?.kill('SIGKILL');
    for (const pid of listeningPids(gateway ?? ({ stdout: [] } as unknown as GatewayProcess))) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await proxy?.close();
    await stack?.close();
  });

  /** Every series of the counters and histograms in one scrape of /metrics, by its name and labels. */
  const monotonicSeries = async (): Promise<Map<string, number>> => {
    const lines = (await (await fetch(metricsUrl)).text()).split('\n');
    const monotonic = new Set(lines.filter((line) => /^# TYPE \S+ (counter|histogram)$/.test(line)).map((line) => line.split(' ')[2] as string));
    const series = new Map<string, number>();
    for (const line of lines) {
      if (line.startsWith('#') || !line.trim()) continue;
      const name = line.split(/[{ ]/)[0] as string;
      if (monotonic.has(name) || monotonic.has(name.replace(/_(bucket|sum|count)$/, '')))
        series.set(line.slice(0, line.lastIndexOf(' ')), Number(line.slice(line.lastIndexOf(' ') + 1)));
    }
    return series;
  };
  /** The requests to PATH's route the gateway has counted, in one scrape. */
  const requestCount = (series: Map<string, number>) =>
    [...series]
      .filter(([name]) => name.startsWith('odg_http_request_duration_seconds_count{') && name.includes('route="/api/v1/fleet/vehicles/{id}"'))
      .reduce((sum, [, value]) => sum + value, 0);

  it('answers from every worker', async () => {
    for (let i = 0; i < 3 * WORKERS; i++) expect((await get(`${gateway.url}${PATH}`, stack.keys.valid, ownConnection())).status).toBe(200);
    // Each request line names the worker that answered (logs are flushed every second).
    await waitFor(
      () =>
        new Set(
          logOf(gateway)
            .filter((line) => line['route'] !== undefined && line['status'] === 200)
            .map((line) => line['worker']),
        ).size === WORKERS,
      3000,
    );
  });

  it('serves one exposition on METRICS_PORT, the sum of every worker: each request counted once, whichever worker answered', async () => {
    const count = async () => {
      const text = await (await fetch(metricsUrl)).text();
      const lines = text.split('\n').filter((line) => line.startsWith('odg_http_request_duration_seconds_count{') && line.includes('route="/api/v1/fleet/vehicles/{id}"'));
      return lines.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
    };
    const before = await count();
    for (let i = 0; i < 2 * WORKERS; i++) expect((await get(`${gateway.url}${PATH}`, stack.keys.valid, ownConnection())).status).toBe(200);
    expect((await count()) - before).toBe(2 * WORKERS);
    // The same answer from every scrape (not one worker's numbers at random).
    expect(await count()).toBe(await count());
    const info = (await (await fetch(metricsUrl)).text()).split('\n').filter((line) => line.startsWith('odg_build_info{'));
    expect(info.map((line) => line.slice(line.lastIndexOf(' ') + 1))).toEqual(['1']);
  });

  it('starts a worker again when one dies, keeps answering, and no counter of /metrics goes down (the dead worker keeps its last counts)', async () => {
    // Every worker has answered requests since the scrapes of the tests before: the victim has counts of its own.
    for (let i = 0; i < 3 * WORKERS; i++) expect((await get(`${gateway.url}${PATH}`, stack.keys.valid, ownConnection())).status).toBe(200);
    const answeredBy = (pid: number) => logOf(gateway).filter((line) => line['pid'] === pid && line['route'] !== undefined).length;
    await waitFor(() => listeningPids(gateway).every((pid) => answeredBy(pid) > 0), 3000);
    const before = await monotonicSeries();
    const requestsBefore = requestCount(before);
    const [victim] = listeningPids(gateway);
    process.kill(victim as number, 'SIGKILL');
    await waitFor(() => listeningPids(gateway).length === WORKERS + 1, 10000);
    // The primary's own line comes with its next flush (its output is buffered, as every process's is).
    await waitFor(() => logOf(gateway).some((line) => line['msg'] === 'worker exited: starting another' && line['signal'] === 'SIGKILL'), 3000);
    const after = await monotonicSeries();
    // Every counter and histogram series of the first scrape, in the second, at least as high.
    const lower = [...before].filter(([series, value]) => !((after.get(series) ?? -1) >= value));
    expect(lower).toEqual([]);
    // The victim's own requests are still counted (not merely equal by chance: it had answered some).
    expect(requestCount(after)).toBe(requestsBefore);
    for (let i = 0; i < 2 * WORKERS; i++) expect((await get(`${gateway.url}${PATH}`, stack.keys.valid, ownConnection())).status).toBe(200);
    expect(requestCount(await monotonicSeries())).toBe(requestsBefore + 2 * WORKERS);
  });

  it('on SIGTERM every worker finishes its requests in flight with 200, new connections are refused, and the gateway exits 0', async () => {
    proxy.mode = { kind: 'delay', ms: DELAY_MS };
    const started = performance.now();
    // Different records: identical reads in flight would be sent to the ERP once per worker (coalescing).
    // Settled from the start: a step below that fails must fail the test, not leave these to reject unheard.
    const inFlight = Promise.allSettled(
      Array.from({ length: 2 * WORKERS }, (_, i) => get(`${gateway.url}/api/v1/fleet/vehicles/${i + 1}?fields=plate`, stack.keys.valid, ownConnection())),
    );
    // A wait, not a measure: on a loaded machine the requests may take a while to reach the ERP.
    await waitFor(() => proxy.inFlight >= 2 * WORKERS, 15000);
    gateway.kill('SIGTERM');
    await waitFor(async () => (await tryConnect(gateway.url)) === 'ECONNREFUSED', 1000);

    const answers = (await inFlight).map((outcome) => {
      if (outcome.status === 'rejected') throw outcome.reason;
      return outcome.value;
    });
    expect(answers.map((answer) => answer.status)).toEqual(Array(2 * WORKERS).fill(200));
    expect(answers.map((answer) => JSON.parse(answer.body).data.id)).toEqual(Array.from({ length: 2 * WORKERS }, (_, i) => i + 1));
    expect(await gateway.exited).toEqual({ code: 0, signal: null });
    expect(performance.now() - started).toBeLessThan(DELAY_MS + 4000);
    // Every worker drained (the one started again included) and the primary saw them all stop.
    const lines = logOf(gateway);
    expect(new Set(lines.filter((line) => String(line['msg']).startsWith('shutting down: no new connections')).map((line) => line['worker'])).size).toBe(WORKERS);
    expect(lines.some((line) => line['msg'] === 'all workers stopped' && line['failed'] === false)).toBe(true);
  });
});
