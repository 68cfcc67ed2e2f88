/**
 * @module Caching policy of data and health answers: never stored (`Cache-Control: no-store`, as data
 * may be personal and is read live from the ERP) and never revalidated. They carry no validator
 * (no ETag, no Last-Modified), so a conditional request is dropped to a plain one: otherwise
 * Express's freshness check answers `If-None-Match: *` with a bodiless 304.
 */
import type { RequestHandler } from 'express';

export function noStore(): RequestHandler {
  return (req, res, next) => {
    delete req.headers['if-none-match'];
    delete req.headers['if-modified-since'];
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
}
