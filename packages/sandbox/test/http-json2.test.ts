/**
 * JSON-2 transport over real HTTP, against the in-test ORM: bearer keys, dispatch order,
 * statuses, headers and bodies (odoo-external-api.md, section 4), and its absence before 19.
 */
import { bearer, json2, startTestSandbox, type TestSandbox } from './http-helpers';

describe('JSON-2, Odoo 19', () => {
  let sandbox: TestSandbox;

  beforeAll(async () => {
    sandbox = await startTestSandbox(19);
  });
  afterAll(() => sandbox.close());

  it('calls a method with named arguments and answers the bare JSON value', async () => {
    const res = await json2(sandbox.url, 'res.partner/search_read', { domain: [['is_company', '=', true]], fields: ['name'], limit: 2 }, bearer(sandbox.keys.valid));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.text).toBe('[{"id": 2, "name": "Bamba SARL"}]');
    expect((await json2(sandbox.url, 'res.partner/search_count', { domain: [], context: { active_test: false } }, bearer(sandbox.keys.valid))).json()).toBe(3);
    expect((await json2(sandbox.url, 'res.partner/read', { ids: [1], fields: ['name'] }, bearer(sandbox.keys.valid))).json()).toEqual([{ id: 1, name: 'Aïssatou Diop' }]);
  });

  it('identifies the user by the key alone and passes ids and context apart from the arguments', async () => {
    expect((await json2(sandbox.url, 'res.users/context_get', {}, bearer(sandbox.keys.valid))).json()).toEqual({ lang: 'en_US', tz: false, uid: 7 });
    expect((await json2(sandbox.url, 'res.users/context_get', {}, bearer(sandbox.keys.other))).json()).toMatchObject({ uid: 2 });
    await json2(sandbox.url, 'res.partner/echo', { ids: [4, 5], context: { lang: 'fr_FR' }, value: 'v' }, bearer(sandbox.keys.valid));
    expect(sandbox.orm.calls[sandbox.orm.calls.length - 1]).toEqual({
      env: { uid: 7, context: { lang: 'fr_FR' } },
      model: 'res.partner',
      method: 'echo',
      ids: [4, 5],
      positional: [],
      named: { value: 'v' },
    });
  });

  it('accepts an empty body, or a JSON value that is not an object, as no arguments', async () => {
    const empty = await fetch(`${sandbox.url}/json/2/res.users/context_get`, { method: 'POST', headers: bearer(sandbox.keys.valid) });
    expect(empty.status).toBe(200);
    expect((await json2(sandbox.url, 'res.users/context_get', [1, 2], bearer(sandbox.keys.valid))).status).toBe(200);
    expect((await json2(sandbox.url, 'res.users/context_get', null, bearer(sandbox.keys.valid))).status).toBe(200);
  });

  it('answers null for None', async () => {
    const res = await json2(sandbox.url, 'res.partner/check_access_rights', { operation: 'read' }, bearer(sandbox.keys.valid));
    expect(res.status).toBe(200);
    expect(res.text).toBe('null');
  });

  it('accepts the bearer scheme in any case', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      expect((await json2(sandbox.url, 'res.users/context_get', {}, { Authorization: `${scheme} ${sandbox.keys.valid}` })).status).toBe(200);
    }
  });

  it('answers 401 with WWW-Authenticate for a bad, expired, foreign-scope or archived key', async () => {
    for (const key of ['f'.repeat(40), sandbox.keys.expired, sandbox.keys.scoped, sandbox.keys.archived, 'short']) {
      const res = await json2(sandbox.url, 'res.partner/search_count', { domain: [] }, bearer(key));
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(res.json()).toEqual({
        name: 'werkzeug.exceptions.Unauthorized',
        message: 'Invalid apikey',
        arguments: ['Invalid apikey', 401],
        context: {},
        debug: expect.stringMatching(/^Traceback/),
      });
    }
  });

  it('answers 401 "User not authenticated" without a bearer header, before the model check', async () => {
    for (const headers of [{} as Record<string, string>, { Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, { Authorization: 'Bearer' }]) {
      const res = await json2(sandbox.url, 'no.such.model/search', {}, headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(res.json()).toMatchObject({ message: 'User not authenticated, use an API Key with a Bearer Authorization header.' });
    }
  });

  it.each([
    ['unknown model', 'no.such/search_count', {}, 404, 'werkzeug.exceptions.NotFound', "the model 'no.such' does not exist"],
    ['missing method', 'res.partner/frobnicate', {}, 404, 'werkzeug.exceptions.NotFound', "The method 'res.partner.frobnicate' does not exist"],
    ['private method', 'res.partner/_secret', {}, 403, 'odoo.exceptions.AccessError', "Private methods (such as 'res.partner._secret') cannot be called remotely."],
    ['@api.private method', 'res.partner/sudo', {}, 403, 'odoo.exceptions.AccessError', "Private methods (such as 'res.partner.sudo') cannot be called remotely."],
    [
      'ids on an @api.model method',
      'res.partner/search_count',
      { ids: [1], domain: [] },
      422,
      'werkzeug.exceptions.UnprocessableEntity',
      'cannot call res.partner.search_count with ids',
    ],
    ['missing argument', 'res.partner/search_count', {}, 422, 'werkzeug.exceptions.UnprocessableEntity', "missing a required argument: 'domain'"],
    ['unknown argument', 'res.partner/read', { ids: [1], colour: 'red' }, 422, 'werkzeug.exceptions.UnprocessableEntity', "got an unexpected keyword argument 'colour'"],
    ['refused write', 'res.partner/write', { ids: [1], vals: { name: 'x' } }, 403, 'odoo.exceptions.AccessError', "You are not allowed to modify 'Contact' (res.partner) records."],
    ['user error', 'res.partner/raise_error', { kind: 'user' }, 422, 'odoo.exceptions.UserError', 'Invalid order'],
    ['validation error', 'res.partner/raise_error', { kind: 'validation' }, 422, 'odoo.exceptions.ValidationError', 'Bad value'],
    ['missing record', 'res.partner/raise_error', { kind: 'missing' }, 404, 'odoo.exceptions.MissingError', 'Record does not exist or has been deleted.'],
    ['server error', 'res.partner/raise_error', { kind: 'value' }, 500, 'builtins.ValueError', 'Invalid field foo on model res.partner'],
  ])('answers a %s', async (_label, path, body, status, name, message) => {
    const res = await json2(sandbox.url, path, body, bearer(sandbox.keys.valid));
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const answer = res.json() as Record<string, unknown>;
    expect(answer).toMatchObject({ name, message, context: {} });
    expect(answer['arguments']).toEqual(name.startsWith('werkzeug.') ? [message, status] : [message]);
  });

  it('answers 400 for a body that is not JSON, with Python json wording', async () => {
    for (const [body, detail] of [
      ['not json', 'Expecting value: line 1 column 1 (char 0)'],
      ['{"a": 1,}', 'Expecting property name enclosed in double quotes: line 1 column 9 (char 8)'],
      ['{"a": 1}\n x', 'Extra data: line 2 column 2 (char 10)'],
    ] as const) {
      const res = await fetch(`${sandbox.url}/json/2/res.partner/search_count`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...bearer(sandbox.keys.valid) },
        body,
      });
      expect(res.status).toBe(400);
      const message = `could not parse the body as json: ${detail}`;
      expect(await res.json()).toMatchObject({ name: 'werkzeug.exceptions.BadRequest', message, arguments: [message, 400] });
    }
  });

  it('answers 415 HTML for a non-JSON content type, before authentication', async () => {
    const res = await fetch(`${sandbox.url}/json/2/res.partner/search_count`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'domain=[]',
    });
    expect(res.status).toBe(415);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('accept')).toBe('application/json');
    expect(await res.text()).toContain(
      'Request inferred type is compatible with [&#39;http&#39;] but &#39;/json/2/&lt;__model__&gt;/&lt;__method__&gt;&#39; is type=&#39;json2&#39;.<br><br>Please verify the Content-Type request header and try again.',
    );
  });

  it('answers the catch-all 404 JSON for other verbs and paths under /json/2', async () => {
    const expected = {
      name: 'werkzeug.exceptions.NotFound',
      message: 'Did you mean POST /json/2/<model>/<method>?',
      arguments: ['Did you mean POST /json/2/<model>/<method>?', 404],
    };
    for (const [method, path] of [
      ['GET', '/json/2/res.partner/search'],
      ['DELETE', '/json/2/res.partner/search'],
      ['POST', '/json/2'],
      ['POST', '/json/2/res.partner'],
      ['POST', '/json/2/res.partner/search/extra'],
      ['GET', '/json/2/'],
    ]) {
      const res = await fetch(`${sandbox.url}${path}`, { method });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await res.json()).toMatchObject(expected);
    }
  });

  it('honours X-Odoo-Database: the served name works, another is the no-database 404 page', async () => {
    const good = await json2(sandbox.url, 'res.users/context_get', {}, { ...bearer(sandbox.keys.valid), 'X-Odoo-Database': sandbox.database });
    expect(good.status).toBe(200);
    const wrong = await json2(sandbox.url, 'res.users/context_get', {}, { ...bearer(sandbox.keys.valid), 'X-Odoo-Database': 'other' });
    expect(wrong.status).toBe(404);
    expect(wrong.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(wrong.text).toContain('No database is selected and the requested URL was not found in the server-wide controllers.');
  });

  it('serves GET /web/version', async () => {
    const res = await fetch(`${sandbox.url}/web/version`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ version_info: [19, 0, 0, 'final', 0, ''], version: '19.0' });
  });
});

describe.each([17, 18] as const)('no JSON-2 in Odoo %i', (version) => {
  let sandbox: TestSandbox;

  beforeAll(async () => {
    sandbox = await startTestSandbox(version);
  });
  afterAll(() => sandbox.close());

  it('answers the plain 404 page under /json/2 and /web/version', async () => {
    const res = await json2(sandbox.url, 'res.users/context_get', {}, bearer(sandbox.keys.valid));
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<title>404 Not Found</title>');
    expect((await fetch(`${sandbox.url}/web/version`)).status).toBe(404);
  });
});
