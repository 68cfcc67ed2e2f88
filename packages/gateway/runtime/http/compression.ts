/**
 * @module Compression of answers (gzip or brotli, as `Accept-Encoding` prefers; when the client takes
 * both equally, gzip for data answers and brotli for documents), for bodies of at least
 * COMPRESSION_MIN_BYTES; off with
 * COMPRESSION=off behind a proxy that compresses. Every answer that could be compressed says
 * `Vary: Accept-Encoding`, whichever coding it went out in.
 *
 * Built on node:zlib rather than the `compression` middleware: every body the gateway writes but an
 * export is whole before it is sent (a data page must be, for its ETag), so there is nothing to
 * stream, and the middleware's wrapping of `res.write`/`res.end` (and its 16 KB chunks through a zlib stream)
 * is work for nothing. zlib's one-shot functions run on libuv's thread pool, not on the event loop,
 * in one job (the output buffer holds the whole answer; zlib's default 16 KB would make one job per
 * 16 KB). A data answer is compressed at a fast setting: gzip level 3 and brotli quality 3, the knee
 * measured on a real 200-record page (80 KB): 9.2 and 9.1 KB for about 0.4 ms of CPU, where gzip 6
 * and brotli 4 save one more KB for 0.55 to 0.7 ms (BENCHMARKS.md). A document (OpenAPI, docs page,
 * llms.txt), which never changes, is compressed once, when first asked for, at gzip 9 and brotli 9
 * (brotli 11 saves another 7 % but took 0.3 to 0.9 s for openapi.json: a first visitor would wait).
 * At those settings brotli makes a data page no smaller than gzip (9,130 against 9,159 bytes) for more
 * CPU (1.2 against 0.6 ms in `make bench`), so data answers prefer gzip; a document, compressed once,
 * prefers brotli (openapi.json: 20 KB against 27 KB).
 *
 * An export is the one answer made as it is written: it goes through a zlib stream
 * (`compressingStream`) at the same fast setting.
 *
 * A compressed answer is another representation of the resource (RFC 9110 §8.8.3): its ETag is the
 * body's tag with the coding appended (`"…-br"`), so a cache never takes one for the other, and an
 * `If-None-Match` holding it is answered 304 as the identity one is.
 */
import Negotiator from 'negotiator';
import type { Request, Response } from 'express';
import { promisify } from 'node:util';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip, type BrotliCompress, type Gzip } from 'node:zlib';

export type Coding = 'br' | 'gzip' | 'identity';

export interface CompressionSettings {
  readonly enabled: boolean;
  /** Bodies shorter than this go out as they are: the saving would not pay for the CPU. */
  readonly minBytes: number;
}

/** The server's order of preference, for answers made per request (`fast`) and documents compressed once (`best`). */
const PREFERENCE: Readonly<Record<'fast' | 'best', { readonly preferred: Coding[] }>> = {
  fast: { preferred: ['gzip', 'br', 'identity'] },
  best: { preferred: ['br', 'gzip', 'identity'] },
};
/** negotiator 1.x takes the server's order of preference as a second argument; its published types (0.6) predate it. */
type Preferring = (available: Coding[], options: { readonly preferred: Coding[] }) => string[];

/** The coding to send a body of `size` bytes in (identity when compression is off or not worth it). */
export function codingFor(req: Request, res: Response, settings: CompressionSettings, size: number, effort: 'fast' | 'best'): Coding {
  if (!settings.enabled) return 'identity';
  // Added to what is there (CORS varies on Origin).
  res.vary('Accept-Encoding');
  if (size < settings.minBytes || !req.headers['accept-encoding']) return 'identity';
  // Negotiator (Express's own) weighs q-values and `*`; an empty list (identity;q=0 and nothing else offered) gets identity.
  const negotiator = new Negotiator(req);
  const preference = PREFERENCE[effort];
  return ((negotiator.encodings as unknown as Preferring).call(negotiator, preference.preferred, preference)[0] as Coding | undefined) ?? 'identity';
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** gzip level and brotli quality per effort (see the module comment for how they were chosen). */
const LEVELS = { fast: { gzip: 3, br: 3 }, best: { gzip: constants.Z_BEST_COMPRESSION, br: 9 } } as const;

/** `fast` for answers made per request, `best` for documents compressed once. */
export function compress(body: Buffer, coding: Exclude<Coding, 'identity'>, effort: 'fast' | 'best'): Promise<Buffer> {
  // The compressed answer is smaller than the body: one output buffer of the body's size is one thread-pool job.
  const chunkSize = Math.max(16 * 1024, body.length);
  if (coding === 'br')
    return brotli(body, {
      chunkSize,
      params: {
        [constants.BROTLI_PARAM_QUALITY]: LEVELS[effort].br,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    });
  return gzipped(body, { chunkSize, level: LEVELS[effort].gzip });
}

/** The ETag of the representation in `coding`: the body's tag, with the coding inside the quotes. */
export function taggedFor(etag: string, coding: Coding): string {
  return coding === 'identity' ? etag : `${etag.slice(0, -1)}-${coding}"`;
}

/**
 * A compressing stream for an answer written as it is made (an export): the fast setting of data
 * answers. Brotli's window is cut to 1 MiB (its default at this quality is 4 MiB) to keep each stream's
 * memory small; measured in BENCHMARKS.md ("Compressed exports").
 */
export function compressingStream(coding: Exclude<Coding, 'identity'>): Gzip | BrotliCompress {
  if (coding === 'br')
    return createBrotliCompress({
      params: {
        [constants.BROTLI_PARAM_QUALITY]: LEVELS.fast.br,
        [constants.BROTLI_PARAM_LGWIN]: 20,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    });
  return createGzip({ level: LEVELS.fast.gzip });
}
