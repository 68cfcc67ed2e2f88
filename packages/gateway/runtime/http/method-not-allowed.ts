/**
 * @module 405 for any method other than GET/HEAD on a served path (decision D25): an HTML body, as
 * the spec says the routing layer answers, with `Allow: GET, HEAD`. Paths are matched exactly
 * (exact-routing.ts), so only the served spelling of a path is 405; any other is the 404 of no route.
 */
import type { RequestHandler } from 'express';

const PAGE =
  '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>405 Method Not Allowed</title></head><body><h1>Method Not Allowed</h1><p>The method is not allowed for the requested URL. Only GET and HEAD are served.</p></body></html>\n';

export function methodNotAllowed(isServedPath: (path: string) => boolean): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || !isServedPath(req.path)) return next();
    res.status(405).setHeader('Allow', 'GET, HEAD').type('html').send(PAGE);
  };
}
