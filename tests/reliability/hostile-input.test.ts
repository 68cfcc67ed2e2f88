/**
 * Hostile input on every data route (two per catalogue resource), property-based (fast-check): generated query strings, paths,
 * methods and headers (see support/hostile-requests.ts). With a healthy ERP, every answer is within
 * the timeout, never 5xx, in the error envelope (HTML for 405), carries `nosniff`, is described by
 * the OpenAPI document, and the ERP receives only what the catalogue defines: no field name,
 * operator, sort key or model comes from the client. Raw-protocol garbage (what Node's parser
 * refuses) is tested apart, over a plain socket.
 *
 * FC_SEED and FC_RUNS override the seed and the number of cases (the seed is printed on failure).
 */
import fc from 'fast-check';
import openapi from '@ops-data-gateway/gateway/generated/openapi.json';
import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import { ERROR_CODES } from '@ops-data-gateway/gateway/runtime/errors';
import { expectDocumented } from '../support/openapi-responses';
import { startStack, type Stack } from '../support/stack';
import { catalogueViolations } from './support/erp-call-checks';
import { hostileRequest, type HostileRequest } from './support/hostile-requests';
import { KeepAliveClient, type RawResponse } from './support/keep-alive-client';
import { rawExchange } from './support/raw-exchange';

const TIMEOUT_MS = 3000;
const RUNS = Number(process.env['FC_RUNS'] ?? 2500);
const SEED = Number(process.env['FC_SEED'] ?? 20261122);
const COMMON = new Set(['limit', 'offset', 'since_id', 'total', 'order', 'fields']);
const STATUS_OF_CODE: Readonly<Record<string, number>> = ERROR_CODES;
const RESOURCE_BY_PATH = new Map(RESOURCES.map((r) => [r.path, r]));
const TEMPLATES = Object.keys(openapi.paths).map((t) => new RegExp(`^${t.replace('{id}', '[^/]+')}$`));

/**
 * The path the OpenAPI document describes for what the gateway serves: a fragment is not part of the
 * path; anything else is matched exactly (letter case and trailing slashes count: exact-routing.ts).
 */
function documentedPath(path: string): string {
  const [withoutFragment = ''] = path.split('#');
  return withoutFragment;
}

/** The resource route the request's path names exactly, if any. */
function routeNamed(pathname: string, resource: string): 'list' | 'detail' | undefined {
  const base = `/api/v1/${resource}`;
  if (pathname === base) return 'list';
  const id = pathname.startsWith(`${base}/`) ? pathname.slice(base.length + 1) : '';
  return id && !id.includes('/') ? 'detail' : undefined;
}

const pathnameOf = (req: HostileRequest) => (req.path.split('#')[0] as string).split('?')[0] as string;

/** The resource route the gateway serves the request on, if any. */
function servedRoute(req: HostileRequest): 'list' | 'detail' | undefined {
  return routeNamed(pathnameOf(req), req.resource);
}

/** The served path a request's path differs from only by letter case or trailing slashes, if any: its 404 names it. */
function misspeltRoute(req: HostileRequest): string | undefined {
  const pathname = pathnameOf(req);
  const spelled = pathname.toLowerCase().replace(/(?<=.)\/+$/, '');
  return spelled !== pathname && !routeNamed(pathname, req.resource) && routeNamed(spelled, req.resource) ? spelled : undefined;
}

describe(`hostile input on the ${2 * RESOURCES.length} data routes`, () => {
  let stack: Stack;
  let client: KeepAliveClient;

  beforeAll(async () => {
    stack = await startStack({
      transport: 'json2',
      // Generated bad keys must not trip the per-address failure limit: it has its own suite.
      env: { ERP_TIMEOUT_MS: String(TIMEOUT_MS), AUTH_FAILURE_LIMIT: '1000000', LOG_LEVEL: 'warn' },
    });
    client = new KeepAliveClient(stack.url, TIMEOUT_MS + 2000);
  });
  afterAll(async () => {
    client.close();
    await stack.close();
  });

  function checkAnswer(req: HostileRequest, res: RawResponse, calls: typeof stack.erpCalls): void {
    const resource = RESOURCE_BY_PATH.get(req.resource) as (typeof RESOURCES)[number];
    const head = req.method === 'HEAD';
    expect(res.status).toBeLessThan(500);
    expect(res.ms).toBeLessThan(TIMEOUT_MS);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
    if (head) expect(res.text).toBe('');
    else if (res.status === 405) {
      expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
      expect(res.headers['allow']).toBe('GET, HEAD');
    } else if (res.status >= 400) {
      const body = res.body as { error?: { code?: string } };
      expect(res.body).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
      expect(STATUS_OF_CODE[body.error?.code as string]).toBe(res.status);
    }
    const documented = documentedPath(req.path);
    const onDocumentedRoute = TEMPLATES.some((t) => t.test(documented.split('?')[0] as string));
    // Node's parser refused the request (harden-server.ts): the 400 envelope (checked above) whatever the path.
    const unreadable = res.status === 400 && res.headers['connection'] === 'close';
    // A HEAD answer has no body to show its code: outside the documented routes, its status must say 404.
    if (head && !onDocumentedRoute && !unreadable) expect(res.status).toBe(404);
    else if (!unreadable) expectDocumented(documented, res, req.method);

    const route = servedRoute(req);
    // A misspelling of a served path (case, trailing slash) is not served: 404 naming the served path.
    const misspelt = misspeltRoute(req);
    if (misspelt && !head && !unreadable && res.status !== 400)
      expect([res.status, (res.body as { error: { message: string } }).error.message]).toEqual([404, expect.stringContaining(`did you mean ${misspelt.slice(0, 200)}?`)]);
    // Spec: any method other than GET (and HEAD, D25) on a data route is 405.
    if (route && !['GET', 'HEAD'].includes(req.method) && res.status !== 400) expect(res.status).toBe(405);
    // Spec: any query key that is not a named filter or common parameter is 400 (after a good key).
    if (route === 'list' && !head && req.method === 'GET' && req.headers?.['Authorization'] === `Bearer ${stack.keys.valid}` && !req.path.includes('#')) {
      const keys = [...new URLSearchParams(req.path.split('?')[1] ?? '').keys()];
      const names = new Set(resource.filters.map((f) => f.name));
      if (keys.some((k) => /^[a-z_]+$/.test(k) && !COMMON.has(k) && !names.has(k))) expect(res.status).toBe(400);
    }

    // What reached the ERP: only catalogue names; and a refused query never reaches it as a query.
    expect(catalogueViolations(resource, calls)).toEqual([]);
    if (res.status === 400 || res.status === 422 || res.status === 405) expect(calls.filter((c) => c.method === 'search_read' || c.method === 'search_count')).toEqual([]);
  }

  it(`keeps every invariant over ${RUNS} generated requests (seed ${SEED})`, async () => {
    const statuses = new Map<number, number>();
    const started = performance.now();
    try {
      await fc.assert(
        fc.asyncProperty(hostileRequest(RESOURCES, stack.keys.valid), async (req) => {
          const before = stack.erpCalls.length;
          const res = await client.send(req);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          checkAnswer(req, res, stack.erpCalls.slice(before));
        }),
        { numRuns: RUNS, seed: SEED },
      );
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      throw new Error(
        `hostile input: a generated request broke an invariant (reproduce with FC_SEED=${SEED} FC_RUNS=${RUNS})\n${String(error)}${cause ? `\ncause: ${String(cause)}` : ''}`,
      );
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stdout.write(`hostile input: ${RUNS} cases in ${seconds} s, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}\n`);
    // The generators reach every kind of answer, so the invariants were tested on each.
    // (200 is rarer since control characters and broken percent-encoding in values are 422, not altered.)
    for (const status of [200, 400, 401, 404, 405, 422]) expect(statuses.get(status) ?? 0).toBeGreaterThan(RUNS / 200);
  }, 180_000);

  describe('raw protocol garbage gets the 400 envelope and a closed connection, never a hang', () => {
    const valid = () => `Authorization: Bearer ${stack.keys.valid}\r\nHost: x\r\n`;
    it.each([
      ['a URL longer than the header limit', () => `GET /api/v1/fleet/vehicles?name=${'a'.repeat(20000)} HTTP/1.1\r\n${valid()}\r\n`],
      ['a header longer than the limit', () => `GET /api/v1/fleet/vehicles HTTP/1.1\r\n${valid()}X-Big: ${'b'.repeat(20000)}\r\n\r\n`],
      ['a space inside the path', () => `GET /api/v1/fleet/vehicles?a=b c HTTP/1.1\r\n${valid()}\r\n`],
      ['a control character in the path', () => `GET /api/v1/fleet/vehicles?a=\u0001 HTTP/1.1\r\n${valid()}\r\n`],
      ['an unknown method token', () => `BREW /api/v1/fleet/vehicles HTTP/1.1\r\n${valid()}\r\n`],
      ['a malformed request line', () => `GET\r\n${valid()}\r\n`],
      ['an unknown HTTP version', () => `GET /api/v1/fleet/vehicles HTTP/7.3\r\n${valid()}\r\n`],
      ['a header without a colon', () => `GET /api/v1/fleet/vehicles HTTP/1.1\r\n${valid()}Broken header\r\n\r\n`],
      ['a bare LF inside a header value', () => `GET /api/v1/fleet/vehicles HTTP/1.1\r\n${valid()}X-A: a\nb\r\n\r\n`],
      ['a Transfer-Encoding other than chunked', () => `GET /api/v1/fleet/vehicles HTTP/1.1\r\n${valid()}Transfer-Encoding: gzip\r\n\r\n`],
      ['both Content-Length and Transfer-Encoding', () => `GET /api/v1/fleet/vehicles HTTP/1.1\r\n${valid()}Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
      ['two different Content-Length headers', () => `GET /api/v1/fleet/vehicles HTTP/1.1\r\n${valid()}Content-Length: 1\r\nContent-Length: 2\r\n\r\nab`],
      ['binary noise', () => Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03, 0x0d, 0x0a, 0x0d, 0x0a])],
    ])('%s', async (_case, bytes) => {
      const started = performance.now();
      const answer = await rawExchange(stack.url, bytes());
      expect(performance.now() - started).toBeLessThan(TIMEOUT_MS);
      expect([answer.status, JSON.parse(answer.body)]).toEqual([400, { error: { code: 'bad_request', message: expect.any(String) } }]);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['connection']).toBe('close');
    });

    it('serves an absolute-form request line like its path, and an unknown Expect is ignored, not 417', async () => {
      const absolute = await rawExchange(stack.url, `GET http://evil.example/api/v1/fleet/vehicles?limit=1 HTTP/1.1\r\n${valid()}Connection: close\r\n\r\n`);
      expect(absolute.status).toBe(200);
      const expectation = await rawExchange(stack.url, `GET /api/v1/fleet/vehicles?limit=1 HTTP/1.1\r\n${valid()}Expect: teapot\r\nConnection: close\r\n\r\n`);
      expect(expectation.status).toBe(200);
    });
  });
});
