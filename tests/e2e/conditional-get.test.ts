/**
 * Conditional GET (runtime/http/conditional.ts, RFC 9110 §13.1.2): every 200 data answer and every
 * document carries a strong ETag, stable while the data is; If-None-Match holding it (in a list, as
 * `W/`, or `*`) is answered 304 with no body and the ETag, for GET and HEAD alike; changed data has a
 * new ETag. Every 304 is one the OpenAPI document describes.
 */
import { DatabaseSync } from 'node:sqlite';
import request from 'supertest';
import { expectDocumented } from '../support/openapi-responses';
import { startStack, type Stack } from '../support/stack';

const LIST = '/api/v1/fleet/vehicles?limit=50';
const DETAIL = '/api/v1/fleet/vehicles/1?fields=plate,model';
/** The body's tag, with the coding appended when the answer is compressed (supertest's GET sends Accept-Encoding: gzip, deflate). */
const STRONG_TAG = /^"[A-Za-z0-9_-]{27}(-br|-gzip)?"$/;
/** What supertest sends with a GET and not with a HEAD: a HEAD sends it too, to ask for the same representation. */
const AS_GET = 'gzip, deflate';

describe('conditional GET', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ transport: 'json2' });
  });
  afterAll(() => stack.close());

  const get = (path: string, ifNoneMatch?: string) => {
    const test = stack.get(path);
    return ifNoneMatch === undefined ? test : test.set('If-None-Match', ifNoneMatch);
  };
  const head = (path: string, ifNoneMatch?: string) => {
    const test = request(stack.url).head(path).set('Authorization', `Bearer ${stack.keys.valid}`).set('Accept-Encoding', AS_GET);
    return ifNoneMatch === undefined ? test : test.set('If-None-Match', ifNoneMatch);
  };
  const expectNotModified = (path: string, res: request.Response, etag: string) => {
    expectDocumented(path, res);
    expect([res.status, res.headers['etag'], res.text ?? '', res.headers['content-length'] ?? '0']).toEqual([304, etag, '', '0']);
  };

  it.each([
    ['a list', LIST],
    ['a detail', DETAIL],
  ])('gives %s a strong ETag, the same for the same data', async (_kind, path) => {
    const first = expectDocumented(path, await get(path));
    const second = expectDocumented(path, await get(path));
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.headers['etag']).toMatch(STRONG_TAG);
    expect(second.headers['etag']).toBe(first.headers['etag']);
    expect(first.headers['cache-control']).toBe('no-store');
  });

  it.each([
    ['a list', LIST],
    ['a detail', DETAIL],
  ])('answers %s 304 with no body and the ETag when If-None-Match holds it', async (_kind, path) => {
    const etag = String((await get(path)).headers['etag']);
    expectNotModified(path, await get(path, etag), etag);
  });

  it('gives other query parameters their own ETag', async () => {
    const etag = String((await get(LIST)).headers['etag']);
    const other = await get('/api/v1/fleet/vehicles?limit=49', etag);
    expect([other.status, other.headers['etag'] === etag]).toEqual([200, false]);
  });

  it('gives a changed record a new ETag and answers it in full', async () => {
    const path = '/api/v1/fleet/vehicles/2?fields=plate';
    const before = await get(path);
    const db = new DatabaseSync(stack.dbPath);
    try {
      db.prepare('UPDATE fleet_vehicle SET license_plate = ? WHERE id = 2').run('ETAG-1');
    } finally {
      db.close();
    }
    const after = expectDocumented(path, await get(path, String(before.headers['etag'])));
    expect([after.status, after.body.data.plate]).toEqual([200, 'ETAG-1']);
    expect(after.headers['etag']).toMatch(STRONG_TAG);
    expect(after.headers['etag']).not.toBe(before.headers['etag']);
  });

  it('follows RFC 9110: `*`, a list holding the tag, a weak W/ tag match; other tags, an empty or malformed field do not', async () => {
    const etag = String((await get(DETAIL)).headers['etag']);
    const opaque = etag.slice(1, -1);
    for (const field of ['*', ` * `, `"other", ${etag}`, `${etag},"other"`, `W/${etag}`, `"a", W/"b", W/${etag}`, `"a",${etag}`])
      expectNotModified(DETAIL, await get(DETAIL, field), etag);
    for (const field of ['"other"', `W/"other", "x"`, opaque, `"${opaque.slice(1)}"`, '', '"', 'W/', `${etag.slice(0, -1)}`]) {
      const res = expectDocumented(DETAIL, await get(DETAIL, field));
      expect([field, res.status, res.headers['etag']]).toEqual([field, 200, etag]);
    }
  });

  it('answers HEAD as GET: the same ETag, and 304 when it matches', async () => {
    const etag = String((await get(LIST)).headers['etag']);
    const plain = expectDocumented(LIST, await head(LIST), 'HEAD');
    expect([plain.status, plain.headers['etag']]).toEqual([200, etag]);
    expectNotModified(LIST, await head(LIST, etag), etag);
    expectNotModified(LIST, await head(LIST, '*'), etag);
  });

  it('never answers an error 304 nor gives it an ETag', async () => {
    const etag = String((await get(DETAIL)).headers['etag']);
    for (const [path, key, status] of [
      [DETAIL, null, 401],
      ['/api/v1/fleet/vehicles/999999', stack.keys.valid, 404],
      ['/api/v1/fleet/vehicles?colour=red', stack.keys.valid, 400],
    ] as const) {
      const res = expectDocumented(path, await stack.get(path, key).set('If-None-Match', '*'));
      expect([path, res.status, res.headers['etag']]).toEqual([path, status, undefined]);
    }
    expect((await stack.get(DETAIL, stack.keys.no_read.key).set('If-None-Match', etag)).status).toBe(403);
  });

  it.each(['/api/openapi.json', '/api/docs', '/api/llms.txt'])('serves %s with a strong ETag and 304 on If-None-Match (exact, W/ or *)', async (path) => {
    const full = await request(stack.url).get(path);
    const etag = String(full.headers['etag']);
    expect([full.status, etag]).toEqual([200, expect.stringMatching(STRONG_TAG)]);
    expect((await request(stack.url).get(path)).headers['etag']).toBe(etag);
    for (const field of [etag, `W/${etag}`, '*', `"x", ${etag}`]) {
      const res = await request(stack.url).get(path).set('If-None-Match', field);
      expect([field, res.status, res.headers['etag'], res.text ?? '', res.headers['cache-control']]).toEqual([field, 304, etag, '', full.headers['cache-control']]);
    }
    const headRes = await request(stack.url).head(path).set('Accept-Encoding', AS_GET).set('If-None-Match', etag);
    expect(headRes.status).toBe(304);
    expect((await request(stack.url).get(path).set('If-None-Match', '"other"')).status).toBe(200);
  });
});
