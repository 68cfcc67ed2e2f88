/**
 * What the process-level suites need below fetch: a GET on an agent of the caller's choice (a fresh
 * connection, or a kept-alive one whose closing is under test), whether a port still accepts, and a
 * wait for a condition with a limit.
 */
import { type Agent, request } from 'node:http';
import { connect } from 'node:net';

export interface RawAnswer {
  readonly status: number;
  readonly body: string;
  /** The `Connection` header of the answer (`close` when the server is closing the connection). */
  readonly connection: string | undefined;
}

/** `GET url` with a bearer key, on `agent` (Node's global agent if none). */
export function get(url: string, key: string, agent?: Agent): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Authorization: `Bearer ${key}` }, ...(agent ? { agent } : {}) }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Resolves with the error code of a connection attempt to the URL's host and port, or 'connected'. */
export function tryConnect(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

/** Polls `condition` every `stepMs` until it holds; throws past `limitMs`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, limitMs: number, stepMs = 10): Promise<void> {
  const until = performance.now() + limitMs;
  while (!(await condition())) {
    if (performance.now() > until) throw new Error(`condition not met within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}
