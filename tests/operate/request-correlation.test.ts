/**
 * Request correlation over real HTTP, with the sandbox ERP behind a recording proxy: the request id
 * (taken from the client when it is a safe token, made otherwise, echoed on every kind of answer and
 * written in every log line of the request), the W3C trace context passed on to the ERP, the access
 * log line (full route template, query keys without values, cache outcome, ERP account) and
 * `Server-Timing` on data answers.
 */
import request from 'supertest';
import type { FaultProxy } from '../support/fault-proxy';
import { startStackBehindProxy, type Stack } from '../support/stack';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('request correlation', () => {
  let stack: Stack;
  let proxy: FaultProxy;
  beforeAll(async () => {
    ({ stack, proxy } = await startStackBehindProxy({ transport: 'json2', env: { LOG_LEVEL: 'debug' } }));
  });
  afterAll(async () => {
    await stack.close();
    await proxy.close();
  });

  const auth = () => `Bearer ${stack.keys.valid}`;
  /** The access lines written for requests with this id. */
  const accessLines = (id: string) =>
    stack.logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['msg'] === 'request' && line['request_id'] === id);
  /** The access line is written once the answer is out: wait for it. */
  const accessLineOf = async (id: string) => {
    for (let i = 0; i < 100 && accessLines(id).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const lines = accessLines(id);
    expect(lines).toHaveLength(1);
    return lines[0] as Record<string, unknown>;
  };

  const kinds: readonly (readonly [string, (id: string) => request.Test, number])[] = [
    ['a list', (id) => request(stack.url).get('/api/v1/fleet/vehicles?limit=1').set('Authorization', auth()).set('X-Request-Id', id), 200],
    ['HEAD on a detail', (id) => request(stack.url).head('/api/v1/fleet/vehicles/1').set('Authorization', auth()).set('X-Request-Id', id), 200],
    ['401', (id) => request(stack.url).get('/api/v1/fleet/vehicles').set('X-Request-Id', id), 401],
    ['400', (id) => request(stack.url).get('/api/v1/fleet/vehicles?colour=red').set('Authorization', auth()).set('X-Request-Id', id), 400],
    ['404 of a path', (id) => request(stack.url).get('/nowhere').set('X-Request-Id', id), 404],
    ['405', (id) => request(stack.url).delete('/api/v1/fleet/vehicles/1').set('X-Request-Id', id), 405],
    ['openapi.json', (id) => request(stack.url).get('/api/openapi.json').set('X-Request-Id', id), 200],
    ['/readyz', (id) => request(stack.url).get('/readyz').set('X-Request-Id', id), 200],
  ];

  it.each(kinds)('%s: echoes the client id and logs it in the access line', async (kind, send, status) => {
    const id = `client-${kind.replace(/[^a-z0-9]/gi, '')}:1/2+3=4_5.6`;
    const res = await send(id);
    expect([res.status, res.headers['x-request-id']]).toEqual([status, id]);
    expect(await accessLineOf(id)).toMatchObject({ request_id: id, status });
  });

  it('makes a new UUID when the client sends none, one per request', async () => {
    const first = await request(stack.url).get('/healthz');
    const second = await request(stack.url).get('/healthz');
    expect(String(first.headers['x-request-id'])).toMatch(UUID);
    expect(String(second.headers['x-request-id'])).toMatch(UUID);
    expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
    expect(await accessLineOf(String(first.headers['x-request-id']))).toMatchObject({ route: '/healthz' });
  });

  it.each([
    ['a space', 'two words'],
    ['markup', '<script>'],
    ['a quote', 'a"b'],
    ['129 characters', 'x'.repeat(129)],
    ['an empty value', ''],
  ])('replaces a client id with %s by a new UUID, and never logs it', async (_what, unsafe) => {
    const res = await request(stack.url).get('/healthz').set('X-Request-Id', unsafe);
    expect(String(res.headers['x-request-id'])).toMatch(UUID);
    if (unsafe) expect(stack.logLines.some((line) => line.includes(JSON.stringify(unsafe).slice(1, -1)))).toBe(false);
  });

  it('writes the request id in every log line of the request, the error lines included', async () => {
    proxy.mode = { kind: 'html' };
    const before = stack.logLines.length;
    let res: request.Response;
    try {
      res = await request(stack.url).get('/api/v1/fleet/trips?limit=2').set('Authorization', auth()).set('X-Request-Id', 'failing-request');
    } finally {
      proxy.mode = { kind: 'forward' };
    }
    expect([res.status, res.headers['x-request-id']]).toEqual([502, 'failing-request']);
    await accessLineOf('failing-request');
    const lines = stack.logLines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
    // The ERP error at debug and the access line at error, at least: all of them name the request.
    expect(lines.map((line) => line['msg'])).toEqual(expect.arrayContaining(['ERP error message', 'request']));
    for (const line of lines) expect([line['msg'], line['request_id']]).toEqual([line['msg'], 'failing-request']);
  });

  it('passes the request id and the client trace context on to every ERP call of the request', async () => {
    proxy.resetCounts();
    const res = await request(stack.url)
      .get('/api/v1/fleet/trips?limit=2')
      .set('Authorization', auth())
      .set('X-Request-Id', 'traced-request')
      .set('traceparent', TRACEPARENT)
      .set('tracestate', 'vendor=opaque');
    expect(res.status).toBe(200);
    expect(proxy.requestHeaders.length).toBeGreaterThan(0);
    for (const headers of proxy.requestHeaders)
      expect([headers['x-request-id'], headers['traceparent'], headers['tracestate']]).toEqual(['traced-request', TRACEPARENT, 'vendor=opaque']);
    expect(await accessLineOf('traced-request')).toMatchObject({ trace_id: '4bf92f3577b34da6a3ce929d0e0e4736' });
  });

  it.each([
    ['an all-zero trace id', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`],
    ['upper-case hex', TRACEPARENT.toUpperCase()],
    ['a version 00 with extra fields', `${TRACEPARENT}-extra`],
    ['the forbidden version ff', TRACEPARENT.replace(/^00/, 'ff')],
    ['a short parent id', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902-01'],
  ])('ignores a traceparent with %s: nothing reaches the ERP', async (_what, traceparent) => {
    proxy.resetCounts();
    const res = await request(stack.url).get('/api/v1/fleet/vehicles/1').set('Authorization', auth()).set('traceparent', traceparent);
    expect(res.status).toBe(200);
    for (const headers of proxy.requestHeaders) expect([headers['traceparent'], headers['x-request-id']]).toEqual([undefined, res.headers['x-request-id']]);
  });

  it('logs the full route template, query keys without values, the cache outcome and the ERP account, never the key', async () => {
    const fleet = (await stack.get('/api/v1/fleet/trips?limit=1')).body.data[0].id as number;
    const travel = (await stack.get('/api/v1/travel/trips?limit=1')).body.data[0].id as number;
    const cases = [
      [`/api/v1/fleet/trips/${fleet}?fields=id`, '/api/v1/fleet/trips/{id}', ['fields']],
      [`/api/v1/travel/trips/${travel}`, '/api/v1/travel/trips/{id}', undefined],
      ['/api/v1/fleet/trips?limit=3&date_after=2020-01-02', '/api/v1/fleet/trips', ['limit', 'date_after']],
    ] as const;
    for (const [path, route, keys] of cases) {
      const id = `route-${route.replace(/[^a-z]/g, '')}-${keys?.length ?? 0}`;
      const res = await stack.get(path).set('X-Request-Id', id);
      expect([path, res.status]).toEqual([path, 200]);
      const line = await accessLineOf(id);
      expect(line).toMatchObject({ route, status: 200, cache: 'off', erp_uid: expect.any(Number), erp_calls: expect.any(Number), erp_ms: expect.any(Number) });
      expect(line['query_keys']).toEqual(keys);
      const text = JSON.stringify(line);
      for (const secret of [stack.keys.valid, '2020-01-02']) expect([path, text.includes(secret)]).toEqual([path, false]);
    }
    // A path no route serves is logged as one value, whatever the path holds.
    await request(stack.url).get('/api/v1/fleet/trips/1/secret@example.org').set('X-Request-Id', 'unrouted');
    const unrouted = await accessLineOf('unrouted');
    expect(unrouted['route']).toBe('(no route)');
    expect(JSON.stringify(unrouted)).not.toContain('example.org');
  });

  it('says on a data answer how long the ERP and the gateway took, and the cache outcome (Server-Timing)', async () => {
    const res = await stack.get('/api/v1/fleet/trips?limit=5');
    const timing = String(res.headers['server-timing']);
    const metrics = new Map(timing.split(/,\s*/).map((entry) => [entry.split(';')[0], entry] as const));
    expect([...metrics.keys()]).toEqual(['erp', 'gw', 'cache']);
    const duration = (name: string) => Number(/;dur=([0-9.]+)/.exec(metrics.get(name) ?? '')?.[1]);
    expect(duration('erp')).toBeGreaterThan(0);
    expect(duration('gw')).toBeGreaterThanOrEqual(0);
    expect(metrics.get('erp')).toMatch(/desc="ERP calls: [1-9][0-9]*"/);
    expect(metrics.get('cache')).toBe('cache;desc=off');
    // The access line's ERP time is the one the header gave (both rounded from the same figure).
    const line = await accessLineOf(String(res.headers['x-request-id']));
    expect(Math.abs((line['erp_ms'] as number) - duration('erp'))).toBeLessThanOrEqual(0.1);
    // A 304 says it too; an error and a document do not (they are not data answers).
    expect((await stack.get('/api/v1/fleet/trips?limit=5').set('If-None-Match', String(res.headers['etag']))).headers['server-timing']).toMatch(/^erp;dur=/);
    expect((await request(stack.url).get('/api/v1/fleet/trips')).headers['server-timing']).toBeUndefined();
    expect((await request(stack.url).get('/api/openapi.json')).headers['server-timing']).toBeUndefined();
  });
});
