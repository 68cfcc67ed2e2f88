/**
 * @module Writes a data answer as JSON straight to the response, with its ETag and `Server-Timing`,
 * compressed when the client accepts it (compression.ts), or 304 when the request already holds it
 * (conditional.ts). Express's `res.json` goes through `res.send`, which also computes freshness and
 * charset: work a data answer does not need on the gateway's hottest path. The text is encoded once,
 * and the ETag hashes those bytes: hashing the string would encode it a second time, which costs more
 * than the hash (measured: 12 µs against 33 µs for a 20 KB page). A cached answer is kept encoded
 * (identity bytes and their ETag) and sent the same way. Node drops the body of an answer to HEAD by
 * itself.
 */
import type { Request, Response } from 'express';
import { codingFor, compress, taggedFor, type CompressionSettings } from './compression';
import { answeredNotModified, entityTagOf } from './conditional';
import { deadlineExpired } from '../request/request-context';
import { serverTimingOf } from './request-log';

/** The bytes of a JSON answer and their ETag. */
export function encodeJson(body: unknown): { readonly bytes: Buffer; readonly etag: string } {
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  return { bytes, etag: entityTagOf(bytes) };
}

/** Sends JSON bytes already encoded (fresh, or a cached answer), or 304 when the request holds their ETag. */
export async function sendEncoded(req: Request, res: Response, bytes: Buffer, etag: string, compression: CompressionSettings): Promise<void> {
  const coding = codingFor(req, res, compression, bytes.length, 'fast');
  res.setHeader('Server-Timing', serverTimingOf(res));
  if (answeredNotModified(req, res, taggedFor(etag, coding))) return;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (coding === 'identity') {
    res.setHeader('Content-Length', bytes.length);
    res.end(bytes);
    return;
  }
  const sent = await compress(bytes, coding, 'fast');
  // The request deadline may have answered 504 while the body was compressed.
  if (deadlineExpired(res) || res.headersSent) return;
  res.setHeader('Content-Encoding', coding);
  res.setHeader('Content-Length', sent.length);
  res.end(sent);
}
