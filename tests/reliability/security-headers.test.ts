/**
 * Response headers that protect clients and data: `X-Content-Type-Options: nosniff` on every kind of
 * answer, no `X-Powered-By`, data and health answers never cached (`Cache-Control: no-store`) nor
 * answered 304 on a validator they never had, a strict Content-Security-Policy on the docs page, and
 * CORS off unless origins are configured (then only those get it, and their preflight is answered).
 */
import request from 'supertest';
import { startStack, type Stack } from '../support/stack';

const ALLOWED = 'https://dash.example.org';
const OTHER = 'https://evil.example';

describe('security headers', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ transport: 'json2' });
  });
  afterAll(() => stack.close());

  const auth = () => `Bearer ${stack.keys.valid}`;
  const kinds: readonly (readonly [string, () => request.Test, number])[] = [
    ['a list', () => request(stack.url).get('/api/v1/fleet/vehicles?limit=1').set('Authorization', auth()), 200],
    ['a detail', () => request(stack.url).get('/api/v1/fleet/vehicles/1').set('Authorization', auth()), 200],
    ['HEAD on a list', () => request(stack.url).head('/api/v1/fleet/vehicles?limit=1').set('Authorization', auth()), 200],
    ['401', () => request(stack.url).get('/api/v1/fleet/vehicles'), 401],
    ['400', () => request(stack.url).get('/api/v1/fleet/vehicles?colour=red').set('Authorization', auth()), 400],
    ['422', () => request(stack.url).get('/api/v1/fleet/vehicles?limit=0').set('Authorization', auth()), 422],
    ['404 of a record', () => request(stack.url).get('/api/v1/fleet/vehicles/999999').set('Authorization', auth()), 404],
    ['404 of a path', () => request(stack.url).get('/nowhere'), 404],
    ['405', () => request(stack.url).delete('/api/v1/fleet/vehicles/1').set('Authorization', auth()), 405],
    ['the docs page', () => request(stack.url).get('/api/docs'), 200],
    ['openapi.json', () => request(stack.url).get('/api/openapi.json'), 200],
    ['llms.txt', () => request(stack.url).get('/api/llms.txt'), 200],
    ['/healthz', () => request(stack.url).get('/healthz'), 200],
    ['/readyz', () => request(stack.url).get('/readyz'), 200],
  ];

  it.each(kinds)('%s: nosniff, no X-Powered-By', async (_kind, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('never lets data, errors or health answers be stored by a cache', async () => {
    // The documents have their own caching; the 405 page comes from the routing layer and holds nothing.
    for (const [kind, send] of kinds.filter(([kind]) => !/docs|openapi|llms|405/.test(kind))) expect([kind, (await send()).headers['cache-control']]).toEqual([kind, 'no-store']);
  });

  it('answers a conditional request on health in full: it has no validator (If-None-Match: * is not a 304)', async () => {
    for (const path of ['/healthz', '/readyz'])
      for (const header of [
        ['If-None-Match', '*'],
        ['If-Modified-Since', new Date(Date.now() + 86400000).toUTCString()],
      ] as const) {
        const res = await request(stack.url).get(path).set(header[0], header[1]);
        expect([path, header[0], res.status, res.headers['etag']]).toEqual([path, header[0], 200, undefined]);
      }
  });

  it('answers If-Modified-Since on data in full: data carries an ETag, no date to compare', async () => {
    const res = await request(stack.url)
      .get('/api/v1/fleet/vehicles/1')
      .set('Authorization', auth())
      .set('If-Modified-Since', new Date(Date.now() + 86400000).toUTCString());
    expect([res.status, res.body.data?.id, res.headers['cache-control']]).toEqual([200, 1, 'no-store']);
  });

  it('serves the docs page with a strict Content-Security-Policy', async () => {
    const res = await request(stack.url).get('/api/docs');
    const csp = String(res.headers['content-security-policy']);
    const directives = new Map(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name as string, values]),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    for (const name of ['script-src', 'style-src']) {
      const values = directives.get(name) ?? [];
      expect(values.length).toBeGreaterThan(0);
      // Only hashes of the page's own inline code: no 'unsafe-inline', 'unsafe-eval', hosts or wildcards.
      for (const value of values) expect([name, value]).toEqual([name, expect.stringMatching(/^'sha(256|384|512)-[A-Za-z0-9+/=]+'$/)]);
    }
    for (const name of ['frame-ancestors', 'base-uri', 'form-action']) expect([name, directives.get(name)]).toEqual([name, ["'none'"]]);
    expect(csp).not.toMatch(/unsafe-|\*|http:|data: .*script/);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('has CORS off by default: no Access-Control-Allow-Origin, and a preflight is a 405', async () => {
    const get = await request(stack.url).get('/api/v1/fleet/vehicles?limit=1').set('Authorization', auth()).set('Origin', ALLOWED);
    expect([get.status, get.headers['access-control-allow-origin']]).toEqual([200, undefined]);
    const preflight = await request(stack.url).options('/api/v1/fleet/vehicles').set('Origin', ALLOWED).set('Access-Control-Request-Method', 'GET');
    expect([preflight.status, preflight.headers['access-control-allow-origin']]).toEqual([405, undefined]);
  });
});

describe('CORS with CORS_ORIGINS set', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ transport: 'json2', env: { CORS_ORIGINS: `${ALLOWED},https://other.example.org` } });
  });
  afterAll(() => stack.close());

  it('gives an allowed origin Access-Control-Allow-Origin on data and errors, varying on Origin', async () => {
    for (const key of [stack.keys.valid, 'wrong']) {
      const res = await request(stack.url).get('/api/v1/fleet/vehicles?limit=1').set('Authorization', `Bearer ${key}`).set('Origin', ALLOWED);
      expect([res.status, res.headers['access-control-allow-origin'], res.headers['vary']]).toEqual([
        key === 'wrong' ? 401 : 200,
        ALLOWED,
        // A data answer varies on Accept-Encoding too (compression); an error is never compressed.
        key === 'wrong' ? 'Origin' : 'Origin, Accept-Encoding',
      ]);
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      // A script may read the ETag to send it back in If-None-Match.
      expect(String(res.headers['access-control-expose-headers']).split(', ')).toEqual(expect.arrayContaining(['ETag', 'X-Unreadable-Fields']));
    }
  });

  it('gives any other origin nothing', async () => {
    for (const origin of [OTHER, 'null', `${ALLOWED}.evil.example`, ALLOWED.toUpperCase(), `${ALLOWED}/`]) {
      const res = await request(stack.url).get('/api/v1/fleet/vehicles?limit=1').set('Authorization', `Bearer ${stack.keys.valid}`).set('Origin', origin);
      expect([origin, res.status, res.headers['access-control-allow-origin']]).toEqual([origin, 200, undefined]);
    }
  });

  it("answers an allowed origin's preflight 204 with the methods and header a bearer GET needs; refuses another's", async () => {
    const ok = await request(stack.url)
      .options('/api/v1/fleet/vehicles')
      .set('Origin', ALLOWED)
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization');
    expect(ok.status).toBe(204);
    expect(ok.headers).toMatchObject({
      'access-control-allow-origin': ALLOWED,
      'access-control-allow-methods': 'GET, HEAD',
      'access-control-allow-headers': 'Authorization, If-None-Match, X-Request-Id, traceparent, tracestate',
      'x-content-type-options': 'nosniff',
    });
    const refused = await request(stack.url).options('/api/v1/fleet/vehicles').set('Origin', OTHER).set('Access-Control-Request-Method', 'GET');
    expect([refused.status, refused.headers['access-control-allow-origin']]).toEqual([405, undefined]);
  });
});
