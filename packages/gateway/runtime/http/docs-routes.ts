/**
 * @module The public documentation routes (no credentials): `/api/openapi.json` with `servers` set to
 * the gateway's public base URL, `/api/docs` (HTML page, with its own Content-Security-Policy) and
 * `/api/llms.txt` (flat Markdown), both with `{base_url}` replaced. Bodies and their ETags are built
 * once at start-up; a request holding the ETag gets 304 (conditional.ts). Each compressed form is
 * made once, when first asked for, at a strong setting, and kept (compression.ts).
 */
import type { RequestHandler, Router } from 'express';
import { exactRouter } from './exact-routing';
import { codingFor, compress, taggedFor, type Coding, type CompressionSettings } from './compression';
import { answeredNotModified, entityTagOf } from './conditional';

export interface StaticDocument {
  readonly body: string | Buffer;
  readonly type: string;
  readonly cacheControl: string;
  readonly extraHeaders?: Readonly<Record<string, string>>;
}

function serveDocument(document: StaticDocument, compression: CompressionSettings): RequestHandler {
  // One Buffer for every answer: the OpenAPI document is 468 KB, and a pipelining client asking for
  // it a thousand times must not make the gateway encode a thousand copies.
  const body = Buffer.isBuffer(document.body) ? document.body : Buffer.from(document.body, 'utf8');
  const etag = entityTagOf(body);
  const type = document.type.includes('charset') ? document.type : `${document.type}; charset=utf-8`;
  const compressed = new Map<Exclude<Coding, 'identity'>, Promise<Buffer>>();
  const compressedIn = (coding: Exclude<Coding, 'identity'>) => {
    let made = compressed.get(coding);
    if (!made) {
      made = compress(body, coding, 'best');
      compressed.set(coding, made);
    }
    return made;
  };
  return async (req, res) => {
    res.setHeader('Cache-Control', document.cacheControl);
    for (const [name, value] of Object.entries(document.extraHeaders ?? {})) res.setHeader(name, value);
    const coding = codingFor(req, res, compression, body.length, 'best');
    if (answeredNotModified(req, res, taggedFor(etag, coding))) return;
    res.setHeader('Content-Type', type);
    const sent = coding === 'identity' ? body : await compressedIn(coding);
    if (coding !== 'identity') res.setHeader('Content-Encoding', coding);
    res.setHeader('Content-Length', sent.length);
    res.end(sent);
  };
}

export function openApiWithServer(openapi: object, publicBaseUrl: string): string {
  return `${JSON.stringify({ ...openapi, servers: [{ url: publicBaseUrl, description: 'This gateway.' }] }, null, 2)}\n`;
}

const BASE_URL_PLACEHOLDER = '{base_url}';
const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * A generated document with every `{base_url}` replaced by the public base URL, HTML-escaped for an
 * HTML document. The page's inline script and style hold no placeholder, so their CSP hashes hold.
 */
export function withBaseUrl(document: string, publicBaseUrl: string, format: 'html' | 'text'): string {
  const value = format === 'html' ? publicBaseUrl.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string) : publicBaseUrl;
  return document.split(BASE_URL_PLACEHOLDER).join(value);
}

export function createDocsRouter(documents: Readonly<Record<string, StaticDocument>>, compression: CompressionSettings): Router {
  const router = exactRouter();
  for (const [path, document] of Object.entries(documents)) router.get(path, serveDocument(document, compression));
  return router;
}
