/**
 * The three transports end to end: a seeded sandbox database, the real ORM, real HTTP, each
 * imitated version. Credentials (valid, wrong, expired, unreadable), read round trips and the
 * error shapes real clients see.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../src/http/start-sandbox';
import type { OdooVersion } from '../src/orm/types';
import { createDemoKeys, type DemoKeys } from '../src/security/demo-keys';
import { initDatabase } from '../src/seed/init';
import { openDatabase } from '../src/store/database';
import { bearer, json2, jsonrpc, xmlrpc } from './http-helpers';

let dir: string;
let dbPath: string;
let keys: DemoKeys;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-e2e-'));
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

const SEARCH_READ_KWARGS = { fields: ['license_plate', 'driver_id'], order: 'license_plate', limit: 5 };

describe.each([17, 18, 19] as OdooVersion[])('sandbox ERP imitating Odoo %i', (version) => {
  let sandbox: RunningSandbox;
  let uid: number;

  beforeAll(async () => {
    sandbox = await startSandbox({ dbPath, port: 0, version });
    const auth = await xmlrpc(sandbox.url, '/xmlrpc/2/common', 'authenticate', [sandbox.database, keys.logins.api, keys.valid, {}]);
    uid = auth.kind === 'params' ? (auth.value as number) : 0;
  });
  afterAll(() => sandbox.close());

  it('authenticates over XML-RPC with valid, wrong and expired keys', async () => {
    expect(uid).toBeGreaterThan(0);
    const auth = async (login: string, key: string) => {
      const answer = await xmlrpc(sandbox.url, '/xmlrpc/2/common', 'authenticate', [sandbox.database, login, key, {}]);
      return answer.kind === 'params' ? answer.value : answer;
    };
    expect(await auth(keys.logins.api, '0'.repeat(40))).toBe(false);
    expect(await auth(keys.logins.api, keys.forbidden)).toBe(false); // the admin's key, not this login's
    expect(await auth(keys.logins.admin, keys.forbidden)).toEqual(expect.any(Number));
    expect(await auth(keys.logins.api, keys.expired)).toBe(version === 17 ? uid : false);
  });

  it('reads over XML-RPC: search_read, search_count and read agree', async () => {
    const rows = await xmlrpc(sandbox.url, '/xmlrpc/2/object', 'execute_kw', [
      sandbox.database,
      uid,
      keys.valid,
      'fleet.vehicle',
      'search_read',
      [[['active', '=', true]]],
      SEARCH_READ_KWARGS,
    ]);
    if (rows.kind !== 'params') throw new Error(rows.faultString);
    const vehicles = rows.value as { id: number; license_plate: string | false; driver_id: [number, string] | false }[];
    expect(vehicles).toHaveLength(5);
    for (const vehicle of vehicles) {
      expect(Object.keys(vehicle).sort()).toEqual(['driver_id', 'id', 'license_plate']);
      if (vehicle.driver_id !== false) expect(vehicle.driver_id).toEqual([expect.any(Number), expect.any(String)]);
    }
    const count = await xmlrpc(sandbox.url, '/xmlrpc/2/object', 'execute_kw', [sandbox.database, uid, keys.valid, 'fleet.vehicle', 'search_count', [[['active', '=', true]]]]);
    expect(count.kind === 'params' && (count.value as number) >= 5).toBe(true);
    const ids = vehicles.map((v) => v.id);
    const read = await xmlrpc(sandbox.url, '/xmlrpc/2/object', 'execute_kw', [sandbox.database, uid, keys.valid, 'fleet.vehicle', 'read', [ids], { fields: ['license_plate'] }]);
    if (read.kind !== 'params') throw new Error(read.faultString);
    expect(read.value).toEqual(vehicles.map(({ id, license_plate }) => ({ id, license_plate })));
  });

  it('refuses bad credentials, writes and unreadable models over XML-RPC with the right faults', async () => {
    const call = (key: string, model: string, method: string, args: unknown[], kwargs = {}) =>
      xmlrpc(sandbox.url, '/xmlrpc/2/object', 'execute_kw', [sandbox.database, uid, key, model, method, args, kwargs]);
    expect(await call('0'.repeat(40), 'fleet.vehicle', 'search_count', [[]])).toEqual({ kind: 'fault', faultCode: 3, faultString: 'Access Denied' });
    const expired = await call(keys.expired, 'fleet.vehicle', 'search_count', [[]]);
    expect(expired.kind === 'fault' ? expired.faultCode : 'ok').toBe(version === 17 ? 'ok' : 3);
    expect(await call(keys.valid, 'no.such.model', 'search_count', [[]])).toEqual({ kind: 'fault', faultCode: 2, faultString: "Object no.such.model doesn't exist" });
    const write = await call(keys.valid, 'fleet.vehicle', 'write', [[1], { license_plate: 'X' }]);
    expect(write.kind === 'fault' && write.faultCode).toBe(4);
    const noReadUid = await xmlrpc(sandbox.url, '/xmlrpc/2/common', 'login', [sandbox.database, keys.logins.no_read, keys.no_read.key]);
    const denied = await xmlrpc(sandbox.url, '/xmlrpc/2/object', 'execute_kw', [
      sandbox.database,
      noReadUid.kind === 'params' ? noReadUid.value : 0,
      keys.no_read.key,
      'fleet.vehicle',
      'search_read',
      [[]],
      { fields: ['license_plate'], limit: 1 },
    ]);
    expect(denied.kind === 'fault' && denied.faultCode).toBe(4);
  });

  it('reads over JSON-RPC and reports errors with data.name', async () => {
    const answer = await jsonrpc(
      sandbox.url,
      'object',
      'execute_kw',
      [sandbox.database, uid, keys.valid, 'fleet.vehicle', 'search_read', [[['active', '=', true]]], SEARCH_READ_KWARGS],
      7,
    );
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: 7 });
    expect(answer.result).toHaveLength(5);
    const denied = await jsonrpc(sandbox.url, 'object', 'execute_kw', [sandbox.database, uid, keys.expired, 'fleet.vehicle', 'search_count', [[]]]);
    if (version === 17) expect(typeof denied.result).toBe('number');
    else expect(denied.error).toMatchObject({ code: version === 19 ? 0 : 200, message: 'Odoo Server Error', data: { name: 'odoo.exceptions.AccessDenied' } });
    const badOrder = await jsonrpc(sandbox.url, 'object', 'execute_kw', [sandbox.database, uid, keys.valid, 'fleet.vehicle', 'search', [[]], { order: 'license_plate; drop' }]);
    expect((badOrder.error as { data: { name: string } }).data.name).toBe('odoo.exceptions.UserError');
  });

  it('groups over every transport alike: read_group, and formatted_read_group on 19 (XML-RPC, JSON-RPC, JSON-2)', async () => {
    const kwargs = { domain: [], fields: ['amount_total'], groupby: ['state'], orderby: 'state' };
    const overXml = await xmlrpc(sandbox.url, '/xmlrpc/2/object', 'execute_kw', [sandbox.database, uid, keys.valid, 'purchase.order', 'read_group', [], kwargs]);
    if (overXml.kind !== 'params') throw new Error(overXml.faultString);
    const groups = overXml.value as { state: string; state_count: number; amount_total: number; __domain: unknown[] }[];
    expect(groups.length).toBeGreaterThan(1);
    expect(groups.map((g) => g.state)).toEqual([...groups.map((g) => g.state)].sort());
    for (const g of groups) expect(g.__domain).toEqual([['state', '=', g.state]]);
    const overJson = await jsonrpc(sandbox.url, 'object', 'execute_kw', [sandbox.database, uid, keys.valid, 'purchase.order', 'read_group', [], kwargs]);
    expect(overJson.result).toEqual(groups);
    const formattedKwargs = { domain: [], groupby: ['state'], aggregates: ['__count', 'amount_total:sum'] };
    const formatted = await jsonrpc(sandbox.url, 'object', 'execute_kw', [sandbox.database, uid, keys.valid, 'purchase.order', 'formatted_read_group', [], formattedKwargs]);
    if (version < 19) {
      expect((formatted.error as { data: { name: string } }).data.name).toBe('builtins.AttributeError');
      return;
    }
    const expected = groups.map((g) => ({ state: g.state, __extra_domain: [['state', '=', g.state]], __count: g.state_count, 'amount_total:sum': g.amount_total }));
    expect(formatted.result).toEqual(expected);
    const overJson2 = await json2(sandbox.url, 'purchase.order/formatted_read_group', formattedKwargs, bearer(keys.valid));
    expect(overJson2.status).toBe(200);
    expect(overJson2.json()).toEqual(expected);
    const deprecated = await json2(sandbox.url, 'purchase.order/read_group', kwargs, bearer(keys.valid));
    expect(deprecated.json()).toEqual(groups);
    const privateOne = await json2(sandbox.url, 'purchase.order/_read_group', { domain: [], groupby: ['state'] }, bearer(keys.valid));
    expect(privateOne.status).toBe(403);
  });

  if (version === 19) {
    it('reads over JSON-2 with the bearer key alone', async () => {
      const rows = await json2(sandbox.url, 'fleet.vehicle/search_read', { domain: [['active', '=', true]], ...SEARCH_READ_KWARGS }, bearer(keys.valid));
      expect(rows.status).toBe(200);
      expect(rows.json()).toHaveLength(5);
      const me = await json2(sandbox.url, 'res.users/context_get', {}, bearer(keys.valid));
      expect(me.json()).toMatchObject({ uid });
      const count = await json2(sandbox.url, 'fleet.vehicle/search_count', { domain: [] }, bearer(keys.valid));
      expect(count.json()).toEqual(expect.any(Number));
    });

    it('answers JSON-2 errors with their statuses', async () => {
      expect((await json2(sandbox.url, 'fleet.vehicle/search_count', { domain: [] }, bearer(keys.expired))).status).toBe(401);
      const noRead = await json2(sandbox.url, 'fleet.vehicle/search_read', { domain: [], fields: ['license_plate'], limit: 1 }, bearer(keys.no_read.key));
      expect(noRead.status).toBe(403);
      expect(noRead.json()).toMatchObject({ name: 'odoo.exceptions.AccessError' });
      expect((await json2(sandbox.url, 'fleet.vehicle/write', { ids: [1], vals: { license_plate: 'X' } }, bearer(keys.valid))).status).toBe(403);
      expect((await json2(sandbox.url, 'fleet.vehicle/search_count', {}, bearer(keys.valid))).status).toBe(422);
      expect((await json2(sandbox.url, 'fleet.vehicle/search_count', { domain: [], ids: [1] }, bearer(keys.valid))).status).toBe(422);
      expect((await json2(sandbox.url, 'fleet.vehicle/sudo', {}, bearer(keys.valid))).status).toBe(403);
    });
  }
});
