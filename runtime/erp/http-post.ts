/**
 * @module One request to the ERP over a kept-alive connection, with a hard deadline. Network
 * failures become `ErpUnavailable`, an expired deadline `ErpTimeout`; the body is returned as text
 * for the transport to parse. A kept-alive connection found closed on reuse is replaced once.
 *
 * Built on node:http directly rather than axios: measured on this machine class, axios costs about
 * 0.75 ms of CPU per call on top of node:http's 0.17 ms, more than the gateway's whole budget
 * (BENCHMARKS.md, "Where the time goes").
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { ErpTimeout, ErpUnavailable } from './erp-error';

export interface HttpAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** Largest ERP answer the gateway accepts (a page of 200 wide records is far below). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export interface HttpClient {
  readonly url: URL;
  readonly secure: boolean;
  readonly agent: HttpAgent;
}

export function createHttpClient(baseUrl: string): HttpClient {
  const url = new URL(baseUrl);
  const secure = url.protocol === 'https:';
  const options = { keepAlive: true, maxSockets: 256, keepAliveMsecs: 1000 };
  return { url, secure, agent: secure ? new HttpsAgent(options) : new HttpAgent(options) };
}

export function postToErp(
  client: HttpClient,
  path: string,
  body: string,
  headers: Readonly<Record<string, string>>,
  deadline: AbortSignal,
  method: 'POST' | 'GET' = 'POST',
): Promise<HttpAnswer> {
  if (deadline.aborted) return Promise.reject(new ErpTimeout('the ERP did not answer in time'));
  const payload = method === 'POST' ? Buffer.from(body, 'utf8') : undefined;
  const basePath = client.url.pathname.replace(/\/+$/, '');
  return new Promise<HttpAnswer>((resolve, reject) => {
    const fail = (error: unknown) => {
      if (deadline.aborted) reject(new ErpTimeout('the ERP did not answer in time'));
      else reject(new ErpUnavailable(`ERP unreachable (${(error as { code?: string }).code ?? (error as Error).message})`, { cause: error }));
    };
    const send = (retry: boolean) => {
      const request = (client.secure ? httpsRequest : httpRequest)(
        {
          protocol: client.url.protocol,
          hostname: client.url.hostname,
          port: client.url.port,
          path: `${basePath}${path}`,
          method,
          // The retry takes a connection of its own: the pool's other idle ones are likely closed too.
          agent: retry ? client.agent : false,
          signal: deadline,
          headers: { ...headers, 'Accept-Encoding': 'gzip, deflate', ...(payload ? { 'Content-Length': String(payload.length) } : {}) },
        },
        (response) => readAnswer(response).then(resolve, fail),
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the ERP (or a proxy before it) closed while idle fails as soon as it
        // is reused: send once more on a new connection. Every call the gateway makes is a read.
        if (retry && request.reusedSocket && !deadline.aborted && STALE_SOCKET.has(error.code ?? '')) send(false);
        else fail(error);
      });
      request.end(payload);
    };
    send(true);
  });
}

/** How reusing a connection the other side has closed fails, before any answer. */
const STALE_SOCKET = new Set(['ECONNRESET', 'EPIPE']);

function readAnswer(response: IncomingMessage): Promise<HttpAnswer> {
  const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
  const stream: Readable = encoding === 'gzip' ? response.pipe(createGunzip()) : encoding === 'deflate' ? response.pipe(createInflate()) : response;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        response.destroy();
        reject(new ErpUnavailable('ERP answer too large'));
        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => {
      if (!response.complete) return reject(new ErpUnavailable('ERP answer cut short'));
      resolve({
        status: response.statusCode ?? 0,
        contentType: String(response.headers['content-type'] ?? ''),
        body: chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8'),
      });
    });
    stream.on('error', reject);
    response.on('aborted', () => reject(new ErpUnavailable('ERP answer cut short')));
  });
}
