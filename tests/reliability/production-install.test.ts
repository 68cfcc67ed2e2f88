/**
 * What an operator installs (README, "Running in production"): `make release`, then in the release
 * folder `npm ci --omit=dev` (the production dependencies only) and the documented command. The
 * installed gateway serves the sandbox ERP with nothing of the development toolchain present.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createDriftDatabase, gatewayEnv, type DriftDatabase } from '../drift/support/drift-sandbox';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const PRODUCTION_DEPENDENCIES = ['@modelcontextprotocol/sdk', 'ajv', 'express', 'pino', 'undici'];
const DEVELOPMENT_TOOLS = ['typescript', 'jest', 'ts-morph', '@biomejs/biome', 'dependency-cruiser', 'knip', 'yaml', 'supertest'];

let dir: string;
let database: DriftDatabase;
let gateway: GatewayProcess | undefined;

beforeAll(async () => {
  await run('make', ['--no-print-directory', 'release'], { cwd: ROOT });
  dir = mkdtempSync(join(tmpdir(), 'odg-release-'));
  cpSync(join(ROOT, 'release'), dir, { recursive: true });
  // From npm's cache where it can (make test installed every package moments ago).
  await run('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir, timeout: 240_000 });
  database = createDriftDatabase();
}, 300_000);

afterAll(async () => {
  gateway?.kill();
  await gateway?.exited;
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the release installed with npm ci --omit=dev', () => {
  it('holds the production dependencies and none of the development tools', () => {
    const installed = new Set(
      readdirSync(join(dir, 'node_modules')).flatMap((name) => (name.startsWith('@') ? readdirSync(join(dir, 'node_modules', name)).map((inner) => `${name}/${inner}`) : [name])),
    );
    expect(PRODUCTION_DEPENDENCIES.filter((name) => !installed.has(name))).toEqual([]);
    expect(DEVELOPMENT_TOOLS.filter((name) => installed.has(name))).toEqual([]);
    expect(existsSync(join(dir, 'dist', 'runtime', 'main.js'))).toBe(true);
    expect(existsSync(join(dir, 'dist', 'sandbox'))).toBe(false);
  });

  it('serves with the documented command', async () => {
    const sandbox = await database.serve();
    gateway = await startGatewayProcess(gatewayEnv(sandbox, { ERP_PUBLIC_URL: 'https://erp.example.test' }), 15000, join(dir, 'dist', 'runtime', 'main.js'));
    const answer = await fetch(`${gateway.url}/api/v1/fleet/vehicles?limit=2&fields=id,plate`, { headers: { Authorization: `Bearer ${database.keys.valid}` } });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { data: { id: number; plate: string | null }[] };
    expect(body.data).toHaveLength(2);
    expect((await fetch(`${gateway.url}/api/openapi.json`)).status).toBe(200);
    // The MCP endpoint loads the SDK from the production install.
    const mcp = await fetch(`${gateway.url}/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${database.keys.valid}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(200);
    expect(((await mcp.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(14);
  });
});
