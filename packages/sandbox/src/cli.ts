/**
 * @module The sandbox ERP's command line (`npm run sandbox -- <command>`):
 *
 * - `init [--db PATH] [--seed N] [--scale MODEL=ROWS ...]` creates and seeds the database;
 * - `serve [--db PATH] [--port P] [--host H] [--odoo-version 17|18|19] [--database NAME]` serves it,
 *   `--remove-model M`, `--remove-field M.F`, `--add-selection M.F=V` (repeatable) serve it drifted;
 * - `key --login LOGIN [--name NAME] [--expires YYYY-MM-DD]` prints a new API key once;
 * - `demo-keys --json` prints fresh keys for the demo users as one JSON line.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startSandbox, DEFAULT_DATABASE_NAME } from './http/start-sandbox';
import { RegistryDriftError } from './orm/registry-drift';
import type { OdooVersion } from './orm/types';
import { ApiKeys } from './security/api-keys';
import { findUserByLogin, initDatabase } from './seed/init';
import { createDemoKeys } from './security/demo-keys';
import { openDatabase, type Database } from './store/database';

const USAGE = `usage: npm run sandbox -- <command> [options]

commands:
  init       [--db PATH] [--seed N] [--scale MODEL=ROWS ...]   create and seed the database
  serve      [--db PATH] [--port P] [--host 127.0.0.1] [--odoo-version 17|18|19] [--database NAME]
             [--remove-model MODEL ...] [--remove-field MODEL.FIELD ...] [--add-selection MODEL.FIELD=VALUE ...]
  key        --login LOGIN [--name NAME] [--expires YYYY-MM-DD] [--db PATH]
             print a new API key (expiring at 00:00 UTC that day) alone on the last line
  demo-keys  --json [--db PATH] [--database NAME]             print fresh demo keys as one JSON line

--db defaults to .sandbox/demo.db under the project root; --database to "${DEFAULT_DATABASE_NAME}".`;

/** Raised for a command line that cannot be run; printed with the usage, exit status 2. */
class UsageError extends Error {}

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'init':
        return runInit(rest);
      case 'serve':
        return await runServe(rest);
      case 'key':
        return runKey(rest);
      case 'demo-keys':
        return runDemoKeys(rest);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        console.log(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    }
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof RegistryDriftError) && !isParseArgsError(error)) throw error;
    console.error(`sandbox: ${error instanceof RegistryDriftError ? `drift: ${error.message}` : error.message}\n\n${USAGE}`);
    return 2;
  }
}

function runInit(args: readonly string[]): number {
  // `--scale a=1 --scale b=2` and `--scale a=1 b=2` both work: extra MODEL=ROWS words are positionals.
  const { values, positionals } = parseArgs({
    args: [...args],
    options: { db: { type: 'string' }, seed: { type: 'string' }, scale: { type: 'string', multiple: true } },
    allowPositionals: true,
    strict: true,
  });
  const dbPath = databasePath(values.db);
  const scale: Record<string, number> = {};
  for (const item of [...(values.scale ?? []), ...positionals]) {
    const m = /^([\w.]+)=(\d+)$/.exec(item);
    if (!m?.[1] || !m[2]) throw new UsageError(`--scale takes MODEL=ROWS, not ${JSON.stringify(item)}`);
    scale[m[1]] = Number(m[2]);
  }
  const seed = values.seed === undefined ? undefined : positiveInteger('--seed', values.seed);
  mkdirSync(dirname(dbPath), { recursive: true });
  const report = initDatabase({ path: dbPath, ...(seed === undefined ? {} : { seed }), scale });
  const rows = Object.values(report.rows).reduce((sum, n) => sum + n, 0);
  console.log(`sandbox: ${dbPath} ready (seed ${report.seed}, ${rows} rows, ${Math.round(report.durationMs)} ms)`);
  return 0;
}

async function runServe(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      db: { type: 'string' },
      port: { type: 'string', default: '8069' },
      host: { type: 'string', default: '127.0.0.1' },
      'odoo-version': { type: 'string', default: '19' },
      database: { type: 'string', default: DEFAULT_DATABASE_NAME },
      'remove-model': { type: 'string', multiple: true },
      'remove-field': { type: 'string', multiple: true },
      'add-selection': { type: 'string', multiple: true },
    },
    strict: true,
  });
  const dbPath = databasePath(values.db);
  if (!existsSync(dbPath)) throw new UsageError(`no database at ${dbPath}: run "npm run sandbox -- init" first`);
  const drift = {
    removeModels: values['remove-model'] ?? [],
    removeFields: values['remove-field'] ?? [],
    addSelectionValues: values['add-selection'] ?? [],
  };
  const drifted = drift.removeModels.length + drift.removeFields.length + drift.addSelectionValues.length > 0;
  const sandbox = await startSandbox({
    ...(drifted ? { drift } : {}),
    dbPath,
    port: portNumber(values.port),
    host: values.host,
    version: odooVersion(values['odoo-version']),
    database: values.database,
  });
  console.log(`sandbox ERP (Odoo ${sandbox.version}.0, database "${sandbox.database}") listening on ${sandbox.url}`);
  await new Promise<void>((done) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void sandbox.close().then(done);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return 0;
}

function runKey(args: readonly string[]): number {
  const { values } = parseArgs({
    args: [...args],
    options: { db: { type: 'string' }, login: { type: 'string' }, name: { type: 'string' }, expires: { type: 'string' } },
    strict: true,
  });
  if (!values.login) throw new UsageError('key needs --login LOGIN');
  const expiresAt = values.expires === undefined ? null : expiryDate(values.expires);
  const login = values.login;
  withDatabase(values.db, (db) => {
    const user = findUserByLogin(db, login);
    if (!user?.active) throw new UsageError(`no active user with login ${JSON.stringify(login)}`);
    // The version only matters when keys are verified, not when they are made.
    console.log(new ApiKeys(db, { version: 19 }).generateKey(user.id, values.name ?? 'sandbox CLI', expiresAt));
  });
  return 0;
}

function runDemoKeys(args: readonly string[]): number {
  const { values } = parseArgs({
    args: [...args],
    options: { db: { type: 'string' }, json: { type: 'boolean', default: false }, database: { type: 'string', default: DEFAULT_DATABASE_NAME } },
    strict: true,
  });
  if (!values.json) throw new UsageError('demo-keys prints JSON only: pass --json');
  withDatabase(values.db, (db) => {
    console.log(JSON.stringify(createDemoKeys(db, values.database)));
  });
  return 0;
}

/** Opens an initialised store for key management, and closes it after. */
function withDatabase(dbOption: string | undefined, use: (db: Database) => void): void {
  const dbPath = databasePath(dbOption);
  if (!existsSync(dbPath)) throw new UsageError(`no database at ${dbPath}: run "npm run sandbox -- init" first`);
  const db = openDatabase(dbPath);
  try {
    use(db);
  } finally {
    db.close();
  }
}

/** node:util parseArgs refuses unknown options and missing values with these codes. */
function isParseArgsError(error: unknown): error is Error {
  // Duck-typed: a node built-in error need not share this realm's `Error` (jest's vm, for one).
  return typeof error === 'object' && error !== null && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS');
}

function databasePath(option: string | undefined): string {
  return option === undefined ? join(projectRoot(), '.sandbox', 'demo.db') : resolve(option);
}

/**
 * The project's root: the nearest directory above this file whose package.json declares the
 * workspaces (works from sources and dist/), so that `.sandbox/` is the one `make run` uses.
 */
function projectRoot(): string {
  let dir = __dirname;
  while (!isWorkspaceRoot(dir)) {
    const parent = dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

function isWorkspaceRoot(dir: string): boolean {
  const manifest = join(dir, 'package.json');
  return existsSync(manifest) && 'workspaces' in (JSON.parse(readFileSync(manifest, 'utf8')) as object);
}

function odooVersion(text: string): OdooVersion {
  if (text === '17' || text === '18' || text === '19') return Number(text) as OdooVersion;
  throw new UsageError(`--odoo-version takes 17, 18 or 19, not ${JSON.stringify(text)}`);
}

function portNumber(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 65_535) throw new UsageError(`--port takes 0 to 65535, not ${JSON.stringify(text)}`);
  return Number(text);
}

function positiveInteger(option: string, text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new UsageError(`${option} takes a positive integer, not ${JSON.stringify(text)}`);
  return Number(text);
}

/** `YYYY-MM-DD` → that day at 00:00 UTC (the key works until then). */
function expiryDate(text: string): Date {
  const date = new Date(`${text}T00:00:00Z`);
  if (!/^\d{4}-\d\d-\d\d$/.test(text) || Number.isNaN(date.getTime())) throw new UsageError(`--expires takes YYYY-MM-DD, not ${JSON.stringify(text)}`);
  return date;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (status) => {
      process.exitCode = status;
    },
    (error: unknown) => {
      console.error('sandbox:', error);
      process.exitCode = 1;
    },
  );
}
