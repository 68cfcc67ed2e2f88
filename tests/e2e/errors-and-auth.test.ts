/**
 * Every error code of the spec's table with its exact envelope, the three key cases, rights and
 * scope, over each transport and against the sandbox imitating Odoo 19 and 17.
 */
import request from 'supertest';
import { expectDocumented } from '../support/openapi-responses';
import { startStack, TRANSPORTS, type Stack } from '../support/stack';

describe.each(TRANSPORTS)('errors and authentication, %s', (_name, transport, version) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ transport, version });
  });
  afterAll(() => stack.close());

  const get = async (path: string, key?: string | null) => expectDocumented(path, await stack.get(path, key));
  const envelope = (body: unknown) => (body as { error: { code: string; message: string } }).error;

  it('answers a list with {data, meta} and a detail with {data}', async () => {
    const list = await get('/api/v1/fleet/vehicles?limit=3');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(3);
    expect(list.body.meta.total).toBeGreaterThan(3);
    const id = list.body.data[0].id;
    const detail = await get(`/api/v1/fleet/vehicles/${id}`);
    expect(detail.status).toBe(200);
    // The odometer's model the API account never reads: its null is named, in the detail as in the list.
    expect(list.body.meta.unreadable_fields).toEqual(['odometer']);
    expect(detail.body).toEqual({ data: list.body.data[0], meta: { unreadable_fields: ['odometer'] } });
  });

  it('401 unauthorized with WWW-Authenticate: Bearer when the key is absent', async () => {
    const res = await get('/api/v1/fleet/vehicles', null);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(Object.keys(res.body)).toEqual(['error']);
    expect(Object.keys(envelope(res.body)).sort()).toEqual(['code', 'message']);
    expect(envelope(res.body).code).toBe('unauthorized');
  });

  it.each([
    ['a wrong key', 'Bearer 0123456789abcdef0123456789abcdef01234567'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a scheme without a key', 'Bearer'],
  ])('401 unauthorized for %s', async (_case, header) => {
    const res = expectDocumented('/api/v1/fleet/vehicles', await stack.get('/api/v1/fleet/vehicles', null).set('Authorization', header));
    expect([res.status, envelope(res.body).code]).toEqual([401, 'unauthorized']);
  });

  it('accepts the scheme word in any case', async () => {
    const res = await stack.get('/api/v1/fleet/vehicles?limit=1', null).set('Authorization', `bEaReR ${stack.keys.valid}`);
    expect(res.status).toBe(200);
  });

  it(version >= 18 ? '401 for an expired key (Odoo 18+ honours expiry)' : 'accepts an "expired" key, as Odoo 17 has no key expiry', async () => {
    const res = await get('/api/v1/fleet/vehicles?limit=1', stack.keys.expired);
    expect(res.status).toBe(version >= 18 ? 401 : 200);
  });

  it('refuses a key of an account outside the API group: 403 over JSON-2, 401 over RPC (a key is checked with the technical login)', async () => {
    const res = await get('/api/v1/fleet/vehicles', stack.keys.forbidden);
    const json2 = transport === 'json2' || (transport === 'auto' && version >= 19);
    expect([res.status, envelope(res.body).code]).toEqual(json2 ? [403, 'forbidden'] : [401, 'unauthorized']);
  });

  it('403 forbidden when the API account has no read right on the model', async () => {
    const stackNoRead = stack.keys.no_read;
    const json2 = transport === 'json2' || (transport === 'auto' && version >= 19);
    const res = await get(`/api/v1/${stackNoRead.resource}`, stackNoRead.key);
    // Over RPC a key works only with the technical login: the no-read account's key is a wrong key there.
    expect([res.status, envelope(res.body).code]).toEqual(json2 ? [403, 'forbidden'] : [401, 'unauthorized']);
    if (json2) expect((await get('/api/v1/purchase/orders?limit=1', stackNoRead.key)).status).toBe(200);
  });

  it('400 bad_request for an unknown parameter, naming it', async () => {
    const res = await get('/api/v1/fleet/vehicles?colour=red');
    expect([res.status, envelope(res.body).code]).toEqual([400, 'bad_request']);
    expect(envelope(res.body).message).toContain("'colour'");
  });

  it('400 bad_request for an invalid sort', async () => {
    const res = await get('/api/v1/fleet/vehicles?order=driver');
    expect([res.status, envelope(res.body).code]).toEqual([400, 'bad_request']);
  });

  it('422 invalid_value for an unusable filter value', async () => {
    const res = await get('/api/v1/fleet/vehicles?insurance_expiry_before=2026-02-30');
    expect([res.status, envelope(res.body).code]).toEqual([422, 'invalid_value']);
  });

  it('404 not_found for an unknown resource or path', async () => {
    for (const path of ['/api/v1/fleet/spaceships', '/api/v1/nothing', '/api/v2/fleet/vehicles', '/elsewhere']) {
      const res = await get(path);
      expect([path, res.status, envelope(res.body).code]).toEqual([path, 404, 'not_found']);
    }
  });

  it('404 not_found for a record that does not exist, and for a non-integer or non-positive id (D21)', async () => {
    for (const id of ['999999', 'abc', '0', '-3', '1.5', '99999999999']) {
      const res = await get(`/api/v1/fleet/vehicles/${id}`);
      expect([id, res.status, envelope(res.body).code]).toEqual([id, 404, 'not_found']);
    }
  });

  it('hides records outside the scope from list and detail (archived vehicles)', async () => {
    const all = await get('/api/v1/fleet/vehicles?limit=200&fields=id');
    const ids = new Set((all.body.data as { id: number }[]).map((r) => r.id));
    let archived: number | undefined;
    for (let id = 1; id <= 200 && archived === undefined; id++) if (!ids.has(id)) archived = id;
    expect(archived).toBeDefined();
    expect(all.body.meta.total).toBeLessThan(200);
    const res = await get(`/api/v1/fleet/vehicles/${archived}`);
    expect([res.status, envelope(res.body).code]).toEqual([404, 'not_found']);
  });

  it('405 with an HTML body and Allow: GET, HEAD for any other method', async () => {
    for (const method of ['post', 'put', 'patch', 'delete'] as const) {
      const res = await request(stack.url)[method]('/api/v1/fleet/vehicles/1').set('Authorization', `Bearer ${stack.keys.valid}`);
      expect([method, res.status, res.headers['allow'], res.headers['content-type']]).toEqual([method, 405, 'GET, HEAD', 'text/html; charset=utf-8']);
      expect(res.text).toContain('Method Not Allowed');
    }
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await request(stack.url).head('/api/v1/fleet/vehicles?limit=1').set('Authorization', `Bearer ${stack.keys.valid}`);
    expect(res.status).toBe(200);
    expect(res.text ?? '').toBe('');
  });

  it('answers an unreadable relation with null, succeeds, and logs resource, field and model', async () => {
    const res = await get('/api/v1/fleet/vehicles?limit=5');
    expect(res.status).toBe(200);
    for (const record of res.body.data) expect(record.odometer).toBeNull();
    const warning = stack.logLines.map((line) => JSON.parse(line)).find((line) => line.msg?.startsWith('unreadable relation'));
    expect(warning).toMatchObject({ level: 'warn', resource: 'fleet/vehicles', fields: [{ field: 'odometer', model: 'fleet.vehicle.odometer' }] });
    // The other fields still hold values.
    expect(res.body.data.some((r: { plate: string | null }) => r.plate !== null)).toBe(true);
  });

  it('sends nothing but read methods to the ERP', async () => {
    const methods = new Set(stack.erpCalls.map((call) => call.method));
    expect([...methods].every((m) => ['search_read', 'search_count', 'read', 'has_group', 'has_access', 'check_access_rights', 'context_get'].includes(m))).toBe(true);
    expect(methods.has('search_read')).toBe(true);
  });

  it('never logs a key', () => {
    const all = stack.logLines.join('\n');
    for (const key of [stack.keys.valid, stack.keys.forbidden, stack.keys.expired, stack.keys.no_read.key]) expect(all).not.toContain(key);
  });
});
