/**
 * A small fault-injecting HTTP proxy for the reliability tests: it sits between the gateway and the
 * sandbox ERP and, depending on its mode, forwards, refuses connections, hangs, delays, cuts the
 * answer in half, answers HTML or malformed XML/JSON, or rewrites a well-formed answer. It counts the
 * requests in flight (and their peak), so a test can prove the gateway never sends more than its
 * bound at once. Loopback only; it closes everything it opened.
 */
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FaultMode =
  | { readonly kind: 'forward' }
  /** The connection is accepted then reset at once (the listening socket stays open). */
  | { readonly kind: 'refuse' }
  /** The request is read, never answered. */
  | { readonly kind: 'hang' }
  /**
   * A connection is closed, unanswered, when a second request arrives on it: what a client sees when
   * the server closed a kept-alive connection just as the client reused it.
   */
  | { readonly kind: 'close-reused' }
  /**
   * Requests wait `ms` before they are forwarded (only those whose path matches `only`, when given),
   * then go through `answer` (plain forwarding by default).
   */
  | { readonly kind: 'delay'; readonly ms: number; readonly only?: RegExp; readonly answer?: Extract<FaultMode, { kind: 'rewrite' }> }
  /** Status and headers of the real answer, then half its body, then the connection drops. */
  | { readonly kind: 'cut' }
  /** A 200 HTML page, as a misconfigured reverse proxy in front of the ERP would send. */
  | { readonly kind: 'html' }
  /** The real answer broken: unbalanced XML, truncated JSON, content type kept. */
  | { readonly kind: 'garbage' }
  /**
   * The real answer passed through `rewrite` (path of the ERP call, body text): well-formed but odd
   * answers. Returning an object also replaces the status.
   */
  | { readonly kind: 'rewrite'; readonly rewrite: (path: string, body: string) => string | { readonly status: number; readonly body: string } };

export interface FaultProxy {
  readonly url: string;
  mode: FaultMode;
  /** Requests seen, in any mode. */
  readonly seen: number;
  /** `METHOD path` of every request seen, in order (the ERP calls, e.g. `POST /json/2/res.users/context_get`). */
  readonly requests: readonly string[];
  /** The headers of every request seen, in the same order (what the ERP receives besides the body). */
  readonly requestHeaders: readonly IncomingHttpHeaders[];
  /** Requests received and not yet answered (or dropped). */
  readonly inFlight: number;
  /** The most requests in flight at once since the start or the last `resetCounts`. */
  readonly maxInFlight: number;
  /** Forgets the requests seen and the peak in flight. */
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
  /** Delayed forwards not yet sent: cancelled with their connections, so nothing reaches a closed ERP. */
  const timers = new Set<NodeJS.Timeout>();
  const dropAll = () => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    for (const socket of sockets) socket.destroy();
  };
  const counts = { seen: 0, inFlight: 0, maxInFlight: 0 };
  const requests: string[] = [];
  const requestHeaders: IncomingHttpHeaders[] = [];
  const state: { mode: FaultMode } = { mode: { kind: 'forward' } };

  const forward = (req: IncomingMessage, res: ServerResponse, mode: FaultMode) => {
    // Modes that work on the body need it uncompressed.
    const headers = mode.kind === 'forward' || mode.kind === 'delay' ? req.headers : { ...req.headers, 'accept-encoding': 'identity' };
    const out = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        let body: Buffer = Buffer.concat(chunks);
        let status = answer.statusCode ?? 502;
        if (mode.kind === 'garbage') body = breakDocument(body);
        if (mode.kind === 'rewrite') {
          const rewritten = mode.rewrite(req.url ?? '', body.toString('utf8'));
          if (typeof rewritten !== 'string') status = rewritten.status;
          body = Buffer.from(typeof rewritten === 'string' ? rewritten : rewritten.body);
        }
        if (mode.kind === 'cut') {
          res.writeHead(status, { ...answer.headers, 'content-length': String(body.length * 2) });
          // Drop the connection only once the half is on the wire, so the client sees a short body.
          res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
          return;
        }
        res.writeHead(status, { ...answer.headers, 'content-length': String(body.length) });
        res.end(body);
      });
    });
    out.on('error', () => res.socket?.destroy());
    req.pipe(out);
  };

  /** Requests received on each connection so far. */
  const servedOn = new WeakMap<Socket, number>();

  const server: Server = createServer((req, res) => {
    const onSocket = (servedOn.get(req.socket) ?? 0) + 1;
    servedOn.set(req.socket, onSocket);
    counts.seen++;
    requests.push(`${req.method} ${req.url}`);
    requestHeaders.push(req.headers);
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
      case 'close-reused':
        if (onSocket > 1) req.socket.destroy();
        else forward(req, res, mode);
        return;
      case 'delay': {
        if (mode.only && !mode.only.test(req.url ?? '')) return forward(req, res, { kind: 'forward' });
        const timer = setTimeout(() => {
          timers.delete(timer);
          forward(req, res, mode.answer ?? mode);
        }, mode.ms);
        timers.add(timer);
        return;
      }
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
      dropAll();
    },
    get seen() {
      return counts.seen;
    },
    get requests() {
      return requests;
    },
    get requestHeaders() {
      return requestHeaders;
    },
    get inFlight() {
      return counts.inFlight;
    },
    get maxInFlight() {
      return counts.maxInFlight;
    },
    resetCounts() {
      counts.seen = 0;
      requests.length = 0;
      requestHeaders.length = 0;
      counts.maxInFlight = counts.inFlight;
    },
    stopListening: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        dropAll();
      }),
    listenAgain: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        dropAll();
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
