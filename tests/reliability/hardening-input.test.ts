/**
 * Input that cannot be used is refused, never altered, identically over JSON-2, JSON-RPC and XML-RPC,
 * before the ERP is asked for data: more query parameters than the gateway accepts (Node's parser
 * used to drop every one past 1,000 without a word, so a filter or `fields=` after padding was
 * ignored), control characters and invalid UTF-8 in a value. The ERP is trusted no further than the
 * protocol (a page never has more than `limit` records), settings that would leak or be bypassed are
 * refused at start-up, what Node would answer by itself is answered in the error envelope, and the
 * sandbox refuses a NUL in a domain value as PostgreSQL-backed Odoo does.
 */
import { ConfigError, loadConfig } from '@ops-data-gateway/gateway/runtime/config';
import { MAX_QUERY_PARAMS } from '@ops-data-gateway/gateway/runtime/http/strict-query';
import type { FaultProxy } from '../support/fault-proxy';
import { expectDocumented } from '../support/openapi-responses';
import { startStack, startStackBehindProxy, type Stack, type TransportUnderTest } from '../support/stack';
import { rawExchange } from './support/raw-exchange';

const LIST = '/api/v1/fleet/vehicles';
const dataCalls = (stack: Stack) => stack.erpCalls.filter((call) => call.method === 'search_read' || call.method === 'search_count').length;

describe.each<[string, TransportUnderTest]>([
  ['JSON-2', 'json2'],
  ['JSON-RPC', 'jsonrpc'],
  ['XML-RPC', 'xmlrpc'],
])('unusable query input over %s', (_name, transport) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ transport, version: 19 });
    expect((await stack.get(`${LIST}?limit=1`)).status).toBe(200);
  });
  afterAll(() => stack.close());

  /** GET path with the valid key: the answer, checked against the OpenAPI document, and whether data was read. */
  async function ask(path: string) {
    const before = dataCalls(stack);
    const res = expectDocumented(path, await stack.get(path));
    return {
      status: res.status,
      code: (res.body as { error?: { code: string } }).error?.code,
      message: (res.body as { error?: { message: string } }).error?.message ?? '',
      read: dataCalls(stack) > before,
    };
  }

  it(`more than ${MAX_QUERY_PARAMS} parameters: 400 naming the limit, never a silent truncation (a filter after 1,000 of padding)`, async () => {
    const padding = Array.from({ length: 1000 }, (_, _i) => `total=true`).join('&');
    for (const tail of ['fields=id', 'plate=ZZ-999-ZZ', 'limit=1']) {
      const res = await ask(`${LIST}?${padding}&${tail}`);
      expect([res.status, res.code, res.read]).toEqual([400, 'bad_request', false]);
      expect(res.message).toContain(String(MAX_QUERY_PARAMS));
    }
    // At the limit, the parameters are read: a repeated `total` is then refused for what it is.
    const atLimit = await ask(`${LIST}?${Array.from({ length: MAX_QUERY_PARAMS }, () => 'total=true').join('&')}`);
    expect([atLimit.status, atLimit.code]).toEqual([422, 'invalid_value']);
  });

  it.each([
    ['a NUL byte', 'plate=AB%00CD'],
    ['a NUL byte alone', 'plate=%00'],
    ['another C0 control', 'plate=AB%01'],
    ['a line feed', 'plate=AB%0ACD'],
    ['DEL', 'plate=AB%7F'],
    ['invalid UTF-8', 'plate=%FF'],
    ['a truncated UTF-8 sequence', 'plate=%C3'],
    ['a broken percent escape', 'plate=%G1'],
    ['a control character in fields', 'fields=id%00'],
    ['a control character in order', 'order=plate%00'],
  ])('%s in a value: 422 invalid_value naming the parameter, the ERP never asked for data', async (_what, query) => {
    const res = await ask(`${LIST}?${query}`);
    expect([res.status, res.code, res.read]).toEqual([422, 'invalid_value', false]);
    expect(res.message).toContain(`'${query.split('=')[0]}'`);
    // A detail takes only `fields`: the same value there.
    const detail = await ask(`${LIST}/1?fields=${query.split('=')[1]}`);
    expect([detail.status, detail.code, detail.read]).toEqual([422, 'invalid_value', false]);
  });

  it('a tab is text every transport carries: accepted, and matches nothing here', async () => {
    const res = await stack.get(`${LIST}?plate=AB%09CD`);
    expect([res.status, res.body.data]).toEqual([200, []]);
  });
});

describe('the ERP is trusted no further than the protocol', () => {
  let stack: Stack;
  let proxy: FaultProxy;
  beforeAll(async () => {
    ({ stack, proxy } = await startStackBehindProxy({ transport: 'json2' }));
  });
  afterAll(async () => {
    await proxy.close();
    await stack.close();
  });

  it('a list page (offset or cursor) never has more than limit records, whatever the ERP sends', async () => {
    proxy.mode = {
      kind: 'rewrite',
      rewrite: (path, body) => {
        if (!path.endsWith('/fleet.vehicle/search_read')) return body;
        const rows = JSON.parse(body) as Record<string, unknown>[];
        // An error answer (the account's unreadable odometer relation) passes unchanged.
        if (!Array.isArray(rows)) return body;
        return JSON.stringify(Array.from({ length: 20 }, (_, i) => ({ ...rows[0], id: 1000 + i })));
      },
    };
    for (const path of [`${LIST}?limit=3`, `${LIST}?limit=3&total=false`, `${LIST}?since_id=0&limit=3`]) {
      const res = expectDocumented(path, await stack.get(path));
      expect([path, res.status, res.body.data?.length ?? res.body]).toEqual([path, 200, 3]);
    }
    proxy.mode = { kind: 'forward' };
  });
});

describe('settings that would leak or be bypassed are refused at start-up', () => {
  const base = { ERP_URL: 'http://erp.example.test', ERP_DATABASE: 'odoo' };

  it.each([
    ['ERP_URL', { ERP_URL: 'http://user:secret@erp.example.test' }],
    ['ERP_URL', { ERP_URL: 'http://user@erp.example.test' }],
    ['ERP_PUBLIC_URL', { ERP_PUBLIC_URL: 'https://user:secret@erp.example.test' }],
  ])('credentials in %s: one line naming the variable, never the password', (variable, env) => {
    let error: unknown;
    try {
      loadConfig({ ...base, ...env });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as ConfigError).message).not.toContain('secret');
  });

  it("TRUST_PROXY=true (which trusts the client's own X-Forwarded-For) is refused; a hop count or subnets are taken", () => {
    expect(() => loadConfig({ ...base, TRUST_PROXY: 'true' })).toThrow(ConfigError);
    expect(loadConfig({ ...base, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8' }).trustProxy).toBe('10.0.0.0/8');
  });

  it('the record links are built from the ERP URL without credentials', () => {
    expect(loadConfig(base).erp.publicUrl).toBe('http://erp.example.test');
  });
});

describe('what Node would answer by itself, in the error envelope', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ transport: 'json2' });
  });
  afterAll(() => stack.close());

  const expectEnvelope = (res: { status: number; headers: Readonly<Record<string, string>>; body: string }, status: number) => {
    expect(res.status).toBe(status);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect((JSON.parse(res.body) as { error: { code: string } }).error.code).toBe('bad_request');
  };

  it('HTTP/1.1 without Host: 400 in the envelope', async () => {
    expectEnvelope(await rawExchange(stack.url, 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n'), 400);
  });

  it('CONNECT: 400 in the envelope, not a silent close', async () => {
    expectEnvelope(await rawExchange(stack.url, 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n'), 400);
  });

  it('a GET with an endless body is refused at once and its connection closed, not drained', async () => {
    const started = performance.now();
    const chunk = `400\r\n${'x'.repeat(1024)}\r\n`;
    const head = `GET ${LIST} HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${stack.keys.valid}\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const res = await rawExchange(stack.url, head + chunk.repeat(64), 3000);
    expectEnvelope(res, 400);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe('the sandbox refuses a NUL in a domain value, as Odoo on PostgreSQL does', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ transport: 'json2' });
  });
  afterAll(() => stack.close());

  it('JSON-2: 500 with ValueError; JSON-RPC: the same ValueError; no record matched', async () => {
    const headers = { 'Content-Type': 'application/json', Authorization: `bearer ${stack.keys.valid}`, 'X-Odoo-Database': stack.sandbox.database };
    const json2 = await fetch(`${stack.sandbox.url}/json/2/fleet.vehicle/search_read`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ domain: [['license_plate', '=', 'AB\u0000']], fields: ['id'] }),
    });
    const body = (await json2.json()) as { name: string; message: string };
    expect([json2.status, body.name, body.message]).toEqual([500, 'builtins.ValueError', 'A string literal cannot contain NUL (0x00) characters.']);
  });
});

describe('the access log line names the route template in full, and the query keys without values', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ transport: 'json2' });
  });
  afterAll(() => stack.close());

  it('fleet/trips and travel/trips are told apart; a detail logs its template, never the id or a value', async () => {
    for (const path of [
      '/api/v1/fleet/trips?limit=1&total=false',
      '/api/v1/travel/trips?limit=1',
      '/api/v1/fleet/vehicles/2?fields=plate',
      '/api/openapi.json',
      '/api/v1/no/such/path?secret=1',
    ])
      await stack.get(path);
    const lines = stack.logLines.map((line) => JSON.parse(line) as { msg: string; route?: string; query_keys?: string[] }).filter((line) => line.msg === 'request');
    expect(lines.map((line) => [line.route, line.query_keys])).toEqual([
      ['/api/v1/fleet/trips', ['limit', 'total']],
      ['/api/v1/travel/trips', ['limit']],
      ['/api/v1/fleet/vehicles/{id}', ['fields']],
      ['/api/openapi.json', undefined],
      ['(no route)', ['secret']],
    ]);
  });
});
