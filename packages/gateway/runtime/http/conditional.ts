/**
 * @module Conditional GET (RFC 9110 §8.8.3, §13.1.2): every data answer and document carries a strong
 * ETag, a hash of the very bytes of its body, and a GET or HEAD whose If-None-Match matches it is
 * answered 304 with no body. A client that keeps the ETag of what it read (a dashboard polling every
 * minute) then gets "unchanged" in a few bytes instead of the whole page; the gateway still reads the
 * ERP for it, as it must to know whether the data changed.
 *
 * The tag hashes the body rather than describing the data (the ERP has no cheap version to read), so
 * two identical bodies share a tag whoever reads them: a 304 tells a client only that what it would be
 * sent is what it holds. SHA-256, cut to 162 bits (27 base64url characters): collisions are out of
 * reach, and hashing a 50-record page costs a few tens of microseconds (BENCHMARKS.md).
 */
import { hash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The strong entity tag of a body (quoted, as the header carries it). */
export function entityTagOf(body: string | Buffer): string {
  return `"${hash('sha256', body, 'base64url').slice(0, 27)}"`;
}

/** One entity tag of a list: `W/` optional, then a quoted opaque tag (RFC 9110 §8.8.3). */
const ENTITY_TAG = /(W\/)?"([^"]*)"/g;

/**
 * Whether If-None-Match matches `etag` (RFC 9110 §13.1.2): `*` matches any current representation,
 * otherwise one tag of the list must match by the weak comparison (a `W/` tag matches the strong tag
 * of the same opaque value). A field that is not an entity-tag list matches nothing: the answer is
 * then sent in full, which is never wrong.
 */
function noneMatchHits(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  for (const match of ifNoneMatch.matchAll(ENTITY_TAG)) if (`"${match[2]}"` === etag) return true;
  return false;
}

/**
 * Sets the ETag and answers 304 when the request already holds that representation; true when it
 * did (nothing more to send). A 304 repeats the headers a 200 would have that describe it (ETag,
 * Cache-Control, Deprecation are already set), without Content-Type or Content-Length.
 */
export function answeredNotModified(req: IncomingMessage, res: ServerResponse, etag: string): boolean {
  res.setHeader('ETag', etag);
  if (!noneMatchHits(req.headers['if-none-match'], etag)) return false;
  res.statusCode = 304;
  res.end();
  return true;
}
