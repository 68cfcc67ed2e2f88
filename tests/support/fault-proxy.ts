/**
 * A small fault-injecting HTTP proxy for the reliability tests: it sits between the gateway and the
 * sandbox ERP and, depending on its mode, forwards, refuses connections, hangs, delays, cuts the
 * answer in half, answers HTML or malformed XML/JSON, or rewrites a well-formed answer. It counts the
 * requests in flight (and their peak), so a test can prove the gateway never sends more than its
 * bound at once. Loopback only; it closes everything it opened.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FaultMode =
  | { readonly kind: 'forward' }
  /** The connection is accepted then reset at once (the listening socket stays open). */
  | { readonly kind: 'refuse' }
  /** The request is read, never answered. */
  | { readonly kind: 'hang' }
  | { readonly kind: 'delay'; readonly ms: number }
  /** Status and headers of the real answer, then half its body, then the connection drops. */
  | { readonly kind: 'cut' }
  /** A 200 HTML page, as a misconfigured reverse proxy in front of the ERP would send. */
  | { readonly kind: 'html' }
  /** The real answer broken: unbalanced XML, truncated JSON, content type kept. */
  | { readonly kind: 'garbage' }
  /** The real answer passed through `rewrite` (path of the ERP call, body text): well-formed but odd answers. */
  | { readonly kind: 'rewrite'; readonly rewrite: (path: string, body: string) => string };

export interface FaultProxy {
  readonly url: string;
  mode: FaultMode;
  /** Requests seen, in any mode. */
  readonly seen: number;
  /** Requests received and not yet answered (or dropped). */
  readonly inFlight: number;
  /** The most requests in flight at once since the start or the last `resetCounts`. */
  readonly maxInFlight: number;
  resetCounts(): void;
  /** Stops listening: connections are refused (ECONNREFUSED) until `listenAgain`. */
  stopListening(): Promise<void>;
  /** Listens again on the same port. */
  listenAgain(): Promise<void>;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  const counts = { seen: 0, inFlight: 0, maxInFlight: 0 };
  const state: { mode: FaultMode } = { mode: { kind: 'forward' } };

  const forward = (req: IncomingMessage, res: ServerResponse, mode: FaultMode) => {
    const out = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        let body: Buffer = Buffer.concat(chunks);
        if (mode.kind === 'garbage') body = breakDocument(body);
        if (mode.kind === 'rewrite') body = Buffer.from(mode.rewrite(req.url ?? '', body.toString('utf8')));
        if (mode.kind === 'cut') {
          res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'content-length': String(body.length * 2) });
          // Drop the connection only once the half is on the wire, so the client sees a short body.
          res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'content-length': String(body.length) });
        res.end(body);
      });
    });
    out.on('error', () => res.socket?.destroy());
    req.pipe(out);
  };

  const server: Server = createServer((req, res) => {
    counts.seen++;
    counts.inFlight++;
    counts.maxInFlight = Math.max(counts.maxInFlight, counts.inFlight);
    let done = false;
    const settle = () => {
      if (done) return;
      done = true;
      counts.inFlight--;
    };
    res.on('finish', settle);
    res.on('close', settle);
    const mode = state.mode;
    switch (mode.kind) {
      case 'forward':
      case 'cut':
      case 'garbage':
      case 'rewrite':
        return forward(req, res, mode);
      case 'refuse':
        req.socket.destroy();
        return;
      case 'hang':
        req.resume();
        return;
      case 'delay':
        setTimeout(() => forward(req, res, mode), mode.ms);
        return;
      case 'html':
        req.resume();
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!DOCTYPE html><html><body><h1>Bad Gateway</h1><p>upstream proxy error</p></body></html>');
        return;
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    if (state.mode.kind === 'refuse') socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    set mode(mode: FaultMode) {
      state.mode = mode;
      // Modes act on new connections too: drop kept-alive ones so the next request sees the change.
      for (const socket of sockets) socket.destroy();
    },
    get seen() {
      return counts.seen;
    },
    get inFlight() {
      return counts.inFlight;
    },
    get maxInFlight() {
      return counts.maxInFlight;
    },
    resetCounts() {
      counts.seen = 0;
      counts.maxInFlight = counts.inFlight;
    },
    stopListening: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
    listenAgain: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}

/** Keeps the content type, breaks the document: unbalanced XML, truncated JSON. */
function breakDocument(body: Buffer): Buffer {
  const text = body.toString('utf8');
  return Buffer.from(text.startsWith('<') ? `${text.slice(0, 40)}<value><struct><member>` : `${text.slice(0, Math.max(1, text.length - 3))}{"`);
}
