/**
 * @module Caching policy of live answers. Data, error and health answers are never stored
 * (`Cache-Control: no-store`): data may be personal and is read live from the ERP, and a shared cache
 * must never keep it. A client may still revalidate what it kept itself: data answers carry an ETag
 * and honour If-None-Match (conditional.ts). Health answers carry no validator, so a conditional
 * request on them is dropped to a plain one (`unconditional`): otherwise Express's freshness check
 * answers `If-None-Match: *` with a bodiless 304.
 */
import type { RequestHandler } from 'express';

export function noStore(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
}

export function unconditional(): RequestHandler {
  return (req, _res, next) => {
    delete req.headers['if-none-match'];
    delete req.headers['if-modified-since'];
    next();
  };
}
