/**
 * XML-RPC transport over real HTTP, against the in-test ORM: credentials, processing order per
 * version, fault shapes of every error class (odoo-external-api.md, section 2).
 */
import type { OdooVersion } from '../src/orm/types';
import { startTestSandbox, xmlrpc, type TestSandbox } from './http-helpers';

const VERSIONS: OdooVersion[] = [17, 18, 19];

function faultOf(response: Awaited<ReturnType<typeof xmlrpc>>): { faultCode: number | string; faultString: string } {
  if (response.kind !== 'fault') throw new Error(`expected a fault, got ${JSON.stringify(response)}`);
  return { faultCode: response.faultCode, faultString: response.faultString };
}

function resultOf(response: Awaited<ReturnType<typeof xmlrpc>>): unknown {
  if (response.kind !== 'params') throw new Error(`expected a value, got fault ${response.faultCode}: ${response.faultString}`);
  return response.value;
}

describe.each(VERSIONS)('XML-RPC, Odoo %i', (version) => {
  let sandbox: TestSandbox;
  const object = (params: unknown[]) => xmlrpc(sandbox.url, '/xmlrpc/2/object', 'execute_kw', params);
  const kw = (key: string, model: string, method: string, args: unknown[], kwargs: Record<string, unknown> = {}) =>
    object([sandbox.database, sandbox.uid, key, model, method, args, kwargs]);

  beforeAll(async () => {
    sandbox = await startTestSandbox(version);
  });
  afterAll(() => sandbox.close());

  describe('common', () => {
    it('answers version with the imitated release', async () => {
      expect(resultOf(await xmlrpc(sandbox.url, '/xmlrpc/2/common', 'version', []))).toEqual({
        server_version: `${version}.0`,
        server_version_info: [version, 0, 0, 'final', 0, ''],
        server_serie: `${version}.0`,
        protocol_version: 1,
      });
    });

    it('authenticates a valid key of that login, and answers false for any bad credential', async () => {
      const auth = async (login: string, key: string) => resultOf(await xmlrpc(sandbox.url, '/xmlrpc/2/common', 'authenticate', [sandbox.database, login, key, {}]));
      expect(await auth('api@example.test', sandbox.keys.valid)).toBe(7);
      expect(await auth('api@example.test', 'f'.repeat(40))).toBe(false);
      expect(await auth('api@example.test', sandbox.keys.other)).toBe(false); // admin's key
      expect(await auth('api@example.test', '')).toBe(false);
      expect(await auth('api@example.test', sandbox.keys.scoped)).toBe(false); // another scope
      expect(await auth('gone@example.test', sandbox.keys.archived)).toBe(false);
      expect(await auth('nobody@example.test', sandbox.keys.valid)).toBe(false);
      // 17 has no key expiry; 18 and 19 refuse an expired key.
      expect(await auth('api@example.test', sandbox.keys.expired)).toBe(version === 17 ? 7 : false);
      expect(resultOf(await xmlrpc(sandbox.url, '/xmlrpc/2/common', 'login', [sandbox.database, 'api@example.test', sandbox.keys.valid]))).toBe(7);
    });

    it('applies no cool-down after failures', async () => {
      for (let i = 0; i < 8; i += 1) {
        expect(resultOf(await xmlrpc(sandbox.url, '/xmlrpc/2/common', 'authenticate', [sandbox.database, 'api@example.test', 'bad', {}]))).toBe(false);
      }
      expect(resultOf(await xmlrpc(sandbox.url, '/xmlrpc/2/common', 'authenticate', [sandbox.database, 'api@example.test', sandbox.keys.valid, {}]))).toBe(7);
    });

    it('faults 1 on an unknown database, an unknown method and a wrong arity', async () => {
      const wrongDb = faultOf(await xmlrpc(sandbox.url, '/xmlrpc/2/common', 'authenticate', ['nope', 'api@example.test', sandbox.keys.valid, {}]));
      expect(wrongDb.faultCode).toBe(1);
      expect(wrongDb.faultString).toMatch(/^Traceback \(most recent call last\):\n[\s\S]*psycopg2\.OperationalError: .*database "nope" does not exist/);
      const unknown = faultOf(await xmlrpc(sandbox.url, '/xmlrpc/2/common', 'frobnicate', []));
      expect(unknown.faultCode).toBe(1);
      expect(unknown.faultString).toMatch(/\nException: Method not found: frobnicate\n$/);
      const arity = faultOf(await xmlrpc(sandbox.url, '/xmlrpc/2/common', 'login', [sandbox.database]));
      expect(arity.faultString).toContain("TypeError: exp_login() missing 2 required positional arguments: 'login' and 'password'");
    });

    it('answers about', async () => {
      expect(resultOf(await xmlrpc(sandbox.url, '/xmlrpc/2/common', 'about', []))).toBe('See http://openerp.com');
    });
  });

  describe('object', () => {
    it('round-trips search_read, search_count and read, with kwargs and context', async () => {
      expect(resultOf(await kw(sandbox.keys.valid, 'res.partner', 'search_read', [[['is_company', '=', true]]], { fields: ['name'], limit: 5 }))).toEqual([
        { id: 2, name: 'Bamba SARL' },
      ]);
      expect(resultOf(await kw(sandbox.keys.valid, 'res.partner', 'search_count', [[]]))).toBe(2);
      expect(resultOf(await kw(sandbox.keys.valid, 'res.partner', 'search_count', [[]], { context: { active_test: false } }))).toBe(3);
      expect(resultOf(await kw(sandbox.keys.valid, 'res.partner', 'read', [[2, 1], ['name']]))).toEqual([
        { id: 1, name: 'Aïssatou Diop' },
        { id: 2, name: 'Bamba SARL' },
      ]);
    });

    it('hands ids, positional and named arguments and the context over as Odoo does', async () => {
      await kw(sandbox.keys.valid, 'res.partner', 'echo', [[3, 4], 'x'], { context: { lang: 'fr_FR' } });
      const call = sandbox.orm.calls[sandbox.orm.calls.length - 1];
      expect(call).toEqual({ env: { uid: 7, context: { lang: 'fr_FR' } }, model: 'res.partner', method: 'echo', ids: [3, 4], positional: ['x'], named: {} });
      await object([sandbox.database, '7', sandbox.keys.valid, 'res.partner', 'echo', [5], { value: 1 }]);
      expect(sandbox.orm.calls[sandbox.orm.calls.length - 1]).toMatchObject({ ids: [5], positional: [], named: { value: 1 }, env: { uid: 7, context: {} } });
    });

    it('supports execute with positional arguments', async () => {
      const count = await xmlrpc(sandbox.url, '/xmlrpc/2/object', 'execute', [sandbox.database, 7, sandbox.keys.valid, 'res.partner', 'search_count', []]);
      expect(resultOf(count)).toBe(2);
    });

    it('faults 3 on bad credentials, before looking at the model', async () => {
      for (const key of ['f'.repeat(40), '', sandbox.keys.other, sandbox.keys.scoped]) {
        expect(faultOf(await kw(key, 'no.such.model', 'search_count', [[]]))).toEqual({ faultCode: 3, faultString: 'Access Denied' });
      }
      const expired = await kw(sandbox.keys.expired, 'res.partner', 'search_count', [[]]);
      if (version === 17) expect(resultOf(expired)).toBe(2);
      else expect(faultOf(expired)).toEqual({ faultCode: 3, faultString: 'Access Denied' });
    });

    it('faults 2 on an unknown model', async () => {
      expect(faultOf(await kw(sandbox.keys.valid, 'no.such.model', 'search_count', [[]]))).toEqual({ faultCode: 2, faultString: "Object no.such.model doesn't exist" });
    });

    it('faults 1 on a missing method, worded per version', async () => {
      const fault = faultOf(await kw(sandbox.keys.valid, 'res.partner', 'frobnicate', []));
      expect(fault.faultCode).toBe(1);
      const wording = version === 18 ? "The method 'frobnicate' does not exist on the model 'res.partner'" : "The method 'res.partner.frobnicate' does not exist";
      expect(fault.faultString).toContain(`AttributeError: ${wording}`);
    });

    it('faults 4 on a private method; 18 refuses the name even before the model', async () => {
      const wording =
        version === 18 ? 'Private methods (such as _secret) cannot be called remotely.' : "Private methods (such as 'res.partner._secret') cannot be called remotely.";
      expect(faultOf(await kw(sandbox.keys.valid, 'res.partner', '_secret', []))).toEqual({ faultCode: 4, faultString: wording });
      const unknownModel = faultOf(await kw(sandbox.keys.valid, 'no.such.model', '_secret', []));
      expect(unknownModel.faultCode).toBe(version === 18 ? 4 : 2);
    });

    it('faults 1 (IndexError) on a record method without ids', async () => {
      const fault = faultOf(await kw(sandbox.keys.valid, 'res.partner', 'read', []));
      expect(fault.faultCode).toBe(1);
      expect(fault.faultString).toContain(`IndexError: ${version === 19 ? 'list' : 'tuple'} index out of range`);
    });

    it('faults 1 when the method returns None', async () => {
      const fault = faultOf(await kw(sandbox.keys.valid, 'res.partner', 'check_access_rights', ['read']));
      expect(fault.faultCode).toBe(1);
      expect(fault.faultString).toMatch(/TypeError: cannot marshal None unless allow_none is enabled\n$/);
    });

    it('refuses writes with an access error', async () => {
      expect(faultOf(await kw(sandbox.keys.valid, 'res.partner', 'write', [[1], { name: 'x' }])).faultCode).toBe(4);
    });

    it.each([
      ['user', 2, 'Invalid order'],
      ['validation', 2, 'Bad value'],
      ['missing', 2, 'Record does not exist or has been deleted.'],
      ['access', 4, 'You are not allowed to access this.'],
    ])('maps a %s error to fault %i with its message', async (kind, code, message) => {
      expect(faultOf(await kw(sandbox.keys.valid, 'res.partner', 'raise_error', [kind]))).toEqual({ faultCode: code, faultString: message });
    });

    it('maps any other exception to fault 1 with a traceback', async () => {
      const value = faultOf(await kw(sandbox.keys.valid, 'res.partner', 'raise_error', ['value']));
      expect(value.faultCode).toBe(1);
      expect(value.faultString).toMatch(/^Traceback \(most recent call last\):\n[\s\S]*\nValueError: Invalid field foo on model res.partner\n$/);
      const bug = faultOf(await kw(sandbox.keys.valid, 'res.partner', 'raise_error', ['bug']));
      expect(bug.faultCode).toBe(1);
      expect(bug.faultString).toContain('Exception: a bug in the sandbox');
      expect(sandbox.errors).toEqual([new TypeError('a bug in the sandbox')]); // reported, not only answered
    });

    it('checks the service method name before (19) or after (17/18) the credentials', async () => {
      const fault = faultOf(await xmlrpc(sandbox.url, '/xmlrpc/2/object', 'execute_sql', [sandbox.database, 7, 'f'.repeat(40), 'res.partner', 'search', []]));
      if (version === 19) {
        expect(fault.faultCode).toBe(1);
        expect(fault.faultString).toContain('NameError: Method not available execute_sql');
      } else {
        expect(fault).toEqual({ faultCode: 3, faultString: 'Access Denied' });
      }
    });

    it('faults 1 on malformed parameters', async () => {
      const fault = faultOf(await object([sandbox.database, 'seven', sandbox.keys.valid, 'res.partner', 'search_count', [[]]]));
      expect(fault.faultString).toContain("ValueError: invalid literal for int() with base 10: 'seven'");
      expect(faultOf(await object([sandbox.database])).faultCode).toBe(1);
    });
  });

  describe('legacy /xmlrpc/<service> string fault codes', () => {
    const legacy = (key: string, method: string, args: unknown[]) =>
      xmlrpc(sandbox.url, '/xmlrpc/object', 'execute_kw', [sandbox.database, sandbox.uid, key, 'res.partner', method, args, {}]);

    it('answers calls like /xmlrpc/2', async () => {
      expect(resultOf(await legacy(sandbox.keys.valid, 'search_count', [[]]))).toBe(2);
      expect(resultOf(await xmlrpc(sandbox.url, '/xmlrpc/common', 'version', []))).toMatchObject({ server_version: `${version}.0` });
    });

    it.each([
      ['user', 'warning -- UserError\n\nInvalid order'],
      ['validation', 'warning -- UserError\n\nBad value'],
      ['missing', 'warning -- MissingError\n\nRecord does not exist or has been deleted.'],
      ['access', 'warning -- AccessError\n\nYou are not allowed to access this.'],
    ])('maps a %s error to a "warning --" code', async (kind, faultCode) => {
      expect(faultOf(await legacy(sandbox.keys.valid, 'raise_error', [kind]))).toEqual({ faultCode, faultString: '' });
    });

    it('maps AccessDenied and server errors', async () => {
      expect(faultOf(await legacy('f'.repeat(40), 'search_count', [[]]))).toEqual({ faultCode: 'AccessDenied', faultString: 'Access Denied' });
      const value = faultOf(await legacy(sandbox.keys.valid, 'raise_error', ['value']));
      expect(value.faultCode).toBe('Invalid field foo on model res.partner');
      expect(value.faultString).toMatch(/^Traceback/);
    });
  });

  describe('protocol errors', () => {
    it('faults 1 on an unknown service and on malformed XML, with HTTP 200', async () => {
      const service = faultOf(await xmlrpc(sandbox.url, '/xmlrpc/2/nope', 'version', []));
      expect(service.faultCode).toBe(1);
      expect(service.faultString).toContain("KeyError: 'nope'");
      for (const body of ['', 'not xml', '<methodCall><methodName>x</methodName><params><param><value><int>x</int></value></param></params></methodCall>']) {
        const res = await fetch(`${sandbox.url}/xmlrpc/2/common`, { method: 'POST', headers: { 'Content-Type': 'text/xml' }, body });
        expect(res.status).toBe(200);
        expect(await res.text()).toContain('<name>faultCode</name>\n<value><int>1</int></value>');
      }
    });

    it('answers 405 to other verbs', async () => {
      const res = await fetch(`${sandbox.url}/xmlrpc/2/common`);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    });
  });
});
