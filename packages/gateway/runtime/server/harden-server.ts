/**
 * @module What Node's HTTP server answers by itself, before Express sees a request, made to follow the
 * gateway's rules, and the time limits of every phase of a client connection.
 *
 * Answers: a request its parser cannot read (malformed request line, unknown method, bad header,
 * request line and headers over the size limit) gets the error envelope 400 `bad_request` with
 * `nosniff`, instead of Node's bare 400 or 431; a CONNECT gets the same envelope (the gateway is no
 * proxy) instead of a silent close; an `Expect` other than `100-continue` is ignored (HTTP allows
 * it) rather than answered 417. All would otherwise be responses the OpenAPI document does not describe.
 *
 * Time limits: the request line and headers within 10 s (slow-header clients); the whole request
 * within its deadline plus a margin; and a connection on which nothing moves, in either direction,
 * for longer than the request deadline plus 5 s is dropped; and a connection whose answer has not
 * moved for CLIENT_WRITE_TIMEOUT_MS (a client that stopped reading) is dropped with what it held.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { dropStalledWriters } from './stalled-writers';

const TOO_LARGE = new Set(['HPE_HEADER_OVERFLOW', 'HPE_URI_OVERFLOW']);
const HEADERS_TIMEOUT_MS = 10000;
const KEEP_ALIVE_TIMEOUT_MS = 5000;
const IDLE_MARGIN_MS = 5000;
const DEFAULT_WRITE_STALL_MS = 10000;

/**
 * The gateway's HTTP server around the app, as production runs it (main.ts) and the suites test it.
 * Node answers HTTP/1.1 without Host itself, bare: the app answers it in the error envelope instead.
 */
export function createGatewayServer(
  app: RequestListener<typeof IncomingMessage, typeof ServerResponse>,
  requestTimeoutMs: number,
  writeStallMs: number = DEFAULT_WRITE_STALL_MS,
): Server {
  const server = createServer({ requireHostHeader: false }, app);
  hardenServer(server, app, requestTimeoutMs);
  dropStalledWriters(server, writeStallMs);
  return server;
}

function hardenServer(server: Server, app: RequestListener<typeof IncomingMessage, typeof ServerResponse>, requestTimeoutMs: number): void {
  server.on('clientError', answerClientError);
  server.on('checkExpectation', app);
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.end(rawAnswer('400 Bad Request', 'connect', false));
  });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = requestTimeoutMs + HEADERS_TIMEOUT_MS;
  // No 'timeout' listener: Node destroys a socket idle that long (no bytes read or written).
  server.setTimeout(requestTimeoutMs + IDLE_MARGIN_MS);
}

/** The error Node passes to `clientError`: a parse error carries the bytes it could not read. */
type ClientError = Error & { code?: string; rawPacket?: Buffer };

function answerClientError(error: ClientError, socket: Duplex): void {
  // Nothing to answer on a socket the client already dropped, nor in the middle of an answer already
  // started (a framing error in a request Express is serving): as Node does, the connection just closes.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    // A client too slow to send its request: Node's own answer, which no client waits for anyway.
    socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    return;
  }
  // An answer to HEAD has no body (its Content-Length still says how long the body would be).
  const head = error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(rawAnswer('400 Bad Request', TOO_LARGE.has(error.code ?? '') ? 'too_large' : 'unreadable', head));
}

const MESSAGES = {
  too_large: ['bad_request', 'The request line or headers are too large.'],
  unreadable: ['bad_request', 'The request could not be read.'],
  connect: ['bad_request', 'CONNECT is not served: this is an API, not a proxy. Only GET and HEAD are served.'],
} as const;

function rawAnswer(status: string, what: keyof typeof MESSAGES, head: boolean): string {
  const [code, message] = MESSAGES[what];
  const body = JSON.stringify({ error: { code, message } });
  return [
    `HTTP/1.1 ${status}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'X-Content-Type-Options: nosniff',
    'Cache-Control: no-store',
    'Connection: close',
    '',
    head ? '' : body,
  ].join('\r\n');
}
