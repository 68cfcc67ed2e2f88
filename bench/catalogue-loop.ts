/**
 * @module `make bench-catalogue`: how fast a catalogue change is served, and what it costs the clients
 * (BENCHMARKS.md, "Catalogue changes"). On a temporary copy of the catalogue, never the project's.
 *
 * 1. The dev loop (`make dev`): the launcher on the sandbox; EDITS saves, each exposing one more field
 *    of the vehicles; for each, the time from the save to the first answer that carries the new field
 *    (a poller asks for that field every 20 ms: 400 until it is served). Then a broken save, whose
 *    error must be printed while the last good version serves. LOAD_CONNECTIONS keep-alive clients
 *    loop on the list route throughout: every answer must be a 200.
 * 2. The production reload: WORKERS=2 from a release bundle, RELOAD_CONNECTIONS keep-alive clients for
 *    RELOAD_SECONDS; midway the bundle is replaced by one built from a catalogue with one more field and
 *    the primary gets SIGHUP. Counted: failed requests (status other than 200, connection errors),
 *    cut answers (a body that is not whole JSON), answers carrying the new field after the reload.
 *
 * Usage: node dist/bench/catalogue-loop.js [--dev] [--reload]   (both without a flag)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { startSandbox } from '@ops-data-gateway/sandbox/http/start-sandbox';
import { createDemoKeys } from '@ops-data-gateway/sandbox/security/demo-keys';
import { GATEWAY_LOGIN } from '@ops-data-gateway/sandbox/seed/security';
import { initDatabase } from '@ops-data-gateway/sandbox/seed/init';
import { ROOT } from './processes';
import { startDevLauncher } from '../tests/support/dev-launcher';
import { freePort } from '../tests/support/free-port';

const EDITS = 10;
const LOAD_CONNECTIONS = 4;
const RELOAD_CONNECTIONS = 32;
const RELOAD_SECONDS = 30;
const LIST = '/api/v1/fleet/vehicles?limit=5&total=false';
const SEATS = /^ {6}seats: .*\n/m;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean | Promise<boolean>, limitMs: number, what: string, stepMs = 20): Promise<void> {
  const end = performance.now() + limitMs;
  while (!(await condition())) {
    if (performance.now() > end) throw new Error(`${what}: not within ${limitMs} ms`);
    await sleep(stepMs);
  }
}

interface Load {
  readonly ok: () => number;
  readonly failures: string[];
  readonly cut: () => number;
  /** Answers whose every record carries `field`. */
  carrying(field: string): number;
  stop(): Promise<void>;
}

/** `connections` keep-alive clients (fetch) asking LIST in a loop. */
function startLoad(url: string, key: string, connections: number, fields: readonly string[] = []): Load {
  let running = true;
  let ok = 0;
  let cut = 0;
  const failures: string[] = [];
  const carrying = new Map<string, number>(fields.map((field) => [field, 0]));
  const loop = async () => {
    while (running) {
      try {
        const response = await fetch(`${url}${LIST}`, { headers: { authorization: `Bearer ${key}` } });
        const body = await response.text();
        if (response.status !== 200) {
          failures.push(`${response.status} ${body.slice(0, 160)}`);
          continue;
        }
        let records: Record<string, unknown>[];
        try {
          records = (JSON.parse(body) as { data: Record<string, unknown>[] }).data;
        } catch {
          cut++;
          continue;
        }
        ok++;
        for (const field of fields) if (records.length && records.every((record) => field in record)) carrying.set(field, (carrying.get(field) ?? 0) + 1);
      } catch (error) {
        failures.push(`fetch: ${String((error as Error).cause ?? error)}`);
      }
    }
  };
  const loops = Array.from({ length: connections }, loop);
  return {
    ok: () => ok,
    failures,
    cut: () => cut,
    carrying: (field) => carrying.get(field) ?? 0,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;

async function devLoop(): Promise<void> {
  const dev = await startDevLauncher(ROOT, 'bench-dev');
  const { process: launcher, stdout, stderr, url, fleet } = dev;
  try {
    await until(dev.watching, 120000, 'the dev loop started');
    const key = dev.key();
    const load = startLoad(url, key, LOAD_CONNECTIONS);
    await until(() => load.ok() > 20, 20000, 'the first answers');

    let text = readFileSync(fleet, 'utf8');
    const times: number[] = [];
    for (let i = 1; i <= EDITS; i++) {
      const field = `bench_${i}`;
      text = text.replace(SEATS, (line) => `${line}      ${field}: { type: string, description: Bench field ${i}., erp: color }\n`);
      const saved = performance.now();
      writeFileSync(fleet, text);
      await until(
        async () => (await fetch(`${url}/api/v1/fleet/vehicles?limit=1&total=false&fields=${field}`, { headers: { authorization: `Bearer ${key}` } })).status === 200,
        60000,
        `${field} served`,
      );
      times.push(performance.now() - saved);
      const said = stdout.filter((line) => line.startsWith('fleet.yaml: served')).at(-1);
      process.stdout.write(`edit ${i}: served ${Math.round(times.at(-1) as number)} ms after the save (launcher: ${said?.replace(/^fleet\.yaml: /, '')})\n`);
      // Let the changelog of this save (Redocly's diff, after the swap) end before the next save.
      await until(() => stdout.some((line, at) => at > stdout.lastIndexOf(said ?? '') && line.startsWith('API changes')), 30000, 'the changelog');
    }
    const broken = performance.now();
    writeFileSync(fleet, text.replace('description: Bench field 1., erp: color }', 'description: Bench field 1., erp: color, typ: string }'));
    await until(() => stderr.some((line) => line.includes('not served; the gateway keeps serving the last good catalogue')), 30000, 'the broken save reported');
    const reported = performance.now() - broken;
    const errorLine = stderr.find((line) => line.includes("unknown key 'typ'"));
    const before = load.ok();
    await until(() => load.ok() > before + 20, 20000, 'answers after the broken save');
    await load.stop();
    const sorted = [...times].sort((a, b) => a - b);
    process.stdout.write(
      [
        '',
        `dev loop, ${EDITS} saves (a new field each): save to first answer carrying it p50 ${Math.round(percentile(sorted, 50))} ms, p90 ${Math.round(percentile(sorted, 90))} ms, max ${Math.round(sorted.at(-1) as number)} ms`,
        `broken save reported after ${Math.round(reported)} ms: ${errorLine}`,
        `load during the saves (${LOAD_CONNECTIONS} keep-alive clients): ${load.ok()} answers 200, ${load.failures.length} failed, ${load.cut()} cut${load.failures.length ? `: ${load.failures.slice(0, 5).join('; ')}` : ''}`,
        `load average at the end: ${loadavg()
          .map((value) => value.toFixed(1))
          .join(' ')}`,
        '',
      ].join('\n'),
    );
  } finally {
    launcher.kill('SIGTERM');
    await sleep(1000);
    dev.cleanUp();
  }
}

async function reload(): Promise<void> {
  const dir = mkdtempSync(join(ROOT, 'dist', 'bench-reload-'));
  let gateway: ChildProcess | undefined;
  const closers: (() => Promise<void>)[] = [];
  try {
    const bundle = join(dir, 'gateway.js');
    copyFileSync(join(ROOT, 'packages', 'gateway', 'release', 'gateway.js'), bundle);
    cpSync(join(ROOT, 'catalogue'), join(dir, 'catalogue'), { recursive: true });
    cpSync(join(ROOT, 'packages', 'gateway', 'generated'), join(dir, 'generated'), { recursive: true });
    const fleet = join(dir, 'catalogue', 'fleet.yaml');
    writeFileSync(
      fleet,
      readFileSync(fleet, 'utf8').replace(SEATS, (line) => `${line}      color: { type: string, description: Colour of the vehicle., erp: color }\n`),
    );
    const built = performance.now();
    execFileSync(process.execPath, [join(ROOT, 'dist', 'codegen', 'index.js'), '--catalogue', join(dir, 'catalogue'), '--out', join(dir, 'generated')]);
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle-release.mjs'), join(dir, 'next'), '--generated', join(dir, 'generated')]);
    const buildMs = performance.now() - built;

    const dbPath = join(dir, 'sandbox.db');
    initDatabase({ path: dbPath });
    const sandbox = await startSandbox({ dbPath });
    closers.push(() => sandbox.close());
    const db = new DatabaseSync(dbPath);
    const key = createDemoKeys(db, sandbox.database).valid;
    db.close();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const log: string[] = [];
    gateway = spawn(process.execPath, ['--max-semi-space-size=4', '--max-old-space-size=256', bundle], {
      env: {
        PATH: process.env['PATH'] ?? '',
        HOST: '127.0.0.1',
        PORT: String(port),
        WORKERS: '2',
        ERP_URL: sandbox.url,
        ERP_DATABASE: sandbox.database,
        ERP_LOGIN: GATEWAY_LOGIN,
        ERP_TRANSPORT: 'json2',
        // As in production: the reload's own lines are at info.
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // Only the reload's lines are kept (one access line per request besides).
    let rest = '';
    gateway.stdout?.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      log.push(...lines.filter((line) => line.includes('"msg":"reload')));
    });
    await until(async () => (await fetch(`${url}/healthz`).catch(() => undefined))?.ok === true, 60000, 'the gateway started');
    const load = startLoad(url, key, RELOAD_CONNECTIONS, ['color']);
    const started = performance.now();
    await sleep((RELOAD_SECONDS * 1000) / 3);
    copyFileSync(join(dir, 'next', 'gateway.js'), `${bundle}.next`);
    renameSync(`${bundle}.next`, bundle);
    const signalled = performance.now();
    gateway.kill('SIGHUP');
    let reloadedMs = Number.NaN;
    const done = (async () => {
      await until(() => log.some((line) => line.includes('reload done')), RELOAD_SECONDS * 1000, 'the reload');
      reloadedMs = performance.now() - signalled;
    })();
    await sleep(Math.max(0, RELOAD_SECONDS * 1000 - (performance.now() - started)));
    await load.stop();
    await done;
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(
      [
        '',
        `reload under load: WORKERS=2, ${RELOAD_CONNECTIONS} keep-alive connections for ${seconds.toFixed(1)} s, SIGHUP at ${((signalled - started) / 1000).toFixed(1)} s`,
        `  new build (generate + bundle): ${Math.round(buildMs)} ms; SIGHUP to both workers replaced: ${Math.round(reloadedMs)} ms`,
        `  ${load.ok()} answers 200 (${Math.round(load.ok() / seconds)}/s), ${load.failures.length} failed, ${load.cut()} cut; ${load.carrying('color')} carried the new field${load.failures.length ? `: ${load.failures.slice(0, 5).join('; ')}` : ''}`,
        `  load average at the end: ${loadavg()
          .map((value) => value.toFixed(1))
          .join(' ')}`,
        '',
      ].join('\n'),
    );
    if (load.failures.length || load.cut() || load.carrying('color') === 0) process.exitCode = 1;
  } finally {
    gateway?.kill('SIGTERM');
    await sleep(2000);
    for (const close of closers) await close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(argv: readonly string[]): Promise<void> {
  const both = !argv.includes('--dev') && !argv.includes('--reload');
  if (both || argv.includes('--dev')) await devLoop();
  if (both || argv.includes('--reload')) await reload();
}

void main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
