/**
 * Compression over real HTTP: gzip or brotli as Accept-Encoding asks (when both are equally welcome,
 * gzip for data, whose brotli is no smaller at the fast settings, and brotli for documents), identity otherwise and below the threshold, `Vary: Accept-Encoding` on every answer that
 * could be compressed, the same bytes once decompressed, a coding-specific ETag that still gives 304,
 * and nothing compressed with COMPRESSION=off.
 */
import { get, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startStack, type Stack } from '../support/stack';

interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** An answer's bytes as sent (supertest decompresses gzip and brotli by itself): node:http, nothing decoded. */
function raw(url: string, headers: Readonly<Record<string, string>>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

function decoded(res: RawAnswer): string {
  const coding = res.headers['content-encoding'];
  return (coding === 'br' ? brotliDecompressSync(res.body) : coding === 'gzip' ? gunzipSync(res.body) : res.body).toString('utf8');
}

describe('compression', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ transport: 'json2' });
  });
  afterAll(() => stack.close());

  const data = (path: string, headers: Readonly<Record<string, string>>) => raw(`${stack.url}${path}`, { Authorization: `Bearer ${stack.keys.valid}`, ...headers });
  const page = (encoding: string, ifNoneMatch?: string) =>
    data('/api/v1/fleet/trips?limit=200', { 'Accept-Encoding': encoding, ...(ifNoneMatch ? { 'If-None-Match': ifNoneMatch } : {}) });

  it.each([
    ['gzip, deflate, br', 'gzip'],
    ['br, gzip', 'gzip'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['*', 'gzip'],
    ['gzip;q=0.5, br', 'br'],
    ['deflate', undefined],
    ['identity', undefined],
    ['gzip;q=0, br;q=0', undefined],
  ])('Accept-Encoding: %s gives %s, the same JSON once decoded', async (encoding, expected) => {
    const plain = await page('identity');
    const res = await page(encoding);
    expect([res.status, res.headers['content-encoding'], res.headers['vary']]).toEqual([200, expected, 'Accept-Encoding']);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(JSON.parse(decoded(res))).toEqual(JSON.parse(decoded(plain)));
    if (expected) expect(res.body.length).toBeLessThan(plain.body.length / 3);
  });

  it('gives each coding its own ETag, and 304 on it', async () => {
    const tags = new Map<string, string>();
    for (const encoding of ['identity', 'gzip', 'br']) {
      const res = await page(encoding);
      tags.set(encoding, String(res.headers['etag']));
      const again = await page(encoding, String(res.headers['etag']));
      expect([encoding, again.status, again.headers['etag']]).toEqual([encoding, 304, res.headers['etag']]);
    }
    expect(tags.get('gzip')).toBe(`${tags.get('identity')?.slice(0, -1)}-gzip"`);
    expect(tags.get('br')).toBe(`${tags.get('identity')?.slice(0, -1)}-br"`);
    // A tag of another coding is another representation: the answer is sent in full.
    expect((await page('br', tags.get('gzip'))).status).toBe(200);
  });

  it('leaves an answer under COMPRESSION_MIN_BYTES (1 KB) as it is, still varying on Accept-Encoding', async () => {
    const res = await data('/api/v1/fleet/vehicles/1?fields=id', { 'Accept-Encoding': 'br, gzip' });
    expect(res.body.length).toBeLessThan(1024);
    expect([res.status, res.headers['content-encoding'], res.headers['vary']]).toEqual([200, undefined, 'Accept-Encoding']);
  });

  it.each(['/api/openapi.json', '/api/docs', '/api/llms.txt'])('compresses %s once, for every request after', async (path) => {
    const plain = await raw(`${stack.url}${path}`, { 'Accept-Encoding': 'identity' });
    // A browser's header: a document prefers brotli (compressed once, it is the smaller).
    expect((await raw(`${stack.url}${path}`, { 'Accept-Encoding': 'gzip, deflate, br' })).headers['content-encoding']).toBe('br');
    for (const coding of ['br', 'gzip']) {
      const first = await raw(`${stack.url}${path}`, { 'Accept-Encoding': coding });
      const second = await raw(`${stack.url}${path}`, { 'Accept-Encoding': coding });
      expect([first.headers['content-encoding'], first.headers['vary']]).toEqual([coding, 'Accept-Encoding']);
      expect(decoded(first)).toBe(plain.body.toString('utf8'));
      expect(second.body.equals(first.body)).toBe(true);
      expect(first.body.length).toBeLessThan(plain.body.length / 4);
    }
  });

  it('never compresses an error answer (they are small)', async () => {
    const res = await raw(`${stack.url}/api/v1/fleet/trips`, { 'Accept-Encoding': 'br' });
    expect([res.status, res.headers['content-encoding']]).toEqual([401, undefined]);
  });
});

describe('compression off (COMPRESSION=off, behind a proxy that compresses)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ transport: 'json2', env: { COMPRESSION: 'off' } });
  });
  afterAll(() => stack.close());

  it.each(['/api/v1/fleet/trips?limit=200', '/api/openapi.json'])('sends %s as it is, with no Vary', async (path) => {
    const res = await raw(`${stack.url}${path}`, { Authorization: `Bearer ${stack.keys.valid}`, 'Accept-Encoding': 'gzip, deflate, br' });
    expect([res.status, res.headers['content-encoding'], res.headers['vary']]).toEqual([200, undefined, undefined]);
    expect(Number(res.headers['content-length'])).toBeGreaterThan(20000);
  });
});
