/**
 * JSON-RPC transport over real HTTP, against the in-test ORM: envelopes, error objects per
 * version, content-type and body refusals (odoo-external-api.md, section 3).
 */
import type { OdooVersion } from '../src/orm/types';
import { jsonrpc, startTestSandbox, type TestSandbox } from './http-helpers';

const VERSIONS: OdooVersion[] = [17, 18, 19];

describe.each(VERSIONS)('JSON-RPC, Odoo %i', (version) => {
  let sandbox: TestSandbox;
  const errorCode = version === 19 ? 0 : 200;
  const object = (key: string, model: string, method: string, args: unknown[], kwargs: Record<string, unknown> = {}, id: unknown = 41) =>
    jsonrpc(sandbox.url, 'object', 'execute_kw', [sandbox.database, sandbox.uid, key, model, method, args, kwargs], id);
  const post = (body: string | undefined, contentType?: string, method = 'POST') =>
    fetch(`${sandbox.url}/jsonrpc`, { method, headers: contentType ? { 'Content-Type': contentType } : {}, body: body === undefined ? undefined : Buffer.from(body) });

  beforeAll(async () => {
    sandbox = await startTestSandbox(version);
  });
  afterAll(() => sandbox.close());

  it('answers common calls and echoes the id', async () => {
    expect(await jsonrpc(sandbox.url, 'common', 'version', [], 'abc')).toEqual({
      jsonrpc: '2.0',
      id: 'abc',
      result: { server_version: `${version}.0`, server_version_info: [version, 0, 0, 'final', 0, ''], server_serie: `${version}.0`, protocol_version: 1 },
    });
    expect(await jsonrpc(sandbox.url, 'common', 'authenticate', [sandbox.database, 'api@example.test', sandbox.keys.valid, {}], 5)).toEqual({ jsonrpc: '2.0', id: 5, result: 7 });
    expect((await jsonrpc(sandbox.url, 'common', 'login', [sandbox.database, 'api@example.test', 'f'.repeat(40)])).result).toBe(false);
    expect((await jsonrpc(sandbox.url, 'common', 'login', [sandbox.database, 'api@example.test', sandbox.keys.expired])).result).toBe(version === 17 ? 7 : false);
  });

  it('writes Python-style JSON, as Odoo does', async () => {
    const res = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 1, params: { service: 'common', method: 'authenticate', args: [sandbox.database, 'api@example.test', sandbox.keys.valid, {}] } }),
      'application/json',
    );
    expect(await res.text()).toBe('{"jsonrpc": "2.0", "id": 1, "result": 7}');
  });

  it('round-trips search_read, search_count and read', async () => {
    expect((await object(sandbox.keys.valid, 'res.partner', 'search_read', [[['is_company', '=', true]]], { fields: ['name'] })).result).toEqual([{ id: 2, name: 'Bamba SARL' }]);
    expect((await object(sandbox.keys.valid, 'res.partner', 'search_count', [[]], { context: { active_test: false } })).result).toBe(3);
    expect((await object(sandbox.keys.valid, 'res.partner', 'read', [[1], ['name']])).result).toEqual([{ id: 1, name: 'Aïssatou Diop' }]);
  });

  it('omits result when the method returns None', async () => {
    expect(await object(sandbox.keys.valid, 'res.partner', 'check_access_rights', ['read'], {}, 9)).toEqual({ jsonrpc: '2.0', id: 9 });
  });

  it('answers AccessDenied as the reference example shows', async () => {
    const answer = await object('f'.repeat(40), 'res.partner', 'search_count', [[]]);
    expect(answer).toEqual({
      jsonrpc: '2.0',
      id: 41,
      error: {
        code: errorCode,
        message: 'Odoo Server Error',
        data: {
          name: 'odoo.exceptions.AccessDenied',
          message: 'Access Denied',
          arguments: ['Access Denied'],
          context: {},
          debug: expect.stringMatching(/^Traceback \(most recent call last\):/),
        },
      },
    });
    const expired = await object(sandbox.keys.expired, 'res.partner', 'search_count', [[]]);
    if (version === 17) expect(expired.result).toBe(2);
    else expect((expired.error as { data: { name: string } }).data.name).toBe('odoo.exceptions.AccessDenied');
  });

  it.each([
    ['unknown model', ['no.such', 'search_count', [[]]], 'odoo.exceptions.UserError', "Object no.such doesn't exist"],
    ['private method', ['res.partner', '_secret', []], 'odoo.exceptions.AccessError', undefined],
    ['missing method', ['res.partner', 'frobnicate', []], 'builtins.AttributeError', undefined],
    ['record method without ids', ['res.partner', 'read', []], 'builtins.IndexError', undefined],
    ['refused write', ['res.partner', 'write', [[1], { name: 'x' }]], 'odoo.exceptions.AccessError', undefined],
    ['user error', ['res.partner', 'raise_error', ['user']], 'odoo.exceptions.UserError', 'Invalid order'],
    ['validation error', ['res.partner', 'raise_error', ['validation']], 'odoo.exceptions.ValidationError', 'Bad value'],
    ['missing record', ['res.partner', 'raise_error', ['missing']], 'odoo.exceptions.MissingError', 'Record does not exist or has been deleted.'],
    ['server error', ['res.partner', 'raise_error', ['value']], 'builtins.ValueError', 'Invalid field foo on model res.partner'],
  ])('names the exception class of a %s', async (_label, [model, method, args], name, message) => {
    const answer = await object(sandbox.keys.valid, model as string, method as string, args as unknown[]);
    const error = answer.error as { code: number; message: string; data: { name: string; message: string; arguments: unknown[] } };
    expect(answer.result).toBeUndefined();
    expect(error.code).toBe(errorCode);
    expect(error.message).toBe('Odoo Server Error');
    expect(error.data.name).toBe(name);
    if (message !== undefined) expect(error.data).toMatchObject({ message, arguments: [message] });
  });

  it('answers a db service list and refuses management', async () => {
    expect((await jsonrpc(sandbox.url, 'db', 'list', [])).result).toEqual([sandbox.database]);
    expect(((await jsonrpc(sandbox.url, 'db', 'drop', ['admin', sandbox.database])).error as { data: { name: string } }).data.name).toBe('odoo.exceptions.AccessDenied');
  });

  it('answers an unknown service and missing parameters with an error object', async () => {
    expect(((await jsonrpc(sandbox.url, 'nope', 'x', [])).error as { data: { name: string; message: string } }).data).toMatchObject({
      name: 'builtins.KeyError',
      message: "'nope'",
    });
    const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 3, params: { service: 'common', method: 'version' } }), 'application/json');
    const body = (await res.json()) as { id: number; error: { data: { name: string; message: string } } };
    expect(body.id).toBe(3);
    expect(body.error.data).toMatchObject({ name: 'builtins.TypeError', message: "jsonrpc() missing 1 required positional argument: 'args'" });
  });

  it('answers 400 "Invalid JSON data" for a body that is not JSON', async () => {
    for (const body of ['not json', '', '{"a": 1,}']) {
      const res = await post(body, 'application/json');
      expect(res.status).toBe(400);
      expect(await res.text()).toBe('Invalid JSON data');
    }
  });

  it('answers 400 "Invalid JSON-RPC data" for JSON that is not an object', async () => {
    for (const body of ['[1, 2]', '42', 'null', '"text"']) {
      const res = await post(body, 'application/json');
      expect(res.status).toBe(400);
      expect(await res.text()).toBe('Invalid JSON-RPC data');
    }
  });

  it('accepts application/json-rpc and a charset parameter', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, params: { service: 'common', method: 'version', args: [] } });
    expect((await post(body, 'application/json-rpc')).status).toBe(200);
    expect((await post(body, 'Application/JSON; charset=utf-8')).status).toBe(200);
  });

  it('refuses another content type with the version-dependent HTML page', async () => {
    const res = await post('{}', 'text/plain');
    const text = await res.text();
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    if (version === 19) {
      expect(res.status).toBe(415);
      expect(res.headers.get('accept')).toBe('application/json, application/json-rpc');
      expect(text).toBe(
        '<!doctype html>\n<html lang=en>\n<title>415 Unsupported Media Type</title>\n<h1>Unsupported Media Type</h1>\n' +
          '<p>Request inferred type is compatible with [&#39;http&#39;] but &#39;/jsonrpc&#39; is type=&#39;jsonrpc&#39;.<br><br>' +
          'Please verify the Content-Type request header and try again.</p>\n',
      );
    } else {
      expect(res.status).toBe(400);
      expect(text).toBe(
        '<!doctype html>\n<html lang=en>\n<title>400 Bad Request</title>\n<h1>Bad Request</h1>\n' +
          '<p>Request inferred type is compatible with [&#39;http&#39;] but &#39;/jsonrpc&#39; is type=&#39;json&#39;.</p>\n',
      );
    }
    const empty = await post(undefined, undefined, 'GET');
    expect(empty.status).toBe(version === 19 ? 415 : 400);
    if (version === 19) expect(await empty.text()).toContain('[&#39;http&#39;, &#39;json2&#39;]');
  });
});
