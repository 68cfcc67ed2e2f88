/**
 * @module The sandbox ERP's one `node:http` server: XML-RPC, JSON-RPC and (19) JSON-2 on one port.
 * It reads each body up to a cap (413 beyond), hands a plain request to the router and writes
 * the reply; any failure of a handler becomes werkzeug's 500 page, never a crash or a hung socket.
 * Keep-alive is on, as a reverse proxy in front of Odoo would offer it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DatabaseSync } from 'node:sqlite';
import type { Orm } from '../orm/types';
import { ApiKeys } from '../security/api-keys';
import { Credentials } from '../security/credentials';
import type { SandboxReply, SandboxRequest } from './reply';
import { routeRequest } from './router';
import type { RpcContext } from './services/rpc-context';
import { versionTraits } from './version-traits';
import { renderWerkzeugPage, WerkzeugException } from './werkzeug-exception';

const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface SandboxServerOptions {
  readonly orm: Orm;
  /** The store the ORM reads; API keys and users are looked up in it. */
  readonly db: DatabaseSync;
  /** The name clients must pass as `db` (and may send in `X-Odoo-Database`). */
  readonly database: string;
  /** Clock for key expiry; tests move it. */
  readonly now?: () => Date;
  readonly maxBodyBytes?: number;
  /**
   * Where the sandbox's own bugs are reported (default: stderr): handler failures, answered with
   * a 500 page, and non-Odoo errors below a transport, answered as Odoo answers a server error.
   */
  readonly onError?: (error: unknown, where: string) => void;
}

export function createSandboxServer(options: SandboxServerOptions): Server {
  const apiKeys = new ApiKeys(options.db, { version: options.orm.version, ...(options.now ? { now: options.now } : {}) });
  const onError = options.onError ?? ((error, where) => console.error(`sandbox: ${where} failed:`, error));
  const context: RpcContext = {
    orm: options.orm,
    traits: versionTraits(options.orm.version),
    database: options.database,
    credentials: new Credentials(options.db, apiKeys, options.now),
    reportBug: (error) => onError(error, 'a method call'),
  };
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  const server = createServer((req, res) => {
    void serve(context, req, res, maxBodyBytes, onError);
  });
  // A client that stalls mid-request must not hold a socket forever.
  server.requestTimeout = 60_000;
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  return server;
}

class BodyTooLarge extends Error {}

async function serve(context: RpcContext, req: IncomingMessage, res: ServerResponse, maxBodyBytes: number, onError: NonNullable<SandboxServerOptions['onError']>): Promise<void> {
  const method = req.method ?? 'GET';
  const path = decodePath(req.url ?? '/');
  try {
    const body = await readBody(req, maxBodyBytes);
    const reply = await routeRequest(context, { method, path, headers: req.headers, body } satisfies SandboxRequest);
    writeReply(res, method, reply);
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      // The rest of the body is not read: close the connection once the answer is out.
      res.once('finish', () => req.destroy());
      writeReply(res, method, renderWerkzeugPage(new WerkzeugException(413)), { Connection: 'close' });
      return;
    }
    if (req.destroyed) return; // the client went away; nobody to answer
    onError(error, `${method} ${path}`);
    writeReply(res, method, renderWerkzeugPage(new WerkzeugException(500)));
  }
}

/** The path as WSGI's `PATH_INFO` gives it to Odoo: query string removed, percent-decoded. */
function decodePath(url: string): string {
  const raw = url.split('?', 1)[0] ?? '/';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.pause();
        reject(new BodyTooLarge());
      } else {
        chunks.push(chunk);
      }
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('request aborted'));
    });
  });
}

function writeReply(res: ServerResponse, method: string, reply: SandboxReply, extraHeaders: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const body = typeof reply.body === 'string' ? Buffer.from(reply.body, 'utf8') : reply.body;
  res.statusCode = reply.status;
  for (const [name, value] of Object.entries({ ...reply.headers, ...extraHeaders })) res.setHeader(name, value);
  res.setHeader('Content-Length', body.length);
  res.end(method === 'HEAD' ? undefined : body);
}

export interface ListeningServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Starts listening (port 0 = ephemeral) and resolves once the port is bound. */
export function listen(server: Server, port: number, host: string): Promise<ListeningServer> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const bound = (server.address() as AddressInfo).port;
      const hostInUrl = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${hostInUrl}:${bound}`,
        port: bound,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            server.closeAllConnections(); // idle keep-alive sockets must not delay shutdown
          }),
      });
    });
  });
}
