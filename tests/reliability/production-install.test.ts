/**
 * What an operator does (README, "Running in production"): from a plain clone, `npm ci --omit=dev`
 * (the production dependencies only) and `node release/gateway.js`. The clone here is the
 * repository's files as git has them (tracked and new, not ignored), copied from the working tree so
 * that the test proves the code beside it. The committed bundle must be what `make release` builds
 * from the sources now, or a clone would run stale code.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { createDriftDatabase, gatewayEnv, type DriftDatabase } from '../drift/support/drift-sandbox';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const PRODUCTION_DEPENDENCIES = ['ajv', 'express', 'pino', 'undici'];
const DEVELOPMENT_TOOLS = ['typescript', 'jest', 'ts-morph', 'esbuild', '@biomejs/biome', 'dependency-cruiser', 'knip', 'yaml', 'supertest'];
/** The production heap bounds of the documented command. */
const PRODUCTION_NODE_OPTIONS = '--max-semi-space-size=4 --max-old-space-size=256';

let clone: string;
let rebuilt: string;
let database: DriftDatabase;
let gateway: GatewayProcess | undefined;

beforeAll(async () => {
  rebuilt = join(mkdtempSync(join(tmpdir(), 'odg-bundle-')), 'gateway.js');
  await run(process.execPath, [join(ROOT, 'scripts', 'bundle-release.mjs'), rebuilt], { cwd: ROOT });
  clone = mkdtempSync(join(tmpdir(), 'odg-clone-'));
  const { stdout } = await run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, maxBuffer: 64 << 20 });
  for (const file of stdout.split('\0').filter((name) => name && existsSync(join(ROOT, name)))) {
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    cpSync(join(ROOT, file), join(clone, file));
  }
  // From npm's cache where it can (make test installed every package moments ago).
  await run('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: clone, timeout: 240_000 });
  database = createDriftDatabase();
}, 300_000);

afterAll(async () => {
  gateway?.kill();
  await gateway?.exited;
  await database?.close();
  rmSync(clone, { recursive: true, force: true });
  rmSync(dirname(rebuilt), { recursive: true, force: true });
});

describe('a clone installed with npm ci --omit=dev', () => {
  it('carries release/gateway.js exactly as make release builds it from the sources now', () => {
    expect(readFileSync(join(ROOT, 'release', 'gateway.js'), 'utf8') === readFileSync(rebuilt, 'utf8')).toBe(true);
  });

  it('holds the production dependencies and none of the development tools', () => {
    const installed = new Set(
      readdirSync(join(clone, 'node_modules')).flatMap((name) =>
        name.startsWith('@') ? readdirSync(join(clone, 'node_modules', name)).map((inner) => `${name}/${inner}`) : [name],
      ),
    );
    expect(PRODUCTION_DEPENDENCIES.filter((name) => !installed.has(name))).toEqual([]);
    expect(DEVELOPMENT_TOOLS.filter((name) => installed.has(name))).toEqual([]);
    // Nothing compiled: the clone has no dist/ of its own or of a workspace package.
    expect(['dist', 'packages/codec/dist', 'packages/sandbox/dist'].filter((path) => existsSync(join(clone, path)))).toEqual([]);
  });

  // Over XML-RPC: the transport that needs the wire codec, which the bundle carries inside.
  it('serves with the documented command', async () => {
    const sandbox = await database.serve();
    const env = { ...gatewayEnv(sandbox, { ERP_PUBLIC_URL: 'https://erp.example.test', ERP_TRANSPORT: 'xmlrpc' }), NODE_OPTIONS: PRODUCTION_NODE_OPTIONS };
    gateway = await startGatewayProcess(env, 15000, join(clone, 'release', 'gateway.js'));
    const answer = await fetch(`${gateway.url}/api/v1/fleet/vehicles?limit=2&fields=id,plate`, { headers: { Authorization: `Bearer ${database.keys.valid}` } });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { data: { id: number; plate: string | null }[] };
    expect(body.data).toHaveLength(2);
    expect((await fetch(`${gateway.url}/api/openapi.json`)).status).toBe(200);
  });
});
