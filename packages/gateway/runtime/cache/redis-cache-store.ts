/**
 * @module The response cache's store in Redis (REDIS_URL), shared by every gateway process: an answer
 * one process read from the ERP is served by the others. Each answer is one Redis string that expires
 * with it (PX keepMs): a small header (etag, storedAt, headers as JSON, its length first) then the
 * body's bytes, binary-safe. Redis is a help, never a dependency: every call is bounded by
 * REDIS_TIMEOUT_MS, and a Redis down or slow reads as a miss (the request goes to the ERP) and writes
 * nothing; a value that cannot be decoded is a miss too. Keys are the cache key's SHA-256 under
 * `<REDIS_KEY_PREFIX>cache:`, so they are short and say nothing of the account or the query.
 *
 * The runtime chooses this store when REDIS_URL is set (app.ts), its in-memory store otherwise.
 */
import { createHash } from 'node:crypto';
import type { SharedRedis } from '../shared-state/redis';
import type { CachedAnswer, CacheStore } from './cache-store';

/** Largest body kept in Redis by default: bigger answers are not shared (they stay out of the cache). */
const DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024;
const LENGTH_BYTES = 4;

export class RedisCacheStore implements CacheStore {
  constructor(
    private readonly shared: SharedRedis,
    private readonly maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
  ) {}

  get(key: string): Promise<CachedAnswer | undefined> {
    return this.shared.attempt(
      async (client) => decode(await client.getBuffer(this.redisKey(key))),
      () => undefined,
    );
  }

  async set(key: string, answer: CachedAnswer, keepMs: number): Promise<void> {
    if (answer.body.length > this.maxBodyBytes || !(keepMs >= 1)) return;
    const value = encode(answer);
    await this.shared.attempt(
      async (client) => {
        await client.set(this.redisKey(key), value, 'PX', Math.ceil(keepMs));
      },
      () => undefined,
    );
  }

  /** Answers made unreachable by a change expire in Redis with their PX (their keys name an older generation). */
  drop(): number {
    return 0;
  }

  private redisKey(key: string): string {
    return `${this.shared.keyPrefix}cache:${createHash('sha256').update(key).digest('hex')}`;
  }
}

function encode(answer: CachedAnswer): Buffer {
  const meta = Buffer.from(JSON.stringify({ etag: answer.etag, storedAt: answer.storedAt, headers: answer.headers }), 'utf8');
  const length = Buffer.alloc(LENGTH_BYTES);
  length.writeUInt32BE(meta.length);
  return Buffer.concat([length, meta, answer.body]);
}

function decode(value: Buffer | null): CachedAnswer | undefined {
  if (!value || value.length < LENGTH_BYTES) return undefined;
  const metaLength = value.readUInt32BE(0);
  if (LENGTH_BYTES + metaLength > value.length) return undefined;
  let meta: unknown;
  try {
    meta = JSON.parse(value.subarray(LENGTH_BYTES, LENGTH_BYTES + metaLength).toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isMeta(meta)) return undefined;
  return { body: Buffer.from(value.subarray(LENGTH_BYTES + metaLength)), etag: meta.etag, storedAt: meta.storedAt, headers: meta.headers };
}

function isMeta(meta: unknown): meta is Omit<CachedAnswer, 'body'> {
  if (!meta || typeof meta !== 'object') return false;
  const { etag, storedAt, headers } = meta as Record<string, unknown>;
  return (
    typeof etag === 'string' &&
    typeof storedAt === 'number' &&
    !!headers &&
    typeof headers === 'object' &&
    Object.values(headers as Record<string, unknown>).every((value) => typeof value === 'string')
  );
}
