/**
 * @module CORS, off unless the operator lists origins (CORS_ORIGINS): an allowed origin gets the
 * headers a browser needs for GET with a bearer key (and If-None-Match, with the ETag and the rate-limit fields readable), and
 * its preflight is answered; others get none. A browser may send its own request id and trace context.
 * The MCP endpoint is the one POST: its preflight allows POST with the JSON body and the headers an
 * MCP client sends (streamable HTTP: Accept, Mcp-Protocol-Version), so that a browser-based agent
 * or inspector on an allowed origin can use it too.
 */
import type { RequestHandler } from 'express';

const TRACING_HEADERS = 'X-Request-Id, traceparent, tracestate';
/** What the preflight of each kind of path allows. */
const PREFLIGHT = {
  data: { methods: 'GET, HEAD', headers: `Authorization, If-None-Match, ${TRACING_HEADERS}` },
  mcp: { methods: 'POST', headers: `Authorization, Content-Type, Accept, Mcp-Protocol-Version, ${TRACING_HEADERS}` },
} as const;

/** `mcpPath`: where the MCP endpoint is mounted (mcp-endpoint.ts). */
export function cors(origins: readonly string[], mcpPath: string): RequestHandler {
  const allowed = new Set(origins);
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (origin === undefined || !allowed.has(origin)) return next();
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    // A page's script may read the request id (to quote it in a support request), the timings, an export's file name, where a change-feed export stops and which nulls stand for a missing right.
    res.setHeader(
      'Access-Control-Expose-Headers',
      'Age, Content-Disposition, Deprecation, ETag, RateLimit, RateLimit-Policy, Retry-After, Server-Timing, WWW-Authenticate, X-Next-Changed-Since, X-Request-Id, X-Unreadable-Fields',
    );
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      const allows = req.path === mcpPath ? PREFLIGHT.mcp : PREFLIGHT.data;
      res.setHeader('Access-Control-Allow-Methods', allows.methods);
      res.setHeader('Access-Control-Allow-Headers', allows.headers);
      res.setHeader('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    next();
  };
}
