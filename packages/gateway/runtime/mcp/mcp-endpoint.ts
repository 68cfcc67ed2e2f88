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
 * data route through the whole app (in-process-get.ts), with the request's key and client address,
 * so it meets the route's rate limit, rights, deadline and memory budget.
 *
 * One POST is bounded like a data request, whatever it carries (a JSON-RPC batch is allowed by
 * protocol versions before 2025-06-18, and the SDK still takes up to 100 messages):
 * - at most `batch_max` messages (400 before any tool runs);
 * - at most `calls_in_flight` of its tool calls at once, the others waiting their turn; a call not
 *   started within REQUEST_TIMEOUT_MS of the POST answers `gateway_timeout` (504) as a tool error;
 * - every answer is charged to the memory budget while the POST holds it. The SDK answers a batch
 *   only once every call of it has answered, and keeps each answer until then: the parsed records
 *   (the structured content), their JSON text (the text content), and at the end the whole batch
 *   serialised again and encoded as UTF-8. Past the budget, a call answers `unavailable` (503, with
 *   `retry_after`) as a tool error, like a data route's 503.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import express, { type Express, type Request, type Response, type Router } from 'express';
import type { Authenticator } from '../admission/auth';
import type { AuthFailureLimit } from '../admission/auth-failure-limit';
import { authenticateRequest } from '../admission/authenticate-request';
import type { BudgetLease, MemoryBudget } from '../admission/memory-budget';
import { badRequest, GatewayError } from '../errors';
import { Semaphore } from '../erp/semaphore';
import { exactRouter } from '../http/exact-routing';
import { noStore } from '../http/no-store';
import type { Logger } from '../log';
import { inProcessGet, type InProcessGet } from './in-process-get';
import { createMcpServer } from './mcp-server';
import { API_VERSION, callTool, gatewayToolError, MCP_LIMITS, TOOLS, type ApiAnswer, type ToolHost } from './tool-calls';

export const MCP_PATH = '/mcp';
/** A tools/call message is a few hundred bytes; a batch of them a few KB. */
const BODY_LIMIT = '64kb';
/**
 * How many times each byte of a tool answer (the route's JSON as it arrives) is held until the POST
 * has answered, measured on a 200-record stock page of 79 KB (a name with a character past U+00FF
 * makes every copy a two-byte string): parsed records 1.3, text content 2.0, then the batch
 * serialised by the SDK 4.2 and its UTF-8 encoding 2.1. About 6.5 for Latin-1 text.
 */
const ANSWER_COPIES = 10;
/**
 * Charged before a tool call asks its route (its answer's first bytes are counted against it): when
 * the budget is already full, the call is refused at once instead of asking the ERP for an answer
 * that could not be held.
 */
const PREPAID_BYTES = 8 * 1024;
/** `tools/list` answers the generated tools as they are: only the SDK's serialisation copies them. */
const TOOLS_LIST_CHARS = JSON.stringify(TOOLS).length;

export interface McpOptions {
  /** What every answer is charged to while held (MEMORY_BUDGET_BYTES). */
  readonly budget: MemoryBudget;
  /** REQUEST_TIMEOUT_MS: a tool call not started this long after the POST arrived is not started. */
  readonly requestTimeoutMs: number;
  /** Where an unexpected error of a tool call is logged (it answers a bare `internal_error`). */
  readonly log: Logger;
}

/** A GET of a data route through the app itself, as the client of `req` (its key and address), charged to `lease` before and as it arrives. */
function apiGetFor(get: InProcessGet, req: Request, lease: BudgetLease) {
  return async (pathAndQuery: string): Promise<ApiAnswer> => {
    lease.chargeHeld(PREPAID_BYTES, ANSWER_COPIES);
    let prepaid = PREPAID_BYTES;
    const reply = await get({
      pathAndQuery,
      authorization: req.headers.authorization,
      clientAddress: req.ip ?? req.socket.remoteAddress ?? 'unknown',
      onBody: (bytes) => {
        const due = bytes - prepaid;
        prepaid = Math.max(0, -due);
        if (due > 0) lease.chargeHeld(due, ANSWER_COPIES);
      },
    });
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

/** What one POST holds and may run: its lease of the memory budget and its tool-call slots, both let go when it ends. */
function requestBounds(res: Response, options: McpOptions) {
  const lease = options.budget.lease();
  const slots = new Semaphore(MCP_LIMITS.calls_in_flight, MCP_LIMITS.batch_max);
  const ended = new AbortController();
  const end = () => {
    ended.abort();
    lease.release();
  };
  // A client gone while its key was checked or its body read: nothing it asks may be held past now.
  if (res.closed) end();
  else res.once('close', end);
  const startBy = AbortSignal.any([ended.signal, AbortSignal.timeout(options.requestTimeoutMs)]);
  const late = () =>
    new GatewayError(
      'gateway_timeout',
      `This tool call did not start within the request timeout (${options.requestTimeoutMs} ms): the calls before it in the batch took that long.`,
    );
  return {
    lease,
    /** Runs `call` in one of the request's slots, once one is free. */
    async run(call: () => Promise<CallToolResult>): Promise<CallToolResult> {
      const release = await slots.acquire(startBy, late);
      try {
        return await call();
      } finally {
        release();
      }
    },
  };
}

function methodNotAllowed(_req: Request, res: Response): void {
  res
    .status(405)
    .setHeader('Allow', 'POST')
    .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless, POST only.' }, id: null });
}

export function createMcpRouter(app: Express, auth: Authenticator, failures: AuthFailureLimit, options: McpOptions): Router {
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
      if (Array.isArray(req.body) && req.body.length > MCP_LIMITS.batch_max)
        return next(badRequest(`At most ${MCP_LIMITS.batch_max} JSON-RPC messages per request (this batch has ${req.body.length}).`));
      const bounds = requestBounds(res, options);
      const host: ToolHost = { get: apiGetFor(inProcess, req, bounds.lease), hold: (chars) => bounds.lease.chargeHeld(chars, ANSWER_COPIES) };
      const list = () => {
        try {
          bounds.lease.chargeHeld(TOOLS_LIST_CHARS, ANSWER_COPIES);
        } catch (error) {
          if (error instanceof GatewayError) throw new McpError(ErrorCode.InternalError, error.message, { code: error.code, status: error.status, retry_after: 1 });
          throw error;
        }
        return TOOLS as unknown as Tool[];
      };
      const call = (name: string, args: unknown) =>
        bounds
          .run(() => callTool(name, args, host))
          .catch((error: unknown) => {
            if (error instanceof GatewayError) return gatewayToolError(error);
            // Not under `err`: pino's error serializer would copy every property back in (error-handler.ts).
            options.log.error({ error: error instanceof Error ? { type: error.name, message: error.message, stack: error.stack } : String(error), tool: name }, 'unexpected error');
            return gatewayToolError(new GatewayError('internal_error', 'Internal error.'));
          });
      const server = createMcpServer({ list, call }, API_VERSION);
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
