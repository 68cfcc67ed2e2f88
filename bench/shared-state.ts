/**
 * @module `make bench-shared`: what the shared state and the per-key limits cost and hold, measured on
 * real processes (BENCHMARKS.md, "Shared state and per-key limits").
 *
 * 1. Three gateway processes with one redis-server: random wrong keys from random addresses, spread
 *    over the three, 24 at a time; the ERP's key checks are counted at the ERP's door (a counting
 *    proxy). Target: at most AUTH_CHECK_LIMIT + processes − 1 (the cap holds across processes). The
 *    same three without Redis show what each process alone allows.
 * 2. The CPU a per-key limit adds to a request: one gateway process whose ERP answers come from memory
 *    (bench/memo-erp.ts: the gateway never waits for ERP work), a cheap detail request at 4
 *    connections, limits off / in memory / in Redis, in alternating rounds; CPU of the gateway (and of
 *    redis-server) over its rounds divided by its requests.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Redis } from 'ioredis';
import { createDemoKeys } from '@ops-data-gateway/sandbox/security/demo-keys';
import { GATEWAY_LOGIN } from '@ops-data-gateway/sandbox/seed/security';
import { initDatabase } from '@ops-data-gateway/sandbox/seed/init';
import { cpuSeconds, GATEWAY_MAIN, GATEWAY_NODE_FLAGS, memory, ROOT, runLoad, startService, type Service } from './processes';
import { freePort } from '../tests/support/free-port';

const PROCESSES = 3;
const CHECK_CAP = 50;
const WRONG_KEYS = 600;
const IN_FLIGHT = 24;
const ROUNDS = 3;
const ROUND_SECONDS = 4;
const DETAIL = '/api/v1/fleet/vehicles/1?fields=plate,model';

/** A reverse proxy in front of the ERP that counts the key checks (JSON-2 `context_get`) going through. */
async function countingProxy(erpUrl: string): Promise<{ url: string; keyChecks: () => number; reset(): void; close(): Promise<void> }> {
  const upstream = new URL(erpUrl);
  let checks = 0;
  const server: Server = createServer((req, res) => {
    if (req.url?.includes('/context_get')) checks++;
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    keyChecks: () => checks,
    reset: () => {
      checks = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Debian's redis-server on a port of its own, no persistence. */
async function startRedis(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'odg-bench-redis-'));
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (/Ready to accept connections/.test(seen)) resolve();
    });
    child.once('error', (error) => reject(new Error(`cannot start redis-server (apt-get install redis-server): ${error.message}`)));
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${seen.slice(-500)}`)));
  });
  child.stdout?.resume();
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid as number,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

async function startGateway(erpUrl: string, extra: Record<string, string>): Promise<Service> {
  const port = await freePort();
  // Logging one line per request at info, as in production and in `make bench`.
  const env = { PORT: String(port), ERP_URL: erpUrl, ERP_DATABASE: 'sandbox', ERP_LOGIN: GATEWAY_LOGIN, ERP_TRANSPORT: 'json2', LOG_LEVEL: 'info', ...extra };
  return startService(GATEWAY_MAIN, [], env, `http://127.0.0.1:${port}`, /gateway listening/, GATEWAY_NODE_FLAGS);
}

interface CapResult {
  readonly mode: string;
  readonly keyChecks: number;
  /** Processes that found Redis unusable during the flood (a call past REDIS_TIMEOUT_MS) and counted alone for a while. */
  readonly fellBack: number;
  readonly statuses: Record<string, number>;
  readonly seconds: number;
}

/** Wrong keys from many addresses, spread over the processes, IN_FLIGHT at a time. */
async function floodWrongKeys(gateways: readonly Service[]): Promise<{ statuses: Record<string, number>; seconds: number }> {
  const statuses: Record<string, number> = {};
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let i = next++; i < WRONG_KEYS; i = next++) {
      const res = await fetch(`${gateways[i % gateways.length]?.url}${DETAIL}`, {
        headers: { Authorization: `Bearer ${(i + 1).toString(16).padStart(40, 'b')}`, 'X-Forwarded-For': `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}` },
      });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return { statuses, seconds: (performance.now() - started) / 1000 };
}

/** Waits until `clients` connections besides this probe are open on the Redis (the gateways connect in the background). */
async function allConnected(redisUrl: string, clients: number): Promise<void> {
  const probe = new Redis(redisUrl);
  try {
    for (let i = 0; i < 200; i++) {
      const list = String(await probe.call('CLIENT', 'LIST'));
      if (list.trim().split('\n').length >= clients + 1) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the gateways did not connect to Redis within 10 s');
  } finally {
    probe.disconnect();
  }
}

async function checkCap(erpUrl: string, proxy: Awaited<ReturnType<typeof countingProxy>>, redisUrl: string | undefined): Promise<CapResult> {
  const env = {
    AUTH_CHECK_LIMIT: String(CHECK_CAP),
    AUTH_FAILURE_LIMIT: '1000000',
    AUTH_NEGATIVE_TTL_MS: '0',
    TRUST_PROXY: 'loopback',
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
  };
  const gateways = await Promise.all(Array.from({ length: PROCESSES }, () => startGateway(erpUrl, env)));
  const fellBack = new Set<number>();
  for (const [i, gateway] of gateways.entries()) gateway.process.stdout?.on('data', (chunk: Buffer) => /Redis unusable/.test(chunk.toString()) && fellBack.add(i));
  try {
    if (redisUrl) await allConnected(redisUrl, PROCESSES);
    proxy.reset();
    const { statuses, seconds } = await floodWrongKeys(gateways);
    // The log is flushed every second.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    return { mode: redisUrl ? `${PROCESSES} processes + Redis` : `${PROCESSES} processes, no Redis`, keyChecks: proxy.keyChecks(), fellBack: fellBack.size, statuses, seconds };
  } finally {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
  }
}

interface CostResult {
  readonly variant: string;
  readonly requests: number;
  readonly rps: number;
  readonly p50: number;
  readonly cpuMsPerRequest: number;
  readonly redisCpuMsPerRequest?: number;
  readonly peakRssMb: number;
  readonly unexpected: number;
}

async function limitCost(memoUrl: string, key: string, redis: { url: string; pid: number }): Promise<CostResult[]> {
  const limits = { RATE_LIMIT_POINTS: '100000000', RATE_LIMIT_WINDOW_SECONDS: '3600' };
  const variants: [string, Record<string, string>][] = [
    ['limits off', {}],
    ['per-key limit in memory', limits],
    ['per-key limit in Redis', { ...limits, REDIS_URL: redis.url }],
  ];
  const gateways = await Promise.all(variants.map(([, env]) => startGateway(memoUrl, env)));
  const totals = variants.map(() => ({ cpu: 0, redisCpu: 0, requests: 0, seconds: 0, p50s: [] as number[], unexpected: 0 }));
  try {
    for (const gateway of gateways)
      await runLoad({ origin: gateway.url, requests: [{ method: 'GET', path: DETAIL, headers: { Authorization: `Bearer ${key}` } }], connections: 4, amount: 2000 });
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, gateway] of gateways.entries()) {
        const pid = gateway.process.pid as number;
        const before = cpuSeconds(pid);
        const redisBefore = cpuSeconds(redis.pid);
        const result = await runLoad({
          origin: gateway.url,
          requests: [{ method: 'GET', path: DETAIL, headers: { Authorization: `Bearer ${key}` } }],
          connections: 4,
          duration: ROUND_SECONDS,
        });
        const total = totals[i] as (typeof totals)[number];
        total.cpu += cpuSeconds(pid) - before;
        total.redisCpu += cpuSeconds(redis.pid) - redisBefore;
        total.requests += result.requests;
        total.seconds += result.seconds;
        total.p50s.push(result.p50);
        total.unexpected += result.errors + Object.entries(result.statuses).reduce((n, [status, count]) => n + (status === '200' ? 0 : count), 0);
      }
    }
    return variants.map(([variant], i) => {
      const total = totals[i] as (typeof totals)[number];
      const sorted = [...total.p50s].sort((a, b) => a - b);
      return {
        variant,
        requests: total.requests,
        rps: total.requests / total.seconds,
        p50: sorted[Math.floor(sorted.length / 2)] as number,
        cpuMsPerRequest: (total.cpu * 1000) / total.requests,
        ...(variant.includes('Redis') ? { redisCpuMsPerRequest: (total.redisCpu * 1000) / total.requests } : {}),
        peakRssMb: memory((gateways[i] as Service).process.pid as number).peakMb,
        unexpected: total.unexpected,
      };
    });
  } finally {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
  }
}

async function main(): Promise<void> {
  const dbPath = join(ROOT, '.sandbox', 'bench-shared.db');
  mkdirSync(join(ROOT, '.sandbox'), { recursive: true });
  initDatabase({ path: dbPath });
  const db = new DatabaseSync(dbPath);
  const keys = createDemoKeys(db, 'sandbox');
  db.close();
  const sandboxPort = await freePort();
  const sandbox = await startService(
    require.resolve('@ops-data-gateway/sandbox/cli'),
    ['serve', '--db', dbPath, '--port', String(sandboxPort)],
    {},
    `http://127.0.0.1:${sandboxPort}`,
    /listening on/,
  );
  const memoPort = await freePort();
  const memo = await startService('bench/memo-erp.js', [String(memoPort), sandbox.url], {}, `http://127.0.0.1:${memoPort}`, /memo erp listening/);
  const proxy = await countingProxy(sandbox.url);
  const redis = await startRedis();
  try {
    const caps = [await checkCap(proxy.url, proxy, redis.url), await checkCap(proxy.url, proxy, undefined)];
    for (const cap of caps) process.stderr.write(`bench-shared: ${cap.mode}: ${cap.keyChecks} key checks at the ERP, ${JSON.stringify(cap.statuses)}\n`);
    const costs = await limitCost(memo.url, keys.valid, redis);
    for (const cost of costs) process.stderr.write(`bench-shared: ${cost.variant}: ${cost.cpuMsPerRequest.toFixed(3)} ms CPU/request\n`);
    const shared = caps[0] as CapResult;
    const target = shared.keyChecks <= CHECK_CAP + PROCESSES - 1;
    const lines = [
      '# Shared state and per-key limits',
      '',
      `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}; ${new Date().toISOString().slice(0, 10)}.`,
      '',
      `## Failed-authentication cap across ${PROCESSES} processes (AUTH_CHECK_LIMIT=${CHECK_CAP}; ${WRONG_KEYS} wrong keys from ${WRONG_KEYS} addresses, ${IN_FLIGHT} in flight)`,
      '',
      '| Processes | Key checks at the ERP | Answers | Processes that fell back to memory | Seconds |',
      '| --- | ---: | --- | ---: | ---: |',
      ...caps.map(
        (cap) =>
          `| ${cap.mode} | ${cap.keyChecks} | ${Object.entries(cap.statuses)
            .map(([status, count]) => `${count} × ${status}`)
            .join(', ')} | ${cap.mode.includes('Redis') ? cap.fellBack : '–'} | ${cap.seconds.toFixed(1)} |`,
      ),
      '',
      `Target: with Redis at most ${CHECK_CAP} + ${PROCESSES} − 1 = ${CHECK_CAP + PROCESSES - 1} key checks: ${target ? 'met' : 'MISSED'} (${shared.keyChecks}).`,
      '',
      `## CPU a per-key limit adds (ERP answers from memory, ${DETAIL}, 4 connections, ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s)`,
      '',
      '| Variant | Requests | req/s | p50 ms | Gateway CPU ms/req | redis-server CPU ms/req | Gateway peak RSS MB | Unexpected |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...costs.map(
        (cost) =>
          `| ${cost.variant} | ${cost.requests} | ${cost.rps.toFixed(0)} | ${cost.p50.toFixed(2)} | ${cost.cpuMsPerRequest.toFixed(3)} | ${cost.redisCpuMsPerRequest === undefined ? '–' : cost.redisCpuMsPerRequest.toFixed(3)} | ${cost.peakRssMb.toFixed(1)} | ${cost.unexpected} |`,
      ),
      '',
    ];
    const markdown = lines.join('\n');
    const out = join(ROOT, 'bench', 'results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'shared-state.json'), `${JSON.stringify({ caps, costs }, null, 2)}\n`);
    writeFileSync(join(out, 'shared-state.md'), markdown);
    process.stdout.write(markdown);
    if (!target) process.exitCode = 1;
  } finally {
    await redis.stop();
    await proxy.close();
    await memo.stop();
    await sandbox.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench-shared: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
