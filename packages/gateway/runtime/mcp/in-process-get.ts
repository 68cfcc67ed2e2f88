/**
 * @module A GET of a data route through the gateway's own HTTP pipeline, in process: Node's HTTP
 * client and server joined by an in-memory stream pair (no port, no TCP). The request meets every
 * middleware and handler a client's request meets (key check and failure limits by client address,
 * rights, scope, drift, memory budget, deadline, request log line, and whatever is added to the
 * pipeline later), so an MCP tool is exactly as strict as the route it calls.
 *
 * (light-my-request, the usual injector, does not work with Express 5, which swaps the prototypes of
 * the request and response objects it is given; real Node objects over a stream pair do.)
 */
import { createServer, request, type RequestListener } from 'node:http';
import { duplexPair } from 'node:stream';

interface InProcessAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

interface InProcessRequest {
  readonly pathAndQuery: string;
  readonly authorization: string | undefined;
  /** The address of the client the request is made for: the failure limits count by it. */
  readonly clientAddress: string;
  /**
   * Told the size of each chunk of the answer as it arrives, before it is kept; when it throws, the
   * exchange is dropped at once and the GET fails with what it threw (the MCP request's memory charge).
   */
  readonly onBody?: (bytes: number) => void;
}

export type InProcessGet = (request: InProcessRequest) => Promise<InProcessAnswer>;

export function inProcessGet(app: RequestListener): InProcessGet {
  // Never listens: it only parses what is written into the connections handed to it.
  const server = createServer(app);
  return ({ pathAndQuery, authorization, clientAddress, onBody }) => {
    const [clientEnd, serverEnd] = duplexPair();
    Object.defineProperty(serverEnd, 'remoteAddress', { value: clientAddress });
    server.emit('connection', serverEnd);
    const headers: Record<string, string> = { host: 'in-process', accept: 'application/json', connection: 'close' };
    if (authorization !== undefined) headers['authorization'] = authorization;
    return new Promise<InProcessAnswer>((resolve, reject) => {
      const done = () => {
        clientEnd.destroy();
        serverEnd.destroy();
      };
      const req = request({ createConnection: () => clientEnd, method: 'GET', path: pathAndQuery, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          try {
            onBody?.(chunk.length);
          } catch (error) {
            res.destroy();
            done();
            reject(error);
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          done();
          resolve({ status: res.statusCode ?? 500, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', (error) => {
          done();
          reject(error);
        });
      });
      req.on('error', (error) => {
        done();
        reject(error);
      });
      req.end();
    });
  };
}
