/**
 * DRIFT_CHECK at start-up, over real HTTP against a drifted sandbox (fleet.alert removed,
 * fleet.vehicle.vin_sn removed): `warn` serves around the drift and lists it on /readyz, `off` does
 * nothing, `fail` refuses to run (the built gateway, packages/gateway/dist/runtime/main.js, as a child process).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { RunningSandbox } from '@ops-data-gateway/sandbox/http/start-sandbox';
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

describe.each([
  { version: 19 as const, transport: 'auto' },
  { version: 19 as const, transport: 'xmlrpc' },
  { version: 17 as const, transport: 'jsonrpc' },
])("DRIFT_CHECK=warn without ERP_CHECK_KEY learns the drift from the ERP's errors (Odoo $version, $transport)", ({ version, transport }) => {
  // Models and fields taken away: a field of vehicles, the field its default order, a filter and a
  // sort key use, the model of alerts, and the scope of it/assets.
  const LEARNED_DRIFT = { removeModels: ['fleet.alert'], removeFields: ['fleet.vehicle.vin_sn', 'fleet.vehicle.license_plate', 'stock.lot.org_in_parc'] };
  let sandbox: RunningSandbox;
  let gateway: DriftGateway;
  beforeAll(async () => {
    sandbox = await database.serve(LEARNED_DRIFT, version);
    gateway = await startDriftGateway(gatewayEnv(sandbox, { DRIFT_CHECK: 'warn', ERP_TRANSPORT: transport }));
  });
  afterAll(() => gateway.close());

  const fetchDocumented = async (path: string) => expectDocumented(path, await gateway.get(path, database.keys.valid));

  it('skips the start-up check with one log line and never asks fields_get', async () => {
    expect(await gateway.readyAfterCheck()).toMatchObject({ status: 'ready', drift: { mode: 'warn', state: 'learning', problems: [] } });
    expect(gateway.logLines.filter((line) => line.includes('drift check'))).toEqual([
      expect.stringContaining("skipped: ERP_CHECK_KEY is not set; drift is learned from the ERP's errors instead"),
    ]);
    expect(gateway.erpCalls.filter((call) => call.method === 'fields_get')).toEqual([]);
  });

  it('answers the very first list request 200 with the missing fields as null, never 502', async () => {
    const list = await fetchDocumented('/api/v1/fleet/vehicles?limit=5');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(5);
    for (const record of list.body.data) expect(record).toMatchObject({ id: expect.any(Number), vin: null, plate: null, model: expect.any(String) });
    const last = gateway.erpCalls.filter((call) => call.model === 'fleet.vehicle' && call.method === 'search_read').at(-1);
    expect(last?.kwargs['fields']).not.toContain('vin_sn');
    expect(last?.kwargs['fields']).not.toContain('license_plate');
    expect(String(last?.kwargs['order'])).not.toContain('license_plate');
  });

  it('answers a detail request 200 with the same nulls, asking the ERP once', async () => {
    const before = gateway.erpCalls.length;
    const detail = await fetchDocumented('/api/v1/fleet/vehicles/1');
    expect([detail.status, detail.body.error]).toEqual([200, undefined]);
    expect(detail.body.data).toMatchObject({ id: 1, vin: null, plate: null });
    expect(gateway.erpCalls.slice(before).filter((call) => call.model === 'fleet.vehicle' && call.method === 'search_read')).toHaveLength(1);
  });

  it('answers a filter and a sort key on a missing field 503 naming them, never ignoring them', async () => {
    const filtered = await fetchDocumented('/api/v1/fleet/vehicles?plate=AB');
    expect([filtered.status, filtered.body.error?.code]).toEqual([503, 'unavailable']);
    expect(filtered.body.error?.message).toContain('fleet.vehicle.license_plate');
    const sorted = await fetchDocumented('/api/v1/fleet/vehicles?order=vin%20desc');
    expect([sorted.status, sorted.body.error?.code]).toEqual([503, 'unavailable']);
    expect(sorted.body.error?.message).toContain('fleet.vehicle.vin_sn');
    expect((await fetchDocumented('/api/v1/fleet/vehicles?order=seats%20desc&limit=3')).status).toBe(200);
  });

  it.each(['/api/v1/fleet/alerts', '/api/v1/fleet/alerts/1'])('answers %s 503 naming the missing model from the first request', async (path) => {
    const response = await fetchDocumented(path);
    expect([response.status, response.body.error?.code]).toEqual([503, 'unavailable']);
    expect(response.body.error?.message).toContain('fleet.alert');
    expect(response.headers['retry-after']).toBe('300');
  });

  it('answers a resource whose scope field is missing 503, never serving it unscoped', async () => {
    const response = await fetchDocumented('/api/v1/it/assets');
    expect([response.status, response.body.error?.code]).toEqual([503, 'unavailable']);
    expect(response.body.error?.message).toContain('stock.lot.org_in_parc');
  });

  it('lists what it learned on /readyz and logs each fact once, without the key', async () => {
    await fetchDocumented('/api/v1/fleet/vehicles?limit=1');
    const ready = await gateway.readyAfterCheck();
    expect(ready).toMatchObject({ status: 'ready', drift: { state: 'learning' } });
    const facts = (ready.drift?.problems ?? []).map((p) => `${p.resource} ${p.kind} ${p.model}.${p.field}`).sort();
    expect(facts).toEqual([
      'fleet/alerts missing_model fleet.alert.',
      'fleet/vehicles missing_field fleet.vehicle.license_plate',
      'fleet/vehicles missing_field fleet.vehicle.vin_sn',
      'it/assets missing_field stock.lot.org_in_parc',
    ]);
    const learned = gateway.logLines.filter((line) => line.includes('catalogue drift learned'));
    expect(learned).toHaveLength(4);
    expect(gateway.logLines.filter((line) => line.includes('catalogue drift: fields missing'))).toEqual([]);
    expect(gateway.logLines.join('\n')).not.toContain(database.keys.valid);
  });
});

describe('DRIFT_CHECK=off without ERP_CHECK_KEY', () => {
  it("passes the ERP's failure on as 502: it learns nothing", async () => {
    const gateway = await startDriftGateway(gatewayEnv(drifted, { DRIFT_CHECK: 'off' }));
    try {
      const response = expectDocumented('/api/v1/fleet/vehicles', await gateway.get('/api/v1/fleet/vehicles', database.keys.valid));
      expect([response.status, response.body.error?.code]).toEqual([502, 'bad_gateway']);
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
  const MAIN = join(__dirname, '../../packages/gateway/dist/runtime/main.js');

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
