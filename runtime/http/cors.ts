/**
 * @module CORS, off unless the operator lists origins (CORS_ORIGINS): an allowed origin gets the
 * headers a browser needs for GET with a bearer key (and If-None-Match, with the ETag readable), and
 * its preflight is answered; others get none.
 */
import type { RequestHandler } from 'express';

export function cors(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (origin === undefined || !allowed.has(origin)) return next();
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    // Content-Disposition and X-Next-Changed-Since: an export's file name and where a change-feed export stops.
    res.setHeader('Access-Control-Expose-Headers', 'Content-Disposition, Deprecation, ETag, Retry-After, WWW-Authenticate, X-Next-Changed-Since');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD');
      res.setHeader('Access-Control-Allow-Headers', 'Authorization, If-None-Match');
      res.setHeader('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    next();
  };
}
