/**
 * @module The response cache's scenarios of `make bench` (issue 17), each against the sandbox through
 * a counting proxy (bench/counting-proxy.ts) so that the calls reaching the ERP are counted:
 * - dashboard load: 64 connections polling 10 distinct list queries (TTL 5 s), against what the ERP
 *   serves directly for the same queries at the same concurrency, with the ERP calls received;
 * - cache hit at concurrency 1: p50 and the gateway's CPU per hit;
 * - coalescing with the cache off: 64 concurrent identical requests, and the ERP reads they cost;
 * - the watch mix (issue 31): the same dashboard (total=false) with a long TTL (300 s) and change
 *   detection on, while a writer changes one record shown on every tile once a second (ErpWriter, as
 *   Odoo's ORM stamps `write_date`): the share of answers from the cache, and the throughput against the
 *   ERP's direct one.
 * The "cache off" comparison is the main table itself: its gateway runs with the default settings.
 */
import { ErpWriter } from '../tests/support/erp-writes';
import { cpuSeconds, runLoad, startService, type Service } from './processes';
import type { LoadRequest } from './load-generator';
import { directListCalls, RESOURCE } from './scenarios';
import { byLabel, minus } from './prometheus-text';

export interface CacheBenchOptions {
  readonly smoke: boolean;
  readonly key: string;
  readonly database: string;
  readonly rows: number;
  /** The sandbox's database, written by the watch mix's writer. */
  readonly dbPath: string;
}

interface Dashboard {
  readonly title: string;
  readonly seconds: number;
  readonly connections: number;
  readonly queries: number;
  readonly ttlS: number;
  readonly gatewayRps: number;
  readonly gatewayP50: number;
  readonly gatewayP99: number;
  readonly directRps: number;
  readonly directP50: number;
  readonly erpCalls: Record<string, number>;
  readonly unexpected: number;
  readonly gatewayCpuMsPerRequest: number;
}

export interface CacheBenchResult {
  /** Uncounted pages (one ERP call per answer), then counted ones (the API's default: a page and its count). */
  readonly dashboards: readonly Dashboard[];
  readonly hit: { readonly p50: number; readonly p99: number; readonly rps: number; readonly cpuMsPerRequest: number };
  readonly coalescing: { readonly requests: number; readonly erpCalls: Record<string, number>; readonly statuses: Record<string, number> };
  /** With total=false, then counted. */
  readonly watchMixes: readonly WatchMix[];
  readonly freshness: Freshness;
}

/** How soon a write shows in a cached answer where checks are cheap (a small model, no other load). */
interface Freshness {
  readonly path: string;
  /** Milliseconds from each write to the first answer that showed it, sorted. */
  readonly delays: readonly number[];
  /** /readyz: each model watched for it, its check's cost and the interval that follows. */
  readonly models: Readonly<Record<string, { readonly check_ms: number; readonly interval_ms: number }>>;
}

const FRESH_MODEL = 'fleet.vehicle';
const FRESH_PATH = '/api/v1/fleet/vehicles?order=id&limit=5&fields=id,plate&total=false';

/**
 * Writes to one vehicle's plate, each in a second of its own (1.1 to 2.1 s apart, so that no write
 * shares the `write_date` second a check already saw: that case is the settle window's, stated apart),
 * and polls the cached list every 25 ms until it shows the new value: the delay from the write.
 * The gateway reads nothing else (TTL 300 s, change detection at its defaults): the list shows plates
 * only, so one model is watched for it (runtime/cache/models-shown.ts).
 */
async function measureFreshness(options: CacheBenchOptions, gateway: string): Promise<Freshness> {
  const rounds = options.smoke ? 2 : 20;
  const headers = { Authorization: `Bearer ${options.key}` };
  const plates = async () => ((await (await fetch(`${gateway}${FRESH_PATH}`, { headers })).json()) as { data: { id: number; plate: unknown }[] }).data;
  const target = (await plates())[0]?.id;
  if (target === undefined) throw new Error(`freshness: no vehicle in the bench database (${FRESH_PATH})`);
  const writer = new ErpWriter(options.dbPath);
  const delays: number[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      await new Promise((resolve) => setTimeout(resolve, 1100 + Math.random() * 1000));
      const plate = `ODG-FRESH-${round}`;
      writer.write(FRESH_MODEL, target, { license_plate: plate });
      const written = performance.now();
      for (;;) {
        if ((await plates()).some((row) => row.id === target && row.plate === plate)) break;
        if (performance.now() - written > 60_000) throw new Error(`freshness: round ${round} not seen within 60 s`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      delays.push(performance.now() - written);
    }
  } finally {
    writer.close();
  }
  const ready = (await (await fetch(`${gateway}/readyz`)).json()) as { cache_watch?: { models?: Freshness['models'] } };
  return { path: FRESH_PATH, delays: delays.sort((a, b) => a - b), models: ready.cache_watch?.models ?? {} };
}

interface WatchMix {
  readonly counted: boolean;
  readonly seconds: number;
  readonly ttlS: number;
  readonly writes: number;
  readonly gatewayRps: number;
  readonly gatewayP99: number;
  readonly directRps: number;
  /** odg_cache_answers_total over the run, by outcome. */
  readonly answers: Record<string, number>;
  /** odg_cache_checks_total over the run, by outcome (all models). */
  readonly checks: Record<string, number>;
  readonly erpCalls: Record<string, number>;
  readonly unexpected: number;
}

const WATCH_TTL_S = 300;

type Starter = (erpUrl: string, extra?: Record<string, string>) => Promise<Service>;

const TTL_S = 5;
const CONNECTIONS = 64;

/**
 * Ten dashboard tiles: records from five points of the model, and first pages of five sizes; with
 * `total=false` (one ERP call per answer) or counted (the API's default: the page and its count).
 */
function dashboardQueries(rows: number, counted: boolean): string[] {
  const queries: string[] = [];
  const total = counted ? '' : '&total=false';
  for (let i = 0; i < 5; i++) queries.push(`since_id=${Math.floor(((i + 1) * rows) / 6)}&limit=20${total}`);
  for (const limit of [10, 20, 30, 40, 50]) queries.push(`order=id&limit=${limit}${total}`);
  return queries;
}

async function counts(proxy: Service): Promise<Record<string, number>> {
  return (await (await fetch(`${proxy.url}/__counts`)).json()) as Record<string, number>;
}

async function reset(proxy: Service): Promise<void> {
  await fetch(`${proxy.url}/__reset`, { method: 'POST' });
}

export async function runCacheBench(options: CacheBenchOptions, sandbox: Service, startGateway: Starter, freePort: () => Promise<number>): Promise<CacheBenchResult> {
  const proxyPort = await freePort();
  const proxy = await startService('bench/counting-proxy.js', [String(proxyPort), sandbox.url], {}, `http://127.0.0.1:${proxyPort}`, /counting proxy listening/);
  const services: Service[] = [proxy];
  const get = (query: string): LoadRequest => ({ method: 'GET', path: `/api/v1/${RESOURCE.path}?${query}`, headers: { Authorization: `Bearer ${options.key}` } });
  const seconds = options.smoke ? 2 : 30;
  try {
    const cached = await startGateway(proxy.url, { CACHE_DEFAULT_TTL_S: String(TTL_S) });
    services.push(cached);
    const pid = cached.process.pid as number;
    // Authentication and the read right checked once, before the clock starts.
    await runLoad({ origin: cached.url, requests: [get('limit=1&total=false')], connections: 1, amount: 2 });
    const dashboards: Dashboard[] = [];
    for (const counted of [false, true]) {
      const queries = dashboardQueries(options.rows, counted);
      await reset(proxy);
      const cpuBefore = cpuSeconds(pid);
      const load = await runLoad({ origin: cached.url, requests: queries.map(get), connections: CONNECTIONS, duration: seconds });
      const cpu = cpuSeconds(pid) - cpuBefore;
      const erpCalls = await counts(proxy);
      const direct = await runLoad({
        origin: sandbox.url,
        requests: queries.flatMap((q) => directListCalls(options, Object.fromEntries(new URLSearchParams(q)))),
        connections: CONNECTIONS,
        duration: options.smoke ? 1 : 10,
      });
      const unexpected = [load, direct].reduce((n, r) => n + r.errors + Object.entries(r.statuses).reduce((m, [s, c]) => m + (s === '200' ? 0 : c), 0), 0);
      dashboards.push({
        title: counted ? 'counted lists (the default: each answer a page and its count, two ERP calls)' : 'lists with total=false (one ERP call each)',
        seconds,
        connections: CONNECTIONS,
        queries: queries.length,
        ttlS: TTL_S,
        gatewayRps: load.rps,
        gatewayP50: load.p50,
        gatewayP99: load.p99,
        // A counted query is two calls sent directly: the ERP serves half as many answers.
        directRps: counted ? direct.rps / 2 : direct.rps,
        directP50: direct.p50,
        erpCalls,
        unexpected,
        gatewayCpuMsPerRequest: (cpu * 1000) / Math.max(1, load.requests),
      });
    }

    // One tile polled alone: every answer but the first of each 5 s is a hit.
    const hitBefore = cpuSeconds(pid);
    const hit = await runLoad({ origin: cached.url, requests: [get(dashboardQueries(options.rows, false)[0] as string)], connections: 1, duration: options.smoke ? 1 : 10 });
    const hitCpu = cpuSeconds(pid) - hitBefore;

    const uncached = await startGateway(proxy.url);
    services.push(uncached);
    await runLoad({ origin: uncached.url, requests: [get('limit=1&total=false')], connections: 1, amount: 2 });
    await reset(proxy);
    const burst = await runLoad({ origin: uncached.url, requests: [get('limit=50')], connections: CONNECTIONS, amount: CONNECTIONS });
    const coalescing = { requests: burst.requests, erpCalls: await counts(proxy), statuses: burst.statuses };

    // The watch mix: record 1 is on every `order=id` tile; the writer changes its origin once a second.
    const metricsPort = await freePort();
    const watched = await startGateway(proxy.url, { CACHE_DEFAULT_TTL_S: String(WATCH_TTL_S), METRICS_PORT: String(metricsPort) });
    services.push(watched);
    const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    await runLoad({ origin: watched.url, requests: [get('limit=1&total=false')], connections: 1, amount: 2 });
    const watchMixes: WatchMix[] = [];
    for (const counted of [false, true]) {
      const queries = dashboardQueries(options.rows, counted);
      const [answersBefore, checksBefore] = [await byLabel(metricsUrl, 'odg_cache_answers_total', 'outcome'), await byLabel(metricsUrl, 'odg_cache_checks_total', 'outcome')];
      await reset(proxy);
      const writer = new ErpWriter(options.dbPath);
      let writes = 0;
      const ticker = setInterval(() => writer.write(RESOURCE.model, 1, { origin: `odg watch mix ${++writes}` }), 1000);
      const watchLoad = await runLoad({ origin: watched.url, requests: queries.map(get), connections: CONNECTIONS, duration: seconds }).finally(() => {
        clearInterval(ticker);
        writer.close();
      });
      const answers = minus(await byLabel(metricsUrl, 'odg_cache_answers_total', 'outcome'), answersBefore);
      const checks = minus(await byLabel(metricsUrl, 'odg_cache_checks_total', 'outcome'), checksBefore);
      const watchErp = await counts(proxy);
      const watchDirect = await runLoad({
        origin: sandbox.url,
        requests: queries.flatMap((q) => directListCalls(options, Object.fromEntries(new URLSearchParams(q)))),
        connections: CONNECTIONS,
        duration: options.smoke ? 1 : 10,
      });
      watchMixes.push({
        counted,
        seconds,
        ttlS: WATCH_TTL_S,
        writes,
        gatewayRps: watchLoad.rps,
        gatewayP99: watchLoad.p99,
        directRps: counted ? watchDirect.rps / 2 : watchDirect.rps,
        answers,
        checks,
        erpCalls: watchErp,
        unexpected: [watchLoad, watchDirect].reduce((n, r) => n + r.errors + Object.entries(r.statuses).reduce((m, [s, c]) => m + (s === '200' ? 0 : c), 0), 0),
      });
    }
    // A gateway of its own: the watch mix's models, still watched, would share the checks' budget with it.
    const freshGateway = await startGateway(proxy.url, { CACHE_DEFAULT_TTL_S: String(WATCH_TTL_S) });
    services.push(freshGateway);
    const freshness = await measureFreshness(options, freshGateway.url);
    return {
      freshness,
      watchMixes,
      dashboards,
      hit: { p50: hit.p50, p99: hit.p99, rps: hit.rps, cpuMsPerRequest: (hitCpu * 1000) / Math.max(1, hit.requests) },
      coalescing,
    };
  } finally {
    await Promise.all(services.map((service) => service.stop()));
  }
}

const f = (n: number, digits = 2) => (Number.isNaN(n) ? '–' : n.toFixed(digits));
const total = (calls: Record<string, number>) => Object.values(calls).reduce((a, b) => a + b, 0);
const list = (calls: Record<string, number>) =>
  Object.entries(calls)
    .map(([method, n]) => `${method} ${n}`)
    .join(', ') || 'none';

/** The report's section and its targets. */
export function cacheReport(result: CacheBenchResult): { lines: string[]; targets: [boolean, string][] } {
  const lines = ['', `Response cache (\`${RESOURCE.path}\`, through a counting proxy in front of the ERP):`, ''];
  const targets: [boolean, string][] = [];
  for (const d of result.dashboards) {
    const ratio = d.gatewayRps / d.directRps;
    const allowed = d.queries * (d.seconds / d.ttlS) + d.queries;
    const reads = d.erpCalls['search_read'] ?? 0;
    lines.push(
      `- Dashboard load, ${d.title}: ${d.connections} connections polling ${d.queries} queries for ${d.seconds} s, TTL ${d.ttlS} s: gateway ${f(d.gatewayRps, 0)} req/s (p50 ${f(d.gatewayP50)} ms, p99 ${f(d.gatewayP99)} ms, CPU ${f(d.gatewayCpuMsPerRequest, 3)} ms/request); the ERP directly, same queries and connections: ${f(d.directRps, 0)} answers/s (p50 per call ${f(d.directP50)} ms): ${f(ratio, 1)}x. ERP calls received: ${total(d.erpCalls)} (${list(d.erpCalls)}). Unexpected statuses: ${d.unexpected}.`,
    );
    targets.push([ratio >= 25, `dashboard load, ${d.title}: gateway / direct ${f(ratio, 1)}x (target ≥ 25)`]);
    targets.push([
      reads <= allowed,
      `dashboard load, ${d.title}: answers read from the ERP (search_read) ${reads} (target ≤ ${allowed} = ${d.queries} × ${d.seconds}/${d.ttlS} + ${d.queries}); all ERP calls ${total(d.erpCalls)}`,
    ]);
  }
  const coalescedReads = (result.coalescing.erpCalls['search_read'] ?? 0) + (result.coalescing.erpCalls['search_count'] ?? 0);
  lines.push(
    `- Cache hit at concurrency 1: p50 ${f(result.hit.p50, 3)} ms, p99 ${f(result.hit.p99, 3)} ms, ${f(result.hit.rps, 0)} req/s, gateway CPU ${f(result.hit.cpuMsPerRequest, 3)} ms/request.`,
    `- Coalescing with the cache off: ${result.coalescing.requests} concurrent identical requests (limit=50, with total) cost the ERP ${list(result.coalescing.erpCalls)} (statuses: ${list(result.coalescing.statuses)}).`,
  );
  targets.push(
    [result.hit.p50 <= 1, `cache hit p50 at concurrency 1: ${f(result.hit.p50, 3)} ms (target ≤ 1)`],
    [result.hit.cpuMsPerRequest <= 0.3, `gateway CPU per hit: ${f(result.hit.cpuMsPerRequest, 3)} ms (target ≤ 0.3)`],
    [coalescedReads <= 2, `coalescing, TTL 0: ${result.coalescing.requests} concurrent identical requests → ${coalescedReads} ERP reads (target ≤ 2)`],
  );
  for (const w of result.watchMixes) {
    const answered = total(w.answers);
    const hitShare = (100 * (w.answers['hit'] ?? 0)) / Math.max(1, answered);
    const watchRatio = w.gatewayRps / w.directRps;
    lines.push(
      `- Watch mix (change detection on): the ${w.counted ? 'counted' : 'total=false'} dashboard, ${CONNECTIONS} connections for ${w.seconds} s, TTL ${w.ttlS} s, while a writer changed record 1 (on every \`order=id\` tile) ${w.writes} times, once a second: ${answered} answers, ${list(w.answers)}: ${f(hitShare, 1)} % from the cache; gateway ${f(w.gatewayRps, 0)} req/s (p99 ${f(w.gatewayP99)} ms), the ERP directly ${f(w.directRps, 0)} answers/s: ${f(watchRatio, 1)}x. Checks: ${list(w.checks)}. ERP calls received: ${total(w.erpCalls)} (${list(w.erpCalls)}). Unexpected statuses: ${w.unexpected}.`,
    );
    targets.push(
      [hitShare >= 90, `watch mix (${w.counted ? 'counted' : 'total=false'}), one write a second: ${f(hitShare, 1)} % of answers from the cache (target ≥ 90)`],
      [watchRatio >= 25, `watch mix (${w.counted ? 'counted' : 'total=false'}), one write a second: gateway / direct ${f(watchRatio, 1)}x (target ≥ 25)`],
      [
        (w.checks['changed'] ?? 0) > 0,
        `watch mix (${w.counted ? 'counted' : 'total=false'}): checks that saw a write ${w.checks['changed'] ?? 0} (the writes were seen, target > 0)`,
      ],
    );
  }
  const fresh = result.freshness;
  const p99 = fresh.delays[Math.min(fresh.delays.length - 1, Math.ceil(0.99 * fresh.delays.length) - 1)] ?? Number.NaN;
  const p50 = fresh.delays[Math.min(fresh.delays.length - 1, Math.ceil(0.5 * fresh.delays.length) - 1)] ?? Number.NaN;
  lines.push(
    `- Freshness where checks are cheap (change detection at its defaults, TTL 300 s, no other load): ${fresh.delays.length} writes to one vehicle's plate, each seen in \`${fresh.path}\` after p50 ${f(p50, 0)} ms, p99 ${f(p99, 0)} ms, max ${f(fresh.delays.at(-1) ?? Number.NaN, 0)} ms. Watched: ${Object.entries(
      fresh.models,
    )
      .map(([model, m]) => `${model} (check ${m.check_ms} ms, interval ${m.interval_ms} ms)`)
      .join(', ')}.`,
  );
  targets.push([p99 <= 2000, `freshness where checks are cheap: a write seen in the cached answer after ${f(p99, 0)} ms at p99 (target ≤ 2000)`]);
  return { lines, targets };
}
