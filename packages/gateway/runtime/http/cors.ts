/**
 * @module CORS, off unless the operator lists origins (CORS_ORIGINS): an allowed origin gets the
 * headers a browser needs for GET with a bearer key (and If-None-Match, with the ETag and the rate-limit fields readable), and
 * its preflight is answered; others get none. A browser may send its own request id and trace context.
 */
import type { RequestHandler } from 'express';

export function cors(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (origin === undefined || !allowed.has(origin)) return next();
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    // A page's script may read the request id (to quote it in a support request), the timings, an export's file name and where a change-feed export stops.
    res.setHeader(
      'Access-Control-Expose-Headers',
      'Age, Content-Disposition, Deprecation, ETag, RateLimit, RateLimit-Policy, Retry-After, Server-Timing, WWW-Authenticate, X-Next-Changed-Since, X-Request-Id',
    );
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD');
      res.setHeader('Access-Control-Allow-Headers', 'Authorization, If-None-Match, X-Request-Id, traceparent, tracestate');
      res.setHeader('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    next();
  };
}
