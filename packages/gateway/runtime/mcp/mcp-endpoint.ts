/**
 * @module `POST /mcp`: the MCP server over streamable HTTP, on the gateway's port.
 *
 * Stateless (no `Mcp-Session-Id`): every POST gets a fresh server and transport, answered as plain
 * JSON. The gateway holds no per-client state anywhere else, the tools need no server-to-client
 * stream, and so any instance behind a load balancer answers any request and nothing has to be
 * bounded or expired; GET (a notification stream) and DELETE (ending a session) are 405.
 *
 * The key is checked before the MCP layer sees the request, by the data routes' own check (401 with
 * `WWW-Authenticate: Bearer`, 403, 429 in the error envelope); each tool call is then a GET of the
 * data route through the whole app (in-process-get.ts), with the request's key and client address.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import express, { type Express, type Request, type Response, type Router } from 'express';
import type { Authenticator } from '../admission/auth';
import type { AuthFailureLimit } from '../admission/auth-failure-limit';
import { authenticateRequest } from '../admission/authenticate-request';
import { exactRouter } from '../http/exact-routing';
import { noStore } from '../http/no-store';
import { badRequest } from '../errors';
import { inProcessGet, type InProcessGet } from './in-process-get';
import { createMcpServer } from './mcp-server';
import { API_VERSION, callTool, TOOLS, type ApiAnswer } from './tool-calls';

export const MCP_PATH = '/mcp';
/** A tools/call message is a few hundred bytes; a batch of them a few KB. */
const BODY_LIMIT = '64kb';
/**
 * JSON-RPC messages in one POST (a batch, which protocol versions before 2025-06-18 allow). Each tool
 * call is a request of its own to the data routes, with its own deadline, but one POST must not fan
 * out into hundreds of them.
 */
const MAX_BATCH = 16;

/** A GET of a data route through the app itself, as the client of `req` (its key and address). */
function apiGetFor(get: InProcessGet, req: Request) {
  return async (pathAndQuery: string): Promise<ApiAnswer> => {
    const reply = await get({ pathAndQuery, authorization: req.headers.authorization, clientAddress: req.ip ?? req.socket.remoteAddress ?? 'unknown' });
    const retryAfter = reply.headers['retry-after'];
    let body: unknown;
    try {
      body = JSON.parse(reply.body);
    } catch {
      body = undefined;
    }
    return { status: reply.status, body, ...(typeof retryAfter === 'string' ? { retryAfter } : {}) };
  };
}

function methodNotAllowed(_req: Request, res: Response): void {
  res
    .status(405)
    .setHeader('Allow', 'POST')
    .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless, POST only.' }, id: null });
}

export function createMcpRouter(app: Express, auth: Authenticator, failures: AuthFailureLimit): Router {
  const router = exactRouter();
  const inProcess = inProcessGet(app);
  // Live answers, like the data routes': never stored by any cache.
  router.all(MCP_PATH, noStore());
  router.post(MCP_PATH, async (req, res, next) => {
    try {
      await authenticateRequest(auth, failures, req, res);
    } catch (error) {
      next(error);
      return;
    }
    express.json({ limit: BODY_LIMIT, type: () => true })(req, res, async (bodyError?: unknown) => {
      if (bodyError) return next(bodyError);
      if (Array.isArray(req.body) && req.body.length > MAX_BATCH) return next(badRequest(`At most ${MAX_BATCH} JSON-RPC messages per request.`));
      const get = apiGetFor(inProcess, req);
      const server = createMcpServer({ list: () => TOOLS as unknown as Tool[], call: (name, args) => callTool(name, args, get) }, API_VERSION);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(req, res, req.body);
      } catch (error) {
        next(error);
      }
    });
  });
  router.get(MCP_PATH, methodNotAllowed);
  router.delete(MCP_PATH, methodNotAllowed);
  return router;
}
