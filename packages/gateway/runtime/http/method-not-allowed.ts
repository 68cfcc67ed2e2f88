/**
 * @module 405 for any method other than GET/HEAD on a served path (decision D25): an HTML body, as
 * the spec says the routing layer answers, with `Allow: GET, HEAD`. Express routes regardless of
 * letter case, so a path is served (and 405 for other methods) in any case too.
 */
import type { RequestHandler } from 'express';

const PAGE =
  '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>405 Method Not Allowed</title></head><body><h1>Method Not Allowed</h1><p>The method is not allowed for the requested URL. Only GET and HEAD are served.</p></body></html>\n';

export function methodNotAllowed(isServedPath: (path: string) => boolean): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || !isServedPath(req.path.toLowerCase())) return next();
    res.status(405).setHeader('Allow', 'GET, HEAD').type('html').send(PAGE);
  };
}
