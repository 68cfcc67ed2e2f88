/**
 * `make check-erp` (the built CLI, packages/gateway/dist/runtime/drift/check-erp.js, which the target runs after
 * `make build`): exit 0 without drift, 1 with drift (table, or JSON with --json), 2 without
 * ERP_CHECK_KEY or without an ERP. One run goes through make itself (`-o build`: dist is built).
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import type { RunningSandbox } from '@ops-data-gateway/sandbox/http/start-sandbox';
import { createDriftDatabase, gatewayEnv, type DriftDatabase } from './support/drift-sandbox';

const ROOT = join(__dirname, '../..');
const CLI = join(ROOT, 'packages/gateway/dist/runtime/drift/check-erp.js');

let database: DriftDatabase;
let plain: RunningSandbox;
let drifted: RunningSandbox;
beforeAll(async () => {
  database = createDriftDatabase();
  plain = await database.serve();
  drifted = await database.serve({ removeModels: ['fleet.alert'], addSelectionValues: ['fleet.vehicle.fuel_type=ethanol'] });
});
afterAll(() => database.close());

/** Runs the CLI asynchronously: the sandbox serves from this process, which spawnSync would block. */
function checkErp(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env['PATH'] ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('check-erp', () => {
  it('exits 0 and says so when the ERP agrees with the catalogue', async () => {
    const run = await checkErp(gatewayEnv(plain, { ERP_CHECK_KEY: database.keys.valid }));
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(new RegExp(`^check-erp: no drift \\(${RESOURCES.length} resources, \\d+ ERP models\\)\n$`));
  });

  it('exits 1 with a table of the drift', async () => {
    const run = await checkErp(gatewayEnv(drifted, { ERP_CHECK_KEY: database.keys.valid }));
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^resource\s+kind\s+field\s+detail$/);
    expect(lines[1]).toMatch(/^-+ +-+ +-+ +-+$/);
    expect(lines[2]).toMatch(/^fleet\/alerts\s+missing_model\s+fleet\.alert\s+model fleet\.alert does not exist in the ERP \[used by: resource\]$/);
    expect(lines[3]).toMatch(/^fleet\/vehicles\s+selection_unknown_to_catalogue\s+fleet\.vehicle\.fuel_type\s+ERP value\(s\) 'ethanol' not in the catalogue enum/);
    expect(run.stdout).toContain('check-erp: 2 drift problem(s) between the catalogue and the ERP');
    expect(run.stdout + run.stderr).not.toContain(database.keys.valid);
  });

  it('exits 1 with the JSON form under --json', async () => {
    const run = await checkErp(gatewayEnv(drifted, { ERP_CHECK_KEY: database.keys.valid }), ['--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      drift: true,
      problems: [
        { resource: 'fleet/alerts', kind: 'missing_model', model: 'fleet.alert', field: '', detail: 'model fleet.alert does not exist in the ERP', uses: ['resource'] },
        {
          resource: 'fleet/vehicles',
          kind: 'selection_unknown_to_catalogue',
          model: 'fleet.vehicle',
          field: 'fuel_type',
          detail: "ERP value(s) 'ethanol' not in the catalogue enum (a response would break the OpenAPI document)",
          uses: ['field fuel_type', 'filter fuel_type'],
        },
      ],
    });
  });

  it.each<[string, () => Record<string, string>, RegExp]>([
    ['without ERP_CHECK_KEY', () => gatewayEnv(plain), /^check-erp: no_check_key: ERP_CHECK_KEY is not set/],
    ['with a key the ERP refuses', () => gatewayEnv(plain, { ERP_CHECK_KEY: 'not-a-key' }), /^check-erp: check_key_refused: the ERP refuses ERP_CHECK_KEY\n$/],
    ['without an ERP', () => ({ ERP_URL: 'http://127.0.0.1:9', ERP_DATABASE: 'sandbox', ERP_CHECK_KEY: 'k' }), /^check-erp: erp_error: the ERP could not be asked/],
    ['with a wrong setting', () => ({ ERP_DATABASE: 'sandbox' }), /^check-erp: configuration: ERP_URL is required\n$/],
  ])('exits 2 with one clear line %s', async (_name, env, line) => {
    const run = await checkErp(env());
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(line);
  });

  it('is what make check-erp runs', () => {
    const run = spawnSync('make', ['-s', '-o', 'build', 'check-erp'], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', ERP_URL: 'http://127.0.0.1:9', ERP_DATABASE: 'sandbox' },
      encoding: 'utf8',
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('check-erp: no_check_key: ERP_CHECK_KEY is not set');
  });
});
