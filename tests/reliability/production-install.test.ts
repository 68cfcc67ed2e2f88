/**
 * What an operator does (docs/production.md, "Running in production"): from a plain clone, `npm ci --omit=dev`
 * (the production dependencies only) and `node packages/gateway/release/gateway.js`. The clone here
 * is the repository's files as git has them (tracked and new, not ignored), copied from the working
 * tree so that the test proves the code beside it. The committed bundle must be what `make release`
 * builds from the sources now, or a clone would run stale code; and `npm ls --omit=dev` in the gateway
 * package must list exactly what the bundle imports at run time.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import { createDriftDatabase, gatewayEnv, type DriftDatabase } from '../drift/support/drift-sandbox';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const GATEWAY = join('packages', 'gateway');
/** The wire codec is a dependency of the gateway that the bundle carries inside (a clone has no compiled codec). */
const BUNDLED = ['@ops-data-gateway/codec'];
const PRODUCTION_DEPENDENCIES = ['@modelcontextprotocol/sdk', 'ajv', 'express', 'pino', 'undici'];
const DEVELOPMENT_TOOLS = ['typescript', 'jest', 'ts-morph', 'esbuild', '@biomejs/biome', 'dependency-cruiser', 'knip', 'yaml', 'supertest'];
/** The production heap bounds of the documented command. */
const PRODUCTION_NODE_OPTIONS = '--max-semi-space-size=4 --max-old-space-size=256';

let clone: string;
let rebuilt: string;
let database: DriftDatabase;
let gateway: GatewayProcess | undefined;

beforeAll(async () => {
  rebuilt = mkdtempSync(join(tmpdir(), 'odg-bundle-'));
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
  rmSync(rebuilt, { recursive: true, force: true });
});

describe('a clone installed with npm ci --omit=dev', () => {
  it.each(['gateway.js', 'mcp-stdio.js'])('carries release/%s exactly as make release builds it from the sources now', (file) => {
    expect(readFileSync(join(ROOT, GATEWAY, 'release', file), 'utf8') === readFileSync(join(rebuilt, file), 'utf8')).toBe(true);
  });

  it('lists with npm ls --omit=dev, in the gateway package, exactly the packages the gateway imports at run time', async () => {
    const { stdout } = await run('npm', ['ls', '--omit=dev', '--json', '--depth=0'], { cwd: join(clone, GATEWAY) });
    const listed =
      (JSON.parse(stdout) as { dependencies: Record<string, { dependencies?: Record<string, unknown> }> }).dependencies['@ops-data-gateway/gateway']?.dependencies ?? {};
    const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
    const packageOf = (specifier: string) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/');
    const imported = new Set<string>();
    for (const file of ['gateway.js', 'mcp-stdio.js'])
      for (const [, specifier] of readFileSync(join(clone, GATEWAY, 'release', file), 'utf8').matchAll(/\brequire\("([^"./][^"]*)"\)/g))
        if (!builtins.has(specifier as string)) imported.add(packageOf(specifier as string));
    expect(Object.keys(listed).sort()).toEqual([...imported, ...BUNDLED].sort());
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
    expect(['dist', 'packages/codec/dist', 'packages/gateway/dist', 'packages/sandbox/dist'].filter((path) => existsSync(join(clone, path)))).toEqual([]);
  });

  // Over XML-RPC: the transport that needs the wire codec, which the bundle carries inside.
  it('serves with the documented command', async () => {
    const sandbox = await database.serve();
    const env = { ...gatewayEnv(sandbox, { ERP_PUBLIC_URL: 'https://erp.example.test', ERP_TRANSPORT: 'xmlrpc' }), NODE_OPTIONS: PRODUCTION_NODE_OPTIONS };
    // The default start limit (45 s): a bound on waiting, generous for a loaded machine.
    gateway = await startGatewayProcess(env, undefined, join(clone, GATEWAY, 'release', 'gateway.js'));
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
    // The four catalogue tools (aggregate among them) and one query tool per domain.
    const toolCount = 4 + new Set(RESOURCES.map((r) => r.domain)).size;
    expect(((await mcp.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(toolCount);
    // And the stdio entry (npm run mcp) runs from the clone, bridging to that gateway.
    const client = new Client({ name: 'production-install', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(clone, GATEWAY, 'release', 'mcp-stdio.js')],
        cwd: clone,
        env: { GATEWAY_URL: gateway.url, API_KEY: database.keys.valid },
      }),
    );
    try {
      expect((await client.listTools()).tools).toHaveLength(toolCount);
    } finally {
      await client.close();
    }
  });
});
