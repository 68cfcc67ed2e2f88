/**
 * @module What Node's HTTP server answers by itself, before Express sees a request, made to follow the
 * gateway's rules: a request its parser cannot read (malformed request line, unknown method, bad
 * header, request line and headers over the size limit) gets the error envelope 400 `bad_request`
 * with `nosniff`, instead of Node's bare 400 or 431; an `Expect` other than `100-continue` is ignored
 * (HTTP allows it) rather than answered 417. Both would otherwise be responses the OpenAPI document
 * does not describe.
 */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

const TOO_LARGE = new Set(['HPE_HEADER_OVERFLOW', 'HPE_URI_OVERFLOW']);

export function hardenServer(server: Server, app: RequestListener<typeof IncomingMessage, typeof ServerResponse>): void {
  server.on('clientError', answerClientError);
  server.on('checkExpectation', app);
}

/** The error Node passes to `clientError`: a parse error carries the bytes it could not read. */
type ClientError = Error & { code?: string; rawPacket?: Buffer };

export function answerClientError(error: ClientError, socket: Duplex): void {
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
  const message = TOO_LARGE.has(error.code ?? '') ? 'The request line or headers are too large.' : 'The request could not be read.';
  const body = JSON.stringify({ error: { code: 'bad_request', message } });
  // An answer to HEAD has no body (its Content-Length still says how long the body would be).
  const head = error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    [
      'HTTP/1.1 400 Bad Request',
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'X-Content-Type-Options: nosniff',
      'Cache-Control: no-store',
      'Connection: close',
      '',
      head ? '' : body,
    ].join('\r\n'),
  );
}
