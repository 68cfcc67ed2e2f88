/**
 * @module One request to the ERP over a kept-alive connection, with a hard deadline. Network
 * failures become `ErpUnavailable`, an expired deadline `ErpTimeout`; the body is returned as text
 * for the transport to parse. A connection the ERP closed just as it was reused is replaced once.
 *
 * Built on undici's connection pool: measured on this machine class, it costs 0.1 to 0.2 ms less CPU
 * per ERP call than node:http's client (and axios cost 0.75 ms more than node:http), on a gateway
 * whose whole budget is about a millisecond per request (BENCHMARKS.md, "Where the time goes").
 */
import { Pool, type Dispatcher } from 'undici';
import { gunzipSync, inflateSync } from 'node:zlib';
import { ErpTimeout, ErpUnavailable } from './erp-error';

export interface HttpAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** Largest ERP answer the gateway accepts (a page of 200 wide records is far below). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export interface HttpClient {
  readonly pool: Pool;
  /** The path of the ERP's base URL (Odoo behind a path prefix), without its trailing slash. */
  readonly basePath: string;
}

export function createHttpClient(baseUrl: string): HttpClient {
  const url = new URL(baseUrl);
  // The ERP client's semaphore bounds the calls in flight far below this.
  return { pool: new Pool(url.origin, { connections: 256 }), basePath: url.pathname.replace(/\/+$/, '') };
}

export async function postToErp(
  client: HttpClient,
  path: string,
  body: string,
  headers: Readonly<Record<string, string>>,
  deadline: AbortSignal,
  method: 'POST' | 'GET' = 'POST',
): Promise<HttpAnswer> {
  if (deadline.aborted) throw new ErpTimeout('the ERP did not answer in time');
  const options: Dispatcher.RequestOptions = {
    path: `${client.basePath}${path}`,
    method,
    headers: { ...headers, 'accept-encoding': 'gzip, deflate' },
    ...(method === 'POST' ? { body } : {}),
    signal: deadline,
  };
  let response: Dispatcher.ResponseData;
  try {
    response = await client.pool.request(options);
  } catch (error) {
    // A kept-alive connection the ERP (or a proxy before it) closed while idle fails as soon as it is
    // reused, before any answer: send once more, on a new connection. Every call the gateway makes is a read.
    if (deadline.aborted || !STALE_SOCKET.has(codeOf(error))) throw failure(error, deadline);
    try {
      response = await client.pool.request(options);
    } catch (again) {
      throw failure(again, deadline);
    }
  }
  return readAnswer(response, deadline);
}

/** How reusing a connection the other side has closed fails, before any answer. */
const STALE_SOCKET = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

function codeOf(error: unknown): string {
  return String((error as { code?: unknown }).code ?? '');
}

function failure(error: unknown, deadline: AbortSignal): Error {
  if (deadline.aborted) return new ErpTimeout('the ERP did not answer in time');
  const code = codeOf(error) || (error as Error).message;
  return new ErpUnavailable(`ERP unreachable (${code})`, { cause: error });
}

async function readAnswer(response: Dispatcher.ResponseData, deadline: AbortSignal): Promise<HttpAnswer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) {
        response.body.destroy();
        throw new ErpUnavailable('ERP answer too large');
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof ErpUnavailable) throw error;
    if (deadline.aborted) throw new ErpTimeout('the ERP did not answer in time');
    throw new ErpUnavailable('ERP answer cut short', { cause: error });
  }
  const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  return { status: response.statusCode, contentType: header(response, 'content-type'), body: decode(raw, header(response, 'content-encoding').toLowerCase()) };
}

function header(response: Dispatcher.ResponseData, name: string): string {
  const value = response.headers[name];
  return Array.isArray(value) ? value.join(', ') : String(value ?? '');
}

function decode(raw: Buffer, encoding: string): string {
  try {
    if (encoding === 'gzip') return gunzipSync(raw, { maxOutputLength: MAX_BODY_BYTES }).toString('utf8');
    if (encoding === 'deflate') return inflateSync(raw, { maxOutputLength: MAX_BODY_BYTES }).toString('utf8');
  } catch (error) {
    throw new ErpUnavailable('ERP answer could not be decompressed', { cause: error });
  }
  return raw.toString('utf8');
}
