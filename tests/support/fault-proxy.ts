/**
 * A small fault-injecting HTTP proxy for the reliability tests: it sits between the gateway and the
 * sandbox ERP and, depending on its mode, forwards, refuses connections, hangs, delays, cuts the
 * answer in half, or answers HTML or malformed XML/JSON. Loopback only; it closes everything it opened.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FaultMode =
  | { readonly kind: 'forward' }
  | { readonly kind: 'refuse' }
  | { readonly kind: 'hang' }
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'cut' }
  | { readonly kind: 'html' }
  | { readonly kind: 'garbage' };

export interface FaultProxy {
  readonly url: string;
  mode: FaultMode;
  /** Requests seen, in any mode. */
  readonly seen: number;
  /** Stops listening: connections are refused (ECONNREFUSED) until `listenAgain`. */
  stopListening(): Promise<void>;
  /** Listens again on the same port. */
  listenAgain(): Promise<void>;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  let seen = 0;
  const state: { mode: FaultMode } = { mode: { kind: 'forward' } };

  const forward = (req: IncomingMessage, res: ServerResponse, transform?: (body: Buffer) => Buffer) => {
    const out = request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          let body: Buffer = Buffer.concat(chunks);
          if (transform) body = transform(body);
          const headers = { ...answer.headers, 'content-length': String(body.length) };
          if (state.mode.kind === 'cut') {
            res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'content-length': String(body.length * 2) });
            res.write(body.subarray(0, Math.floor(body.length / 2)));
            res.socket?.destroy();
            return;
          }
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(body);
        });
      },
    );
    out.on('error', () => res.socket?.destroy());
    req.pipe(out);
  };

  const server: Server = createServer((req, res) => {
    seen++;
    const mode = state.mode;
    switch (mode.kind) {
      case 'forward':
      case 'cut':
        return forward(req, res);
      case 'refuse':
        req.socket.destroy();
        return;
      case 'hang':
        req.resume();
        return;
      case 'delay':
        setTimeout(() => forward(req, res), mode.ms);
        return;
      case 'html':
        req.resume();
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!DOCTYPE html><html><body><h1>Bad Gateway</h1><p>upstream proxy error</p></body></html>');
        return;
      case 'garbage':
        return forward(req, res, (body: Buffer): Buffer => {
          const text = body.toString('utf8');
          // Keep the content type, break the document: unbalanced XML, truncated JSON.
          return Buffer.from(text.startsWith('<') ? `${text.slice(0, 40)}<value><struct><member>` : `${text.slice(0, Math.max(1, text.length - 3))}{"`);
        });
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
      return seen;
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
