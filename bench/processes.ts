/**
 * @module Child processes of the benchmark (sandbox ERP, gateways, load generator) and what is read
 * of them from /proc: CPU time (user + system) and resident memory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { LoadResult, LoadSpec } from './load-generator';

export const ROOT = join(__dirname, '..', '..');
const DIST = join(ROOT, 'dist');
/** The built gateway (`make build` compiles the gateway package into its own dist/). */
export const GATEWAY_MAIN = join(ROOT, 'packages', 'gateway', 'dist', 'runtime', 'main.js');
/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

export interface Service {
  readonly process: ChildProcess;
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts a Node script (a path under dist/, or an absolute one) and resolves once a line of its output matches `ready`. */
/** V8 flags the gateway runs with (docs/production.md, "Running in production"): a small young generation keeps RSS flat. */
export const GATEWAY_NODE_FLAGS = ['--max-semi-space-size=4', '--max-old-space-size=256'];

export function startService(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
  url: string,
  ready: RegExp,
  nodeFlags: readonly string[] = [],
): Promise<Service> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', ...nodeFlags, isAbsolute(script) ? script : join(DIST, script), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (ready.test(seen)) {
        child.stdout?.off('data', onData);
        // Keep draining the pipes so the child never blocks on a full one.
        child.stdout?.resume();
        child.stderr?.resume();
        resolve({
          process: child,
          url,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (seen += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before it was ready:\n${seen.slice(-2000)}`)));
  });
}

/** User + system CPU seconds of a process so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Resident set size now, and its peak, in MB. */
export function memory(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/** Runs the load generator in its own process. */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const child = spawn(process.execPath, [join(DIST, 'bench', 'load-generator.js'), JSON.stringify(spec)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator failed (${code}): ${err}`));
      resolve(JSON.parse(out.trim().split('\n').pop() as string) as LoadResult);
    });
  });
}

/** The ERP account a measured gateway reads with: the live scripts' LIVE_ERP_* settings, or the feed bench's. */
export interface GatewayAccount {
  readonly database: string;
  readonly login: string;
  readonly apiGroup?: string;
}

/**
 * The production gateway process the benches and live scripts measure (bench/feed-cost.ts,
 * live/dashboard.ts, live/watch-mix.ts, live/cache-watch.ts): JSON-2 to `erpUrl` (an ERP, or a
 * counting proxy in front of it) as `account`, no drift check, production V8 flags.
 */
export function startMeasuredGateway(account: GatewayAccount, erpUrl: string, port: number, extra: Readonly<Record<string, string>> = {}): Promise<Service> {
  const env = {
    ERP_URL: erpUrl,
    ERP_DATABASE: account.database,
    ERP_LOGIN: account.login,
    ERP_TRANSPORT: 'json2',
    DRIFT_CHECK: 'off',
    PORT: String(port),
    LOG_LEVEL: 'info',
    ...(account.apiGroup ? { ERP_API_GROUP: account.apiGroup } : {}),
    ...extra,
  };
  return startService(GATEWAY_MAIN, [], env, `http://127.0.0.1:${port}`, /gateway listening/, GATEWAY_NODE_FLAGS);
}
