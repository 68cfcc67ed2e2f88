/**
 * The gateway as it runs in production: `node packages/gateway/dist/runtime/main.js` in its own process, configured by
 * environment, on a free loopback port. Used where the process itself is under test (its memory,
 * its signals). `make test` builds dist/ before jest runs; a missing build fails with the command
 * that makes it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../support/free-port';

const GATEWAY_MAIN = join(__dirname, '..', '..', '..', 'packages', 'gateway', 'dist', 'runtime', 'main.js');

export interface GatewayProcess {
  readonly pid: number;
  readonly url: string;
  /** Every line the process wrote to stdout (its JSON log) and stderr, in order. */
  readonly stdout: string[];
  readonly stderr: string[];
  /** Settles when the process exits. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): void;
}

export async function startGatewayProcess(
  env: Readonly<Record<string, string>>,
  /** Until /healthz answers: a second alone, but tens of seconds on a machine loaded by other suites. */
  startLimitMs = 45000,
  /** The compiled entry point; another one than dist/'s, e.g. an installed release. */
  main = GATEWAY_MAIN,
): Promise<GatewayProcess> {
  if (!existsSync(main)) throw new Error(`${main} is missing: run 'make build' (make test does) before these tests`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [main], {
    // Only what the gateway needs: nothing of the test runner's environment leaks into its settings.
    env: { PATH: process.env['PATH'] ?? '', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const collect = (into: string[]) => {
    let rest = '';
    return (chunk: Buffer) => {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      into.push(...lines.filter((line) => line !== ''));
    };
  };
  child.stdout?.on('data', collect(stdout));
  child.stderr?.on('data', collect(stderr));
  const kill = (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  // Ready once /healthz answers (whatever the log level, which may hide the "listening" line).
  const until = performance.now() + startLimitMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the gateway exited (${child.exitCode}) before listening: ${stderr.join('\n')}`);
    const ready = await fetch(`${url}/healthz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    if (performance.now() > until) {
      kill('SIGKILL');
      throw new Error(`the gateway did not start within ${startLimitMs} ms: ${stderr.join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { pid: child.pid as number, url, stdout, stderr, exited, kill };
}

/** Resident memory of a process, in MB (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]) / 1024;
}
