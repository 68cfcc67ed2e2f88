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
import type { Readable } from 'node:stream';
import { createGunzip, createInflate } from 'node:zlib';
import { ErpTimeout, ErpUnavailable } from './erp-error';
import { callHeadersOf } from './erp-observer';
import { leaseOf } from '../admission/memory-budget';

export interface HttpAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/**
 * Default ceiling of one ERP answer, decompressed (ERP_MAX_ANSWER_BYTES). Measured: a 200-record page
 * of the widest resource with ordinary data is about 70 KB; a record with a long description or notes
 * field of 50 KB makes a 200-record page 10 MB. 16 MB leaves room for such pages and refuses what no
 * page of 200 records should be.
 */
const DEFAULT_MAX_ANSWER_BYTES = 16 * 1024 * 1024;

export interface HttpClient {
  readonly pool: Pool;
  /** The path of the ERP's base URL (Odoo behind a path prefix), without its trailing slash. */
  readonly basePath: string;
  /** Largest answer accepted, decompressed; past it the call fails (502). */
  readonly maxAnswerBytes: number;
}

export function createHttpClient(baseUrl: string, maxAnswerBytes = DEFAULT_MAX_ANSWER_BYTES): HttpClient {
  const url = new URL(baseUrl);
  // The ERP client's semaphore bounds the calls in flight far below this.
  return { pool: new Pool(url.origin, { connections: 256 }), basePath: url.pathname.replace(/\/+$/, ''), maxAnswerBytes };
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
    // The request's id and trace context, when the call belongs to a request (erp-observer.ts).
    headers: { ...callHeadersOf(deadline), ...headers, 'accept-encoding': 'gzip, deflate' },
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
  return readAnswer(response, deadline, client.maxAnswerBytes);
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

/**
 * Reads the answer as it streams in, decompressing on the way (zlib's streams run off the main
 * thread: a compressed bomb no longer stalls every request), counting decompressed bytes against the
 * ceiling and charging them to the request's memory budget chunk by chunk, so that an answer past
 * either is dropped before it is whole.
 */
async function readAnswer(response: Dispatcher.ResponseData, deadline: AbortSignal, maxBytes: number): Promise<HttpAnswer> {
  const encoding = header(response, 'content-encoding').toLowerCase();
  const lease = leaseOf(deadline);
  let source: Readable = response.body;
  if (encoding === 'gzip' || encoding === 'deflate') {
    const inflater = encoding === 'gzip' ? createGunzip() : createInflate();
    response.body.on('error', (error) => inflater.destroy(error));
    source = response.body.pipe(inflater);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  /** The request's memory lease refusing the answer (admission/memory-budget.ts): passed on as it is. */
  let refusal: unknown;
  try {
    for await (const chunk of source) {
      const bytes = chunk as Buffer;
      size += bytes.length;
      if (size > maxBytes) throw new ErpUnavailable(`ERP answer over ERP_MAX_ANSWER_BYTES (${maxBytes})`);
      try {
        lease?.charge(bytes.length);
      } catch (error) {
        refusal = error;
        throw error;
      }
      chunks.push(bytes);
    }
  } catch (error) {
    response.body.destroy();
    if (source !== response.body) source.destroy();
    if (error === refusal || error instanceof ErpUnavailable || !(error instanceof Error)) throw error;
    if (deadline.aborted) throw new ErpTimeout('the ERP did not answer in time');
    if (source !== response.body && 'errno' in error) throw new ErpUnavailable('ERP answer could not be decompressed', { cause: error });
    throw new ErpUnavailable('ERP answer cut short', { cause: error });
  }
  const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
  return { status: response.statusCode, contentType: header(response, 'content-type'), body: raw.toString('utf8') };
}

function header(response: Dispatcher.ResponseData, name: string): string {
  const value = response.headers[name];
  return Array.isArray(value) ? value.join(', ') : String(value ?? '');
}
