/**
 * The three documentation routes: public, typed, cached with an ETag, HEAD without a body, 405 for
 * other methods, `{base_url}` replaced, and the page's CSP allowing exactly its inline script and style.
 */
import { createHash } from 'node:crypto';
import request from 'supertest';
import { catalogue, createDocsApp, DOC_PATHS, inlineBlocks, PUBLIC_BASE_URL } from './docs-app';

const app = createDocsApp();

const CONTENT_TYPES: Readonly<Record<(typeof DOC_PATHS)[number], RegExp>> = {
  '/api/docs': /^text\/html; charset=utf-8$/,
  '/api/openapi.json': /^application\/json; charset=utf-8$/,
  '/api/llms.txt': /^text\/markdown; charset=utf-8$/,
  '/llms.txt': /^text\/markdown; charset=utf-8$/,
};

describe('documentation routes', () => {
  it.each(DOC_PATHS)('%s answers 200 without credentials, typed, with ETag and Cache-Control', async (path) => {
    const res = await request(app).get(path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(CONTENT_TYPES[path]);
    expect(res.headers['etag']).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.text.length).toBeGreaterThan(1000);
  });

  it.each(DOC_PATHS)('%s answers 304 to If-None-Match with its ETag', async (path) => {
    const first = await request(app).get(path);
    const again = await request(app)
      .get(path)
      .set('If-None-Match', first.headers['etag'] as string);
    expect(again.status).toBe(304);
    expect(again.text).toBeFalsy();
    expect(again.headers['etag']).toBe(first.headers['etag']);
  });

  it.each(DOC_PATHS)('%s answers HEAD with the headers of GET and no body', async (path) => {
    const get = await request(app).get(path);
    // supertest's GET asks for gzip; the HEAD asks for the same representation.
    const head = await request(app).head(path).set('Accept-Encoding', 'gzip, deflate');
    expect(head.status).toBe(200);
    expect(head.text).toBeFalsy();
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['etag']).toBe(get.headers['etag']);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
  });

  it.each(DOC_PATHS.flatMap((path) => (['post', 'put', 'delete', 'patch'] as const).map((method) => [path, method] as const)))(
    '%s answers %s with 405, an HTML body and Allow',
    async (path, method) => {
      const res = await request(app)[method](path);
      expect(res.status).toBe(405);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['allow']).toBe('GET, HEAD');
      expect(res.text).toContain('Method Not Allowed');
    },
  );

  it('serves llms.txt at the site root (the llms.txt convention) as at /api/llms.txt', async () => {
    const root = await request(app).get('/llms.txt');
    const api = await request(app).get('/api/llms.txt');
    expect(root.text).toBe(api.text);
    expect(root.headers['etag']).toBe(api.headers['etag']);
  });

  it('keeps llms.txt within its budget of 25,000 tokens (4 characters a token) and tells an agent the essentials', async () => {
    const text = (await request(app).get('/llms.txt')).text;
    expect(text.length / 4).toBeLessThan(25000);
    expect(text).toContain('Getting a key:');
    expect(text).toContain(`POST ${PUBLIC_BASE_URL}/mcp`);
    expect(text).toMatch(/429, 503: wait `Retry-After` seconds/);
    expect(text).toContain('stop at `"next_since_id": null`');
    expect(text.match(/\nExample record \(shape only\): \{/g)).toHaveLength(catalogue().domains.flatMap((d) => d.resources).length);
  });

  it('replaces {base_url} by the public base URL in the page and in llms.txt', async () => {
    for (const path of ['/api/docs', '/api/llms.txt']) {
      const res = await request(app).get(path);
      expect(res.text).not.toContain('{base_url}');
      expect(res.text).toContain(`${PUBLIC_BASE_URL}/api/v1/`);
      expect(res.text).toContain(`${PUBLIC_BASE_URL}/api/openapi.json`);
    }
    const openapi = (await request(app).get('/api/openapi.json')).body as { servers: { url: string }[] };
    expect(openapi.servers).toEqual([{ url: PUBLIC_BASE_URL, description: 'This gateway.' }]);
  });

  it('serves the page with a CSP whose hashes are those of its one inline script and one inline style', async () => {
    const res = await request(app).get('/api/docs');
    const csp = res.headers['content-security-policy'] as string;
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
    const scripts = inlineBlocks(res.text, 'script');
    const styles = inlineBlocks(res.text, 'style');
    expect(scripts).toHaveLength(1);
    expect(styles).toHaveLength(1);
    expect(csp).toBe(
      `default-src 'none'; script-src ${hash(scripts[0] as string)}; style-src ${hash(styles[0] as string)}; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    expect(res.text).not.toMatch(/\sstyle=|\son[a-z]+=/i); // inline attributes would need 'unsafe-inline'
    expect(res.text).not.toMatch(/(?:src|href)="(?:https?:)?\/\/(?!ops\.example\.test)/); // nothing external
  });
});
