/**
 * @module `make bench` (and `make bench-smoke`): the gateway measured against the ERP it fronts, on
 * the sandbox with `stock.picking` scaled to 1,000,000 rows, scenario by scenario, in alternating
 * gateway/direct rounds so that machine drift cancels out; then a soak for memory. Prints a Markdown
 * report and writes bench/results/latest.{json,md}.
 *
 * Options: --smoke (demo data, short rounds: a few seconds; the test suite runs it), --rows N,
 * --rounds N, --seconds S (per side per round), --min-requests N (a slow scenario's rounds are
 * lengthened, up to 20 s, to get that many answers), --soak-requests N, --soak-seconds S,
 * --operate-only (only the "operate" section: access log, metrics, traces and compression on and off,
 * written to bench/results/operate.{json,md}). --expand-only (only `expand` against 1 + N requests, bench/expand.ts,
 * written to bench/results/expand.md). --exports-only
 * (only the whole-table exports of bench/exports.ts, written to bench/results/exports.md).
 * --feed-only (only the change feed's section, bench/feed-cost.ts: the sandbox's ERP calls and the
 * feed through a gateway, without and with an index on write_date, written to bench/results/feed.md).
 * --aggregate-only (only count by state through the aggregate route against exporting and counting, bench/aggregate-bench.ts).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cpus, totalmem } from 'node:os';
import { createDemoKeys } from '@ops-data-gateway/sandbox/security/demo-keys';
import { GATEWAY_LOGIN } from '@ops-data-gateway/sandbox/seed/security';
import { initDatabase, isCurrentDatabase } from '@ops-data-gateway/sandbox/seed/init';
import type { LoadRequest, LoadResult } from './load-generator';
import { cpuSeconds, GATEWAY_MAIN, GATEWAY_NODE_FLAGS, memory, ROOT, runLoad, startService, type Service } from './processes';
import { measureOperate, operateMarkdown, type OperateResult } from './operate';
import { cacheReport, runCacheBench, type CacheBenchResult } from './cache-bench';
import { RESOURCE, scenarios, type Scenario } from './scenarios';
import { benchExports, exportReport } from './exports';
import { benchExpand, expandReport } from './expand';
import { measureFeedCost } from './feed-cost';
import { aggregateReport, benchAggregate } from './aggregate-bench';
import { freePort } from '../tests/support/free-port';

interface Options {
  readonly smoke: boolean;
  readonly rows: number;
  readonly rounds: number;
  readonly seconds: number;
  /** Fewest answers a round should have: rounds of slow scenarios are lengthened to get them. */
  readonly minRequests: number;
  readonly soakRequests: number;
  readonly soakSeconds: number;
  /** Skip the scenarios: only the memory soak. */
  readonly soakOnly: boolean;
  /** Only the operate section (bench/operate.ts). */
  readonly operateOnly: boolean;
  /** Only the response cache's scenarios (bench/cache-bench.ts). */
  readonly cacheOnly: boolean;
  /** Only the exports (bench/exports.ts). */
  readonly exportsOnly: boolean;
  /** Only `expand` against 1 + N requests (bench/expand.ts). */
  readonly expandOnly: boolean;
  /** Only the change feed (bench/feed-cost.ts). */
  readonly feedOnly: boolean;
  /** Only the aggregate route against exporting and counting (bench/aggregate-bench.ts). */
  readonly aggregateOnly: boolean;
}

interface Side {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly requests: number;
  readonly unexpected: number;
}

interface ScenarioResult {
  readonly id: string;
  readonly title: string;
  /** CPU per request, and the highest RSS sampled while the gateway's rounds ran. */
  readonly gateway: Side & { readonly cpuMsPerRequest: number; readonly peakRssMb: number };
  readonly direct?: Side;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      smoke: { type: 'boolean', default: false },
      rows: { type: 'string' },
      rounds: { type: 'string' },
      seconds: { type: 'string' },
      'min-requests': { type: 'string' },
      'soak-requests': { type: 'string' },
      'soak-seconds': { type: 'string' },
      'soak-only': { type: 'boolean', default: false },
      'operate-only': { type: 'boolean', default: false },
      'cache-only': { type: 'boolean', default: false },
      'exports-only': { type: 'boolean', default: false },
      'expand-only': { type: 'boolean', default: false },
      'feed-only': { type: 'boolean', default: false },
      'aggregate-only': { type: 'boolean', default: false },
    },
  });
  const smoke = values.smoke === true;
  return {
    smoke,
    rows: Number(values.rows ?? (smoke ? 0 : 1_000_000)),
    rounds: Number(values.rounds ?? (smoke ? 1 : 3)),
    seconds: Number(values.seconds ?? (smoke ? 0.5 : 4)),
    minRequests: Number(values['min-requests'] ?? (smoke ? 0 : 100)),
    soakRequests: Number(values['soak-requests'] ?? (smoke ? 1000 : 100_000)),
    soakSeconds: Number(values['soak-seconds'] ?? (smoke ? 2 : 60)),
    soakOnly: values['soak-only'] === true,
    operateOnly: values['operate-only'] === true,
    cacheOnly: values['cache-only'] === true,
    exportsOnly: values['exports-only'] === true,
    expandOnly: values['expand-only'] === true,
    feedOnly: values['feed-only'] === true,
    aggregateOnly: values['aggregate-only'] === true,
  };
}

/** Merges rounds: requests summed, percentiles of the rounds' medians (robust to one noisy round). */
function merge(results: readonly LoadResult[], expected: number): Side {
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const requests = results.reduce((n, r) => n + r.requests, 0);
  const unexpected = results.reduce(
    (n, r) =>
      n +
      r.errors +
      Object.entries(r.statuses)
        .filter(([s]) => Number(s) !== expected)
        .reduce((m, [, c]) => m + c, 0),
    0,
  );
  return { rps: median(results.map((r) => r.rps)), p50: median(results.map((r) => r.p50)), p99: median(results.map((r) => r.p99)), requests, unexpected };
}

/** The longest round a slow scenario gets (at 5 answers a second: 100 answers per round). */
const MAX_ROUND_SECONDS = 20;

/** How often the gateway's RSS is read while a scenario runs (a /proc read: far below the noise). */
const RSS_SAMPLE_MS = 100;

async function measure(scenario: Scenario, gateway: Service, erpUrl: string, opts: Options): Promise<ScenarioResult> {
  const gatewayRuns: LoadResult[] = [];
  const directRuns: LoadResult[] = [];
  let cpu = 0;
  let requests = 0;
  const pid = gateway.process.pid as number;
  let peakRssMb = 0;
  const sampleRss = () => (peakRssMb = Math.max(peakRssMb, memory(pid).rssMb));
  // Warm-up: connections, caches, JIT. Its pace sets the rounds' length: a slow scenario (a count or a
  // deep offset on 1M rows) runs longer rounds, so that every round has enough answers for its percentiles.
  const warmUp = await runLoad({ origin: gateway.url, requests: [scenario.request], connections: 1, amount: 20 });
  const seconds = Math.min(MAX_ROUND_SECONDS, Math.max(opts.seconds, opts.minRequests / Math.max(warmUp.rps, 0.1)));
  const run = (origin: string, list: readonly LoadRequest[], pair: boolean) => runLoad({ origin, requests: list, connections: 1, duration: seconds, pair });
  for (let round = 0; round < opts.rounds; round++) {
    const before = cpuSeconds(pid);
    const sampler = setInterval(sampleRss, RSS_SAMPLE_MS);
    const result = await run(gateway.url, [scenario.request], false).finally(() => clearInterval(sampler));
    cpu += cpuSeconds(pid) - before;
    sampleRss();
    requests += result.requests;
    gatewayRuns.push(result);
    if (scenario.direct) directRuns.push(await run(erpUrl, scenario.direct, scenario.direct.length > 1));
  }
  return {
    id: scenario.id,
    title: scenario.title,
    gateway: { ...merge(gatewayRuns, 200), cpuMsPerRequest: (cpu * 1000) / Math.max(1, requests), peakRssMb },
    ...(scenario.direct ? { direct: merge(directRuns, 200) } : {}),
  };
}

/**
 * The reference rows, measured like a gateway so that the gateway's CPU per request can be read
 * against what Node itself costs on the same machine in the same run:
 * - `floor`: scenario 2's ERP call answered by a bare Node server (bench/floor-proxy.ts);
 * - `floor-memory`: the same server, its ERP call answered from memory (bench/memo-erp.ts), so that it
 *   never goes idle waiting for ERP work;
 * - `2-memory`: scenario 2 on a gateway whose ERP answers come from memory too: the gateway's own cost.
 */
async function measureReferences(all: readonly Scenario[], sandbox: Service, startGateway: GatewayStarter, opts: Options): Promise<ScenarioResult[]> {
  const list = all.find((s) => s.id === '2');
  const call = list?.direct?.[0];
  if (!list || !call) throw new Error('scenario 2 has no direct call');
  const memoPort = await freePort();
  const memo = await startService('bench/memo-erp.js', [String(memoPort), sandbox.url], {}, `http://127.0.0.1:${memoPort}`, /memo erp listening/);
  const services: Service[] = [memo];
  const results: ScenarioResult[] = [];
  const row = async (id: keyof typeof REFERENCE_TITLES, service: Service, request: LoadRequest) => {
    const result = await measure({ id, title: REFERENCE_TITLES[id], gateway: 'warm', request }, service, sandbox.url, opts);
    process.stderr.write(`bench: ${id}: p50 ${f(result.gateway.p50)} ms, CPU ${f(result.gateway.cpuMsPerRequest, 3)} ms/request\n`);
    results.push(result);
  };
  try {
    for (const [id, erp] of [
      ['floor', sandbox],
      ['floor-memory', memo],
    ] as const) {
      const port = await freePort();
      const floor = await startService(
        'bench/floor-proxy.js',
        [String(port), erp.url, JSON.stringify(call)],
        {},
        `http://127.0.0.1:${port}`,
        /floor proxy listening/,
        GATEWAY_NODE_FLAGS,
      );
      services.push(floor);
      await row(id, floor, { method: 'GET', path: '/' });
    }
    const gateway = await startGateway(memo.url);
    services.push(gateway);
    await row('2-memory', gateway, list.request);
    return results;
  } finally {
    await Promise.all(services.map((service) => service.stop()));
  }
}

type GatewayStarter = (erpUrl: string, extra?: Record<string, string>) => Promise<Service>;

const REFERENCE_TITLES = {
  floor: "floor: scenario 2's ERP call answered by a bare node:http server (undici, JSON.parse, JSON.stringify; no framework, auth, validation, mapping or log)",
  'floor-memory': 'floor, ERP answer from memory: the same bare server, its ERP call answered from memory (never idle between requests)',
  '2-memory': "scenario 2 on a gateway whose ERP answers come from memory (the gateway's own cost, never idle between requests)",
} as const;

interface Soak {
  readonly requests: number;
  readonly rps: number;
  readonly unexpected: number;
  readonly rssAfterRequestsMb: number;
  readonly peakRssMb: number;
  readonly samples: readonly { readonly second: number; readonly rssMb: number }[];
  readonly slopeMbPerMinute: number;
}

async function soak(gateway: Service, all: readonly Scenario[], opts: Options): Promise<Soak> {
  const pid = gateway.process.pid as number;
  // The cheap requests only: the soak is about the gateway's memory, and the deep offset or the counts
  // would make the single-threaded sandbox the bottleneck (100,000 requests would take half an hour).
  const mix = all.filter((s) => ['1', '2', '5a', '5b', '6a', '7b'].includes(s.id)).map((s) => s.request);
  const bulk = await runLoad({ origin: gateway.url, requests: mix, connections: 8, amount: opts.soakRequests });
  const rssAfterRequestsMb = memory(pid).rssMb;
  const samples: { second: number; rssMb: number }[] = [];
  const started = Date.now();
  const load = runLoad({ origin: gateway.url, requests: mix, connections: 4, duration: opts.soakSeconds });
  while (Date.now() - started < opts.soakSeconds * 1000) {
    samples.push({ second: (Date.now() - started) / 1000, rssMb: memory(pid).rssMb });
    await new Promise((resolve) => setTimeout(resolve, Math.min(5000, (opts.soakSeconds * 1000) / 6)));
  }
  const soakRun = await load;
  const n = samples.length;
  const mx = samples.reduce((s, p) => s + p.second, 0) / n;
  const my = samples.reduce((s, p) => s + p.rssMb, 0) / n;
  const slope =
    samples.reduce((s, p) => s + (p.second - mx) * (p.rssMb - my), 0) /
    Math.max(
      1e-9,
      samples.reduce((s, p) => s + (p.second - mx) ** 2, 0),
    );
  const unexpected = [bulk, soakRun].reduce(
    (u, r) =>
      u +
      r.errors +
      Object.entries(r.statuses)
        .filter(([s]) => s !== '200')
        .reduce((m, [, c]) => m + c, 0),
    0,
  );
  return {
    requests: bulk.requests + soakRun.requests,
    rps: bulk.rps,
    unexpected,
    rssAfterRequestsMb,
    peakRssMb: memory(pid).peakMb,
    samples,
    slopeMbPerMinute: slope * 60,
  };
}

/** The result of a `--X-only` run: written to bench/results/<name> and printed. */
function writeOnly(name: string, lines: readonly string[]): void {
  const out = join(ROOT, 'bench', 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, name), `${lines.join('\n')}\n`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

const f = (n: number | undefined, digits = 2) => (n === undefined || Number.isNaN(n) ? '–' : n.toFixed(digits));

function report(
  opts: Options,
  rows: number,
  results: readonly ScenarioResult[],
  soakResult: Soak | undefined,
  setupSeconds: number,
  cache: CacheBenchResult | undefined,
): { markdown: string; targets: string[] } {
  const lines = [
    `# Benchmark run (${opts.smoke ? 'smoke' : 'full'})`,
    '',
    `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}. Model \`${RESOURCE.model}\` with ${rows.toLocaleString('en')} rows; sandbox and gateway each in their own process, JSON-2, concurrency 1, ${opts.rounds} alternating rounds of ${opts.seconds} s per side${opts.minRequests ? ` (longer, up to ${MAX_ROUND_SECONDS} s, where that gives fewer than ${opts.minRequests} answers)` : ''}. Setup ${setupSeconds.toFixed(0)} s.`,
    '',
    '| # | Scenario | Gateway req/s | Gateway p50 ms | Gateway p99 ms | Direct req/s | Direct p50 ms | Direct p99 ms | Added p50 ms | Added p99 ms | Gateway CPU ms/req | Gateway peak RSS MB |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...results.map(
      (r) =>
        `| ${r.id} | ${r.title} | ${f(r.gateway.rps, 0)} | ${f(r.gateway.p50)} | ${f(r.gateway.p99)} | ${f(r.direct?.rps, 0)} | ${f(r.direct?.p50)} | ${f(r.direct?.p99)} | ${f(r.direct ? r.gateway.p50 - r.direct.p50 : undefined)} | ${f(r.direct ? r.gateway.p99 - r.direct.p99 : undefined)} | ${f(r.gateway.cpuMsPerRequest, 3)} | ${f(r.gateway.peakRssMb, 1)} |`,
    ),
    ...(soakResult
      ? [
          '',
          `Soak: ${soakResult.requests.toLocaleString('en')} requests (${f(soakResult.rps, 0)} req/s at 8 connections, then ${opts.soakSeconds} s at 4), ${soakResult.unexpected} unexpected statuses; RSS after the first ${opts.soakRequests.toLocaleString('en')}: ${f(soakResult.rssAfterRequestsMb, 1)} MB; peak RSS ${f(soakResult.peakRssMb, 1)} MB; RSS trend during the soak ${f(soakResult.slopeMbPerMinute, 2)} MB/min (samples: ${soakResult.samples.map((s) => f(s.rssMb, 1)).join(', ')}).`,
        ]
      : []),
  ];
  const by = (id: string) => results.find((r) => r.id === id);
  const targets: string[] = [];
  const check = (ok: boolean, text: string) => targets.push(`${ok ? 'MET ' : 'MISSED'}  ${text}`);
  for (const id of ['1', '2', '3', '4']) {
    const r = by(id);
    if (r?.direct) {
      check(r.gateway.p50 - r.direct.p50 <= 1.0, `scenario ${id}: added p50 ${f(r.gateway.p50 - r.direct.p50)} ms (target ≤ 1.0)`);
      check(r.gateway.p99 - r.direct.p99 <= 3.0, `scenario ${id}: added p99 ${f(r.gateway.p99 - r.direct.p99)} ms (target ≤ 3)`);
    }
  }
  const list = by('2');
  const cpuOf = (id: string) => f(by(id)?.gateway.cpuMsPerRequest, 3);
  const floorNote = by('floor')
    ? `; in the same run the bare Node floor costs ${cpuOf('floor')} ms, and with ERP answers from memory the floor costs ${cpuOf('floor-memory')} ms and the gateway ${cpuOf('2-memory')} ms`
    : '';
  if (list) check(list.gateway.cpuMsPerRequest <= 0.5, `gateway CPU per 50-record list, warm auth: ${f(list.gateway.cpuMsPerRequest, 3)} ms (target ≤ 0.5${floorNote})`);
  const [start, end] = [by('5a'), by('5b')];
  if (start && end) check(end.gateway.p50 <= 1.25 * start.gateway.p50, `cursor p50 near the end / near the start: ${f(end.gateway.p50 / start.gateway.p50)}x (target ≤ 1.25)`);
  const [counted, uncounted] = [by('3'), by('2')];
  if (counted && uncounted)
    check(uncounted.gateway.rps >= 3 * counted.gateway.rps, `total=false throughput / counted: ${f(uncounted.gateway.rps / counted.gateway.rps, 1)}x (target ≥ 3)`);
  if (soakResult) {
    check(soakResult.peakRssMb <= 150, `peak RSS ${f(soakResult.peakRssMb, 1)} MB (target ≤ 150)`);
    check(soakResult.slopeMbPerMinute <= 1, `RSS trend over the soak ${f(soakResult.slopeMbPerMinute, 2)} MB/min (target: no upward trend, ≤ 1 MB/min)`);
  }
  if (cache) {
    const section = cacheReport(cache);
    lines.push(...section.lines);
    for (const [ok, text] of section.targets) check(ok, text);
  }
  lines.push('', 'Targets:', '', ...targets.map((t) => `- ${t}`), '');
  return { markdown: lines.join('\n'), targets };
}

async function main(): Promise<void> {
  const opts = options();
  const started = performance.now();
  const dbPath = opts.smoke ? join(ROOT, '.sandbox', 'bench-smoke.db') : join(ROOT, '.sandbox', `bench-${opts.rows}.db`);
  mkdirSync(join(ROOT, '.sandbox'), { recursive: true });
  // A database made by an older sandbox lacks tables the current one reads: made again, like `make run`.
  const stale = existsSync(dbPath) && !isCurrentDatabase(dbPath);
  if (opts.smoke || !existsSync(dbPath) || stale) {
    process.stderr.write(`bench: ${stale ? 're-creating' : 'creating'} ${dbPath}${opts.rows ? ` with ${opts.rows} ${RESOURCE.model} rows` : ''}...\n`);
    initDatabase({ path: dbPath, ...(opts.rows ? { scale: { [RESOURCE.model]: opts.rows } } : {}) });
  }
  const db = new DatabaseSync(dbPath);
  const keys = createDemoKeys(db, 'sandbox');
  const rows = (db.prepare(`SELECT count(*) AS n FROM "${RESOURCE.model.replace(/\./g, '_')}"`).get() as { n: number }).n;
  const sample = db
    .prepare(`SELECT origin, scheduled_date FROM "${RESOURCE.model.replace(/\./g, '_')}" WHERE origin IS NOT NULL AND scheduled_date IS NOT NULL AND id >= ? ORDER BY id LIMIT 1`)
    .get(Math.floor(rows / 2)) as { origin: string; scheduled_date: string };
  db.close();

  const sandboxPort = await freePort();
  // The sandbox package's command line, compiled by `make packages` (its exports map it to dist/).
  const sandbox = await startService(
    require.resolve('@ops-data-gateway/sandbox/cli'),
    ['serve', '--db', dbPath, '--port', String(sandboxPort)],
    {},
    `http://127.0.0.1:${sandboxPort}`,
    /listening on/,
  );
  const startGateway: GatewayStarter = async (erpUrl, extra = {}) => {
    const port = await freePort();
    const env = { PORT: String(port), ERP_URL: erpUrl, ERP_DATABASE: 'sandbox', ERP_LOGIN: GATEWAY_LOGIN, ERP_TRANSPORT: 'json2', LOG_LEVEL: 'info', ...extra };
    // At LOG_LEVEL=warn (the operate section's "access log off") "gateway listening" is not written; the
    // warning that the drift check is skipped (no ERP_CHECK_KEY here) is, once the gateway listens.
    return startService(GATEWAY_MAIN, [], env, `http://127.0.0.1:${port}`, /gateway listening|catalogue drift check skipped/, GATEWAY_NODE_FLAGS);
  };
  const warm = await startGateway(sandbox.url);
  // Every request checks its key here: the overall cap on key checks (AUTH_CHECK_LIMIT) is lifted.
  const cold = await startGateway(sandbox.url, { AUTH_CACHE_TTL_MS: '0', AUTH_NEGATIVE_TTL_MS: '0', AUTH_CHECK_LIMIT: '10000000' });
  const setupSeconds = (performance.now() - started) / 1000;
  try {
    // Related records in one call against 1 + N calls, on a gateway of its own (a few seconds).
    const expandLines =
      opts.soakOnly || opts.cacheOnly || opts.operateOnly || opts.exportsOnly || opts.feedOnly || opts.aggregateOnly
        ? []
        : expandReport(await benchExpand(sandbox.url, keys.valid, startGateway, opts.smoke ? 1 : 5, opts.smoke ? 20 : 200));
    if (expandLines.length) process.stderr.write(`bench: expand\n${expandLines.join('\n')}\n`);
    if (opts.expandOnly) {
      writeOnly('expand.md', expandLines);
      return;
    }
    // Count by state through the aggregate route against exporting and counting on the client.
    const aggregateLines =
      opts.soakOnly || opts.cacheOnly || opts.operateOnly || opts.exportsOnly || opts.expandOnly || opts.feedOnly
        ? []
        : aggregateReport(await benchAggregate(sandbox.url, keys.valid, warm, startGateway, opts.smoke ? 3 : 7));
    if (aggregateLines.length) process.stderr.write(`bench: aggregate\n${aggregateLines.join('\n')}\n`);
    if (opts.aggregateOnly) {
      writeOnly('aggregate.md', aggregateLines);
      return;
    }
    // The exports run first, on a gateway of their own: a whole export is minutes of ERP paging.
    const exportLines =
      opts.soakOnly || opts.cacheOnly || opts.operateOnly || opts.expandOnly || opts.aggregateOnly
        ? []
        : exportReport(await benchExports(sandbox.url, keys.valid, 'sandbox', startGateway));
    if (exportLines.length) process.stderr.write(`bench: exports\n${exportLines.join('\n')}\n`);
    if (opts.exportsOnly) {
      writeOnly('exports.md', exportLines);
      return;
    }
    const feedLines = opts.soakOnly || opts.cacheOnly || opts.operateOnly ? [] : await feedSection(sandbox.url, dbPath, keys.valid, opts);
    if (opts.feedOnly) {
      writeOnly('feed.md', feedLines);
      return;
    }
    const all = scenarios({ key: keys.valid, database: 'sandbox', rows, sample: { origin: sample.origin, scheduledDate: sample.scheduled_date } });
    const list = all.find((scenario) => scenario.id === '2')?.request as LoadRequest;
    const operate = (): Promise<OperateResult> =>
      measureOperate(
        sandbox.url,
        startGateway,
        async (id, title, service, request) => {
          const { gateway } = await measure({ id, title, gateway: 'warm', request }, service, sandbox.url, opts);
          if (gateway.unexpected) throw new Error(`operate ${id} ${request.path}: ${gateway.unexpected} unexpected statuses or errors`);
          process.stderr.write(`bench: operate ${id}: CPU ${f(gateway.cpuMsPerRequest, 3)} ms/request\n`);
          return gateway;
        },
        list,
        opts.smoke ? 1 : 2,
      );
    if (opts.operateOnly) {
      const result = await operate();
      const out = join(ROOT, 'bench', 'results');
      mkdirSync(out, { recursive: true });
      writeFileSync(join(out, 'operate.json'), `${JSON.stringify({ options: opts, rows, result }, null, 2)}\n`);
      writeFileSync(join(out, 'operate.md'), operateMarkdown(result));
      process.stdout.write(operateMarkdown(result));
      return;
    }
    const results: ScenarioResult[] = [];
    for (const scenario of opts.soakOnly || opts.cacheOnly ? [] : all) {
      const result = await measure(scenario, scenario.gateway === 'warm' ? warm : cold, sandbox.url, opts);
      process.stderr.write(`bench: ${scenario.id} ${scenario.title}: gateway p50 ${f(result.gateway.p50)} ms${result.direct ? `, direct p50 ${f(result.direct.p50)} ms` : ''}\n`);
      if (result.gateway.unexpected || result.direct?.unexpected)
        throw new Error(`scenario ${scenario.id}: unexpected statuses or errors (${result.gateway.unexpected} gateway, ${result.direct?.unexpected ?? 0} direct)`);
      results.push(result);
    }
    if (!opts.soakOnly && !opts.cacheOnly) results.push(...(await measureReferences(all, sandbox, startGateway, opts)));
    const operateResult = opts.soakOnly || opts.cacheOnly ? undefined : await operate();
    const cache =
      opts.soakOnly || opts.operateOnly
        ? undefined
        : await runCacheBench({ smoke: opts.smoke, key: keys.valid, database: 'sandbox', rows, dbPath }, sandbox, startGateway, freePort);
    const soakResult = opts.cacheOnly ? undefined : await soak(warm, all, opts);
    const report_ = report(opts, rows, results, soakResult, setupSeconds, cache);
    const markdown = `${report_.markdown}${exportLines.length ? `${exportLines.join('\n')}\n` : ''}${aggregateLines.length ? `${aggregateLines.join('\n')}\n` : ''}${feedLines.length ? `\n${feedLines.join('\n')}\n` : ''}${operateResult ? `\n${operateMarkdown(operateResult)}` : ''}`;
    const { targets } = report_;
    const out = join(ROOT, 'bench', 'results');
    mkdirSync(out, { recursive: true });
    const name = opts.smoke ? 'smoke' : opts.soakOnly ? 'soak' : opts.cacheOnly ? 'cache' : 'latest';
    writeFileSync(join(out, `${name}.json`), `${JSON.stringify({ options: opts, rows, results, operate: operateResult, soak: soakResult, cache, targets }, null, 2)}\n`);
    writeFileSync(join(out, `${name}.md`), markdown);
    process.stdout.write(markdown);
  } finally {
    await Promise.all([warm.stop(), cold.stop()]);
    await sandbox.stop();
  }
}

/**
 * The change feed on the sandbox (bench/feed-cost.ts), as Odoo makes it (no index on write_date),
 * then with the index a DBA would add (`CREATE INDEX ... (write_date)`, made in the database while
 * the sandbox serves it, and dropped after).
 */
async function feedSection(erpUrl: string, dbPath: string, key: string, opts: Options): Promise<string[]> {
  const measure = async () =>
    measureFeedCost({
      url: erpUrl,
      database: 'sandbox',
      login: GATEWAY_LOGIN,
      key,
      rounds: opts.smoke ? 1 : 7,
      pages: opts.smoke ? 1 : 20,
      polls: opts.smoke ? 1 : 12,
      compareWalk: !opts.smoke,
      full: false,
      resource: RESOURCE.path,
      ports: [await freePort(), await freePort()],
    });
  const lines = ['## The change feed', '', '### As Odoo makes it: no index on write_date', ''];
  lines.push(...(await measure()));
  const db = new DatabaseSync(dbPath);
  const table = RESOURCE.model.replace(/\./g, '_');
  try {
    // PostgreSQL's one b-tree serves comparisons and either order; the sandbox needs that index and
    // its `IS NULL` pair for them (orm/schema.ts: how every Odoo index of a nullable column is made).
    db.exec(`CREATE INDEX "bench_write_date" ON "${table}" ("write_date"); CREATE INDEX "bench_write_date__nulls" ON "${table}" ("write_date" IS NULL, "write_date");`);
    lines.push('', `### With \`CREATE INDEX ON ${table} (write_date)\``, '', ...(await measure()));
  } finally {
    db.exec('DROP INDEX IF EXISTS "bench_write_date"; DROP INDEX IF EXISTS "bench_write_date__nulls";');
    db.close();
  }
  process.stderr.write(`bench: change feed\n${lines.join('\n')}\n`);
  return lines;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
