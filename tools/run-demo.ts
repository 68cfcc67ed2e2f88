/**
 * @module `make run` and `make dev`: the gateway on the sandbox ERP, in one command. Initialises the
 * sandbox database on the first run (and reuses it after, unless an older sandbox made it), starts the
 * sandbox, builds what the catalogue and the runtime need (tools/dev/build-gateway.ts: the generated
 * tree and the gateway bundle, each skipped when nothing changed), starts the gateway (a bundle run as
 * production runs it, configured by environment: tools/dev/gateway-worker.ts), prints the base URL and a
 * fresh demo key, and stops both on Ctrl-C or SIGTERM.
 *
 * `--watch` (`make dev`) also watches the catalogue: on each save it validates and regenerates, bundles
 * again, starts a new gateway beside the one serving and retires the old one once the new one listens
 * (the port answers throughout). A catalogue error is printed with its file, line, key and what is
 * allowed there, and the last good gateway keeps serving; what changed in the API is printed after.
 *
 * Options (for tests and the benchmark): `--catalogue DIR`, `--generated DIR`, `--out DIR` (the
 * bundle), `--sandbox-db FILE`.
 */
import type { Worker } from 'node:cluster';
import { existsSync, mkdirSync, watch } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { dirname, join, resolve } from 'node:path';
import { startSandbox } from '@ops-data-gateway/sandbox/http/start-sandbox';
import { createDemoKeys } from '@ops-data-gateway/sandbox/security/demo-keys';
import { GATEWAY_LOGIN } from '@ops-data-gateway/sandbox/seed/security';
import { initDatabase, isCurrentDatabase } from '@ops-data-gateway/sandbox/seed/init';
import { CatalogueErrors, formatCatalogueError } from '../codegen/catalogue-error';
import { apiChangeLines } from '../codegen/changes/api-changes';
import { GatewayBuilder, type BuildReport } from './dev/build-gateway';
import { Gateways, retireGateway, stopGateway } from './dev/gateway-worker';

/** The project's root: this file runs bundled from dist/run/ (scripts/bundle-tools.mjs). */
const root = resolve(__dirname, '..', '..');
/** Saves closer together than this (an editor writing a file in steps) make one rebuild. */
const SETTLE_MS = 40;

function port(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]+$/.test(raw) || Number(raw) > 65535) {
    process.stderr.write(`make run: ${name} must be a port number (got '${raw}')\n`);
    process.exit(1);
  }
  return Number(raw);
}

function option(argv: readonly string[], flag: string, fallback: string): string {
  const at = argv.indexOf(flag);
  const value = at >= 0 ? argv[at + 1] : undefined;
  return value === undefined ? fallback : resolve(value);
}

const ms = (value: number | undefined) => (value === undefined ? 'skipped' : `${Math.round(value)} ms`);

async function main(argv: readonly string[]): Promise<void> {
  const started = performance.now();
  const watching = argv.includes('--watch');
  const gatewayPort = port('PORT', 8080);
  const sandboxPort = port('SANDBOX_PORT', 8069);
  const catalogueDir = option(argv, '--catalogue', join(root, 'catalogue'));
  const dbPath = option(argv, '--sandbox-db', join(root, '.sandbox', 'demo.db'));
  const builder = new GatewayBuilder({
    root,
    catalogueDir,
    generatedDir: option(argv, '--generated', join(root, 'packages', 'gateway', 'generated')),
    outDir: option(argv, '--out', join(root, 'dist', 'run')),
  });

  let built: BuildReport;
  try {
    built = await builder.build();
  } catch (error) {
    process.stderr.write(`${describe(error)}\n`);
    process.exit(1);
  }
  process.stdout.write(`built: generate ${ms(built.generateMs)}, bundle ${ms(built.bundleMs)}\n`);

  const stale = existsSync(dbPath) && !isCurrentDatabase(dbPath);
  if (!existsSync(dbPath) || stale) {
    mkdirSync(dirname(dbPath), { recursive: true });
    const report = initDatabase({ path: dbPath });
    process.stdout.write(`sandbox database ${stale ? 're-created (made by an older sandbox)' : 'created'}: ${dbPath} (${Math.round(report.durationMs)} ms)\n`);
  }
  const sandbox = await startSandbox({ dbPath, port: sandboxPort });
  const db = new DatabaseSync(dbPath);
  const keys = createDemoKeys(db, sandbox.database);
  db.close();

  const baseUrl = `http://127.0.0.1:${gatewayPort}`;
  const env = {
    HOST: '127.0.0.1',
    PORT: String(gatewayPort),
    ERP_URL: sandbox.url,
    ERP_DATABASE: sandbox.database,
    ERP_LOGIN: GATEWAY_LOGIN,
    LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'info',
  };
  const gateways = new Gateways(env);
  let gateway: Worker;
  try {
    gateway = await gateways.start(built.bundle);
  } catch (error) {
    process.stderr.write(`make run: ${describe(error)}\n`);
    await sandbox.close();
    process.exit(1);
  }
  process.stdout.write(
    [
      '',
      'ops-data-gateway on the sandbox ERP',
      `  base URL  ${baseUrl}`,
      `  API key   ${keys.valid}`,
      `  docs      ${baseUrl}/api/docs`,
      `  MCP       ${baseUrl}/mcp  (or: GATEWAY_URL=${baseUrl} API_KEY=... npm run mcp)`,
      `  sandbox   ${sandbox.url} (Odoo ${sandbox.version}.0 imitation, database "${sandbox.database}")`,
      '',
      `  export API_KEY=${keys.valid}`,
      `  curl -s -H "Authorization: Bearer $API_KEY" '${baseUrl}/api/v1/fleet/vehicles?limit=2&total=false&fields=plate,model,fuel_type'`,
      '',
      'Ctrl-C stops both.',
      `(ready ${Math.round(performance.now() - started)} ms after the launcher started)`,
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    watcher?.close();
    gateways.dispose();
    await stopGateway(gateway);
    await builder.dispose();
    await sandbox.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  // A gateway that dies on its own (not retired by a reload) ends the run, as `make run` always did.
  const watchExit = (worker: Worker) =>
    worker.once('exit', (code) => {
      if (stopping || worker !== gateway) return;
      process.stderr.write(`make run: the gateway exited (code ${code})\n`);
      void sandbox.close().then(() => process.exit(code || 1));
    });
  watchExit(gateway);

  let watcher: ReturnType<typeof watch> | undefined;
  if (!watching) return;
  await builder.warm();
  gateways.prepare(built.bundle);

  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let pending: { at: number; file: string } | undefined;
  const reload = async () => {
    if (running || !pending) return;
    running = true;
    const { at, file } = pending;
    pending = undefined;
    try {
      const report = await builder.build();
      if (report.bundleMs === undefined && report.generateMs !== undefined) {
        process.stdout.write(`${file}: saved, nothing the gateway serves changed\n`);
      } else if (report.bundleMs !== undefined) {
        const next = await gateways.start(report.bundle);
        const old = gateway;
        gateway = next;
        watchExit(next);
        void retireGateway(old);
        gateways.prepare(report.bundle);
        process.stdout.write(
          `${file}: served ${Math.round(performance.now() - at)} ms after the save (generate ${ms(report.generateMs)}, bundle ${ms(report.bundleMs)}, start the rest)\n`,
        );
        if (report.openapi) process.stdout.write(`${(await apiChangeLines(report.openapi.before, report.openapi.after)).join('\n')}\n`);
      }
    } catch (error) {
      process.stderr.write(`${describe(error)}\n${file}: not served; the gateway keeps serving the last good catalogue\n`);
    } finally {
      running = false;
      if (pending) void reload();
    }
  };
  watcher = watch(catalogueDir, (_event, name) => {
    if (!name || !/\.(ya?ml|json)$/.test(name)) return;
    pending = { at: pending?.at ?? performance.now(), file: name };
    clearTimeout(timer);
    timer = setTimeout(() => void reload(), SETTLE_MS);
  });
  process.stdout.write(`watching ${catalogueDir}: each save is served in seconds\n`);
}

function describe(error: unknown): string {
  if (error instanceof CatalogueErrors) return error.errors.map(formatCatalogueError).join('\n');
  return error instanceof Error ? error.message : String(error);
}

void main(process.argv.slice(2));
