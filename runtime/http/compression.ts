/**
 * @module Compression of answers (brotli or gzip, as `Accept-Encoding` prefers; brotli when the
 * client takes both equally), for bodies of at least COMPRESSION_MIN_BYTES; off with
 * COMPRESSION=off behind a proxy that compresses. Every answer that could be compressed says
 * `Vary: Accept-Encoding`, whichever coding it went out in.
 *
 * Built on node:zlib rather than the `compression` middleware: every body the gateway writes is
 * whole before it is sent (a data page must be, for its ETag), so there is nothing to stream, and
 * the middleware's wrapping of `res.write`/`res.end` (and its 16 KB chunks through a zlib stream)
 * is work for nothing. zlib's one-shot functions run on libuv's thread pool, not on the event loop.
 * A data answer is compressed at a fast setting (brotli quality 4, gzip level 6: BENCHMARKS.md
 * weighs the CPU against the bytes); a document (OpenAPI, docs page, llms.txt), which never
 * changes, is compressed once at the strongest setting and kept.
 *
 * A compressed answer is another representation of the resource (RFC 9110 §8.8.3): its ETag is the
 * body's tag with the coding appended (`"…-br"`), so a cache never takes one for the other, and an
 * `If-None-Match` holding it is answered 304 as the identity one is.
 */
import Negotiator from 'negotiator';
import type { Request, Response } from 'express';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export type Coding = 'br' | 'gzip' | 'identity';

export interface CompressionSettings {
  readonly enabled: boolean;
  /** Bodies shorter than this go out as they are: the saving would not pay for the CPU. */
  readonly minBytes: number;
}

const OFFERED: Coding[] = ['br', 'gzip', 'identity'];
/** negotiator 1.x takes the server's order of preference as a second argument; its published types (0.6) predate it. */
type Preferring = (available: Coding[], options: { readonly preferred: Coding[] }) => string[];
const PREFERRED = { preferred: OFFERED };

/** The coding to send a body of `size` bytes in (identity when compression is off or not worth it). */
export function codingFor(req: Request, res: Response, settings: CompressionSettings, size: number): Coding {
  if (!settings.enabled) return 'identity';
  // Added to what is there (CORS varies on Origin).
  res.vary('Accept-Encoding');
  if (size < settings.minBytes || !req.headers['accept-encoding']) return 'identity';
  // Negotiator (Express's own) weighs q-values and `*`; an empty list (identity;q=0 and nothing else offered) gets identity.
  const negotiator = new Negotiator(req);
  return ((negotiator.encodings as unknown as Preferring).call(negotiator, OFFERED, PREFERRED)[0] as Coding | undefined) ?? 'identity';
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** `fast` for answers made per request, `best` for documents compressed once. */
export function compress(body: Buffer, coding: Exclude<Coding, 'identity'>, effort: 'fast' | 'best'): Promise<Buffer> {
  if (coding === 'br')
    return brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: effort === 'fast' ? 4 : constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    });
  return gzipped(body, { level: effort === 'fast' ? 6 : constants.Z_BEST_COMPRESSION });
}

/** The ETag of the representation in `coding`: the body's tag, with the coding inside the quotes. */
export function taggedFor(etag: string, coding: Coding): string {
  return coding === 'identity' ? etag : `${etag.slice(0, -1)}-${coding}"`;
}
