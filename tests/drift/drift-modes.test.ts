/**
 * DRIFT_CHECK at start-up, over real HTTP against a drifted sandbox (fleet.alert removed,
 * fleet.vehicle.vin_sn removed): `warn` serves around the drift and lists it on /readyz, `off` does
 * nothing, `fail` refuses to run (the built gateway, dist/runtime/main.js, as a child process).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { RunningSandbox } from '../../sandbox/http/start-sandbox';
import { expectDocumented } from '../support/openapi-responses';
import { createDriftDatabase, gatewayEnv, type DriftDatabase } from './support/drift-sandbox';
import { startDriftGateway, type DriftGateway } from './support/drift-gateway';

const DRIFT = { removeModels: ['fleet.alert'], removeFields: ['fleet.vehicle.vin_sn'] };
let database: DriftDatabase;
let drifted: RunningSandbox;
beforeAll(async () => {
  database = createDriftDatabase();
  drifted = await database.serve(DRIFT);
});
afterAll(() => database.close());

describe('DRIFT_CHECK=warn', () => {
  let gateway: DriftGateway;
  beforeAll(async () => {
    gateway = await startDriftGateway(gatewayEnv(drifted, { DRIFT_CHECK: 'warn', ERP_CHECK_KEY: database.keys.valid }));
  });
  afterAll(() => gateway.close());

  it('lists the drift on /readyz, which stays ready', async () => {
    const ready = await gateway.readyAfterCheck();
    expect(ready).toMatchObject({ status: 'ready', drift: { mode: 'warn', state: 'checked' } });
    expect(ready.drift?.problems).toEqual([
      expect.objectContaining({ resource: 'fleet/alerts', kind: 'missing_model', model: 'fleet.alert', field: '' }),
      expect.objectContaining({ resource: 'fleet/vehicles', kind: 'missing_field', model: 'fleet.vehicle', field: 'vin_sn', uses: ['field vin', 'order vin'] }),
    ]);
  });

  it.each(['/api/v1/fleet/alerts', '/api/v1/fleet/alerts/1'])('answers %s 503 naming the missing model', async (path) => {
    await gateway.readyAfterCheck();
    const response = expectDocumented(path, await gateway.get(path, database.keys.valid));
    expect(response.status).toBe(503);
    expect(response.body.error).toEqual({ code: 'unavailable', message: expect.stringContaining('fleet.alert') });
  });

  it.each(['/api/v1/fleet/vehicles', '/api/v1/fleet/vehicles/1'])('answers %s 200 with the missing field as null, not asked of the ERP', async (path) => {
    await gateway.readyAfterCheck();
    const response = expectDocumented(path, await gateway.get(path, database.keys.valid));
    expect(response.status).toBe(200);
    const records = Array.isArray(response.body.data) ? response.body.data : [response.body.data];
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) expect(record).toMatchObject({ vin: null, plate: expect.any(String) });
    const reads = gateway.erpCalls.filter((call) => call.model === 'fleet.vehicle' && call.method === 'search_read');
    for (const call of reads) expect(call.kwargs['fields']).not.toContain('vin_sn');
  });

  it('logs each problem once and the null field once, never the check key', async () => {
    await gateway.readyAfterCheck();
    await gateway.get('/api/v1/fleet/vehicles', database.keys.valid);
    await gateway.get('/api/v1/fleet/vehicles', database.keys.valid);
    const lines = gateway.logLines.map((line) => JSON.parse(line) as { msg: string; resource?: string; level: string });
    const drift = lines.filter((line) => line.msg.startsWith('catalogue drift:'));
    expect(drift.filter((line) => line.msg.includes('does not exist')).map((line) => line.resource)).toEqual(['fleet/alerts', 'fleet/vehicles']);
    expect(drift.filter((line) => line.msg.includes('answered as null'))).toEqual([expect.objectContaining({ resource: 'fleet/vehicles', fields: ['vin'] })]);
    expect(gateway.logLines.join('\n')).not.toContain(database.keys.valid);
  });
});

describe('DRIFT_CHECK=warn with filter, order and scope fields missing', () => {
  // license_plate is a field, a filter, a sort key and the first key of the default order of
  // fleet/vehicles; org_in_parc is the scope of it/assets.
  const SEARCH_DRIFT = { removeFields: ['fleet.vehicle.license_plate', 'stock.lot.org_in_parc'] };
  let sandbox: RunningSandbox;
  let gateway: DriftGateway;
  beforeAll(async () => {
    sandbox = await database.serve(SEARCH_DRIFT);
    gateway = await startDriftGateway(gatewayEnv(sandbox, { DRIFT_CHECK: 'warn', ERP_CHECK_KEY: database.keys.valid }));
    await gateway.readyAfterCheck();
  });
  afterAll(() => gateway.close());

  const envelope = async (path: string) => {
    const response = expectDocumented(path, await gateway.get(path, database.keys.valid));
    return [response.status, response.body.error?.code, response.body.error?.message ?? ''] as const;
  };

  it('answers a filter on a missing field 503 naming the filter and the field, never ignoring it', async () => {
    const [status, code, message] = await envelope('/api/v1/fleet/vehicles?plate=AB');
    expect([status, code]).toEqual([503, 'unavailable']);
    expect(message).toContain('plate');
    expect(message).toContain('fleet.vehicle.license_plate');
  });

  it('answers a sort on a missing field 503 naming it', async () => {
    const [status, code, message] = await envelope('/api/v1/fleet/vehicles?order=plate%20desc');
    expect([status, code]).toEqual([503, 'unavailable']);
    expect(message).toContain('fleet.vehicle.license_plate');
  });

  it('serves the default order without the missing key, and the other filters and sorts', async () => {
    const list = expectDocumented('/api/v1/fleet/vehicles', await gateway.get('/api/v1/fleet/vehicles?limit=5', database.keys.valid));
    expect(list.status).toBe(200);
    for (const record of list.body.data) expect(record.plate).toBeNull();
    const read = gateway.erpCalls.filter((call) => call.model === 'fleet.vehicle' && call.method === 'search_read').at(-1);
    expect(read?.kwargs['order']).not.toContain('license_plate');
    expect((await gateway.get('/api/v1/fleet/vehicles?order=seats%20desc&limit=3', database.keys.valid)).status).toBe(200);
  });

  it.each(['/api/v1/it/assets', '/api/v1/it/assets/1'])('answers %s 503: a resource is never served without its scope', async (path) => {
    const [status, code, message] = await envelope(path);
    expect([status, code]).toEqual([503, 'unavailable']);
    expect(message).toContain('stock.lot.org_in_parc');
  });
});

describe('DRIFT_CHECK=warn without ERP_CHECK_KEY', () => {
  it('skips the check with one log line', async () => {
    const gateway = await startDriftGateway(gatewayEnv(drifted, { DRIFT_CHECK: 'warn' }));
    try {
      expect(await gateway.readyAfterCheck()).toMatchObject({ status: 'ready', drift: { state: 'skipped', problems: [] } });
      expect(gateway.logLines.filter((line) => line.includes('drift check'))).toEqual([expect.stringContaining('skipped: ERP_CHECK_KEY is not set')]);
      expect(gateway.erpCalls.filter((call) => call.method === 'fields_get')).toEqual([]);
    } finally {
      await gateway.close();
    }
  });
});

describe('DRIFT_CHECK=off', () => {
  it('does not ask the ERP, and /readyz has no drift member', async () => {
    const gateway = await startDriftGateway(gatewayEnv(drifted, { DRIFT_CHECK: 'off', ERP_CHECK_KEY: database.keys.valid }));
    try {
      const ready = await gateway.readyAfterCheck();
      expect(ready.status).toBe('ready');
      expect(ready).not.toHaveProperty('drift');
      await gateway.get('/api/v1/fleet/alerts', database.keys.valid);
      expect(gateway.erpCalls.filter((call) => call.method === 'fields_get')).toEqual([]);
      expect(gateway.logLines.filter((line) => line.includes('drift'))).toEqual([]);
    } finally {
      await gateway.close();
    }
  });
});

describe('DRIFT_CHECK=fail', () => {
  const MAIN = join(__dirname, '../../dist/runtime/main.js');

  /** Runs the built gateway until it exits, or stops it once `until` holds of its output or `ms` pass. */
  function runGateway(env: Record<string, string>, ms: number, until?: (stdout: string) => boolean): Promise<{ code: number | null; stderr: string; stdout: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [MAIN], { env: { PATH: process.env['PATH'] ?? '', ...env, PORT: '0' } });
      let stderr = '';
      let stdout = '';
      let stopping = false;
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        // Once only: a second SIGTERM would kill the gateway in the middle of its graceful shutdown.
        if (!stopping && until?.(stdout)) {
          stopping = true;
          child.kill('SIGTERM');
        }
      });
      const timer = setTimeout(() => child.kill('SIGTERM'), ms);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr, stdout });
      });
    });
  }

  it('refuses to run, naming each problem', async () => {
    const run = await runGateway(gatewayEnv(drifted, { DRIFT_CHECK: 'fail', ERP_CHECK_KEY: database.keys.valid }), 15000);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('catalogue drift: fleet/alerts: missing_model fleet.alert: model fleet.alert does not exist in the ERP');
    expect(run.stderr).toContain('catalogue drift: fleet/vehicles: missing_field fleet.vehicle.vin_sn');
    expect(run.stderr).toContain('DRIFT_CHECK=fail: refusing to run with 2 catalogue drift problem(s)');
    expect(run.stdout + run.stderr).not.toContain(database.keys.valid);
  });

  it('runs on when the ERP agrees with the catalogue', async () => {
    const plain = await database.serve();
    const run = await runGateway(gatewayEnv(plain, { DRIFT_CHECK: 'fail', ERP_CHECK_KEY: database.keys.valid }), 15000, (out) => out.includes('catalogue drift check done'));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('catalogue drift check done');
  });
});
