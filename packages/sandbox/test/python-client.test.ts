/**
 * A real Odoo client against the sandbox: Python's standard `xmlrpc.client`, used exactly as
 * Odoo's documentation shows (python_client.py beside this file). The CI installs python3; without
 * it this test fails and says so.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startSandbox, type RunningSandbox } from '../src/http/start-sandbox';
import type { OdooVersion } from '../src/orm/types';
import { createDemoKeys, type DemoKeys } from '../src/security/demo-keys';
import { initDatabase } from '../src/seed/init';
import { openDatabase } from '../src/store/database';

const runFile = promisify(execFile);
const SCRIPT = join(__dirname, 'python_client.py');

interface ClientReport {
  version: { server_version: string; server_version_info: unknown[]; server_serie: string; protocol_version: number };
  uid: number;
  wrong_uid: unknown;
  vehicles: { id: number; license_plate: string | false; driver_id: [number, string] | false }[];
  count: number;
  read: { id: number; license_plate: string | false }[];
  faults: Record<string, [number, string] | null>;
}

let dir: string;
let dbPath: string;
let keys: DemoKeys;

beforeAll(() => {
  const probe = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error("python3 is required by this test (it runs Python's xmlrpc.client against the sandbox): install python3 and put it on PATH");
  }
  dir = mkdtempSync(join(tmpdir(), 'sandbox-python-'));
  dbPath = join(dir, 'demo.db');
  initDatabase({ path: dbPath, seed: 1 });
  const db = openDatabase(dbPath);
  try {
    keys = createDemoKeys(db, 'sandbox');
  } finally {
    db.close();
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each([17, 19] as OdooVersion[])("Python's xmlrpc.client against the sandbox imitating Odoo %i", (version) => {
  let sandbox: RunningSandbox;
  let report: ClientReport;

  beforeAll(async () => {
    sandbox = await startSandbox({ dbPath, port: 0, version });
    const { stdout } = await runFile('python3', [SCRIPT, sandbox.url, sandbox.database, keys.logins.api, keys.valid], { timeout: 20_000 });
    report = JSON.parse(stdout.trim().split('\n').pop() ?? '') as ClientReport;
  });
  afterAll(() => sandbox.close());

  it('reads the version', () => {
    expect(report.version).toEqual({
      server_version: `${version}.0`,
      server_version_info: [version, 0, 0, 'final', 0, ''],
      server_serie: `${version}.0`,
      protocol_version: 1,
    });
  });

  it('authenticates with the key, and gets False for a wrong one', () => {
    expect(report.uid).toEqual(expect.any(Number));
    expect(report.uid).toBeGreaterThan(0);
    expect(report.wrong_uid).toBe(false);
  });

  it('reads five active vehicles ordered by plate, with many2one pairs', () => {
    expect(report.vehicles).toHaveLength(5);
    for (const vehicle of report.vehicles) {
      expect(Object.keys(vehicle).sort()).toEqual(['driver_id', 'id', 'license_plate']);
      expect(vehicle.driver_id === false || (Array.isArray(vehicle.driver_id) && vehicle.driver_id.length === 2)).toBe(true);
    }
    const plates = report.vehicles.map((v) => v.license_plate).filter((p): p is string => typeof p === 'string');
    expect(plates).toEqual([...plates].sort());
    expect(report.count).toBeGreaterThanOrEqual(5);
    expect(report.read).toEqual([{ id: report.vehicles[0]?.id, license_plate: report.vehicles[0]?.license_plate }]);
  });

  it('receives faults with Odoo codes', () => {
    expect(report.faults['access_denied']).toEqual([3, 'Access Denied']);
    expect(report.faults['unknown_model']).toEqual([2, "Object no.such.model doesn't exist"]);
    expect(report.faults['private_method']).toEqual([4, "Private methods (such as 'fleet.vehicle._read') cannot be called remotely."]);
    const [code, text] = report.faults['unknown_method'] ?? [0, ''];
    expect(code).toBe(1);
    expect(text).toContain("The method 'fleet.vehicle.frobnicate' does not exist");
  });
});
