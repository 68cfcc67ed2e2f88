/**
 * @module A fixed-window counter per key (rate-limiter-flexible): in Redis when the gateway shares its
 * state (REDIS_URL), so that all processes count together, else in this process's memory. A limit is
 * never waived and never turned into an error.
 *
 * Redis going away or coming back never resets a count. Each process keeps its own count of every key
 * in memory: without Redis it is the count; with Redis it is what Redis last answered for the key (the
 * global count, with the window's end). While Redis cannot answer (down, slow past REDIS_TIMEOUT_MS,
 * not connected yet), the process goes on from that count, and remembers apart what it let through
 * meanwhile; when Redis answers again, those points are added to Redis's count, and if Redis still
 * knows less than the process counted (it restarted empty, or lost the key) it is brought up to that.
 * So one process never lets more than the limit through in a window, across an outage and a Redis
 * restart; with N processes, each goes on alone from the count it last had, up to N times the limit
 * while Redis is away, and Redis has every process's points once it is back.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { SharedRedis } from './redis';

export interface WindowLimit {
  /** Names the counter in Redis (`<REDIS_KEY_PREFIX>rl:<name>:<key>`). */
  readonly name: string;
  /** Points per window and key. */
  readonly points: number;
  readonly windowSeconds: number;
}

export interface LimitState {
  /** Whether the points asked for fitted in the window. */
  readonly allowed: boolean;
  /** Points left in the window (0 when refused). */
  readonly remaining: number;
  /** Milliseconds until the window ends and its points are back. */
  readonly resetMs: number;
}

export class WindowLimiter {
  /** This process's count of each key: the count without Redis, and what it goes on from while Redis is away. */
  private readonly local: RateLimiterMemory;
  /** Points this process let through (or gave back) while Redis was away, not yet added to Redis's count. */
  private readonly unsynced: RateLimiterMemory;
  private readonly redis: RateLimiterRedis | undefined;

  constructor(
    readonly limit: WindowLimit,
    private readonly shared?: SharedRedis,
  ) {
    const options = { points: limit.points, duration: limit.windowSeconds };
    this.local = new RateLimiterMemory({ ...options, keyPrefix: limit.name });
    this.unsynced = new RateLimiterMemory({ ...options, keyPrefix: `${limit.name}:unsynced` });
    this.redis =
      shared &&
      new RateLimiterRedis({
        ...options,
        storeClient: shared.client,
        keyPrefix: `${shared.keyPrefix}rl:${limit.name}`,
        // Not connected: fail at once (the fallback counts) rather than queue.
        rejectIfRedisNotReady: true,
      });
  }

  /** Spends `points` of `key`'s window; refused, spending nothing, when they do not fit. */
  consume(key: string, points: number): Promise<LimitState> {
    const { shared, redis } = this;
    if (!shared || !redis) return this.consumeLocally(key, points);
    return shared.attempt(
      () => this.consumeShared(redis, key, points),
      async () => {
        const state = await this.consumeLocally(key, points);
        if (state.allowed) await this.unsynced.penalty(key, points);
        return state;
      },
    );
  }

  /** Gives back `points` (negative: takes more) of `key`'s window, e.g. when a request turned out cheaper. */
  async adjust(key: string, points: number): Promise<void> {
    if (points === 0) return;
    const change = (limiter: RateLimiterMemory | RateLimiterRedis) => (points > 0 ? limiter.reward(key, points) : limiter.penalty(key, -points));
    const { shared, redis } = this;
    if (!shared || !redis) {
      await change(this.local);
      return;
    }
    await shared.attempt(
      async () => this.remember(key, await change(redis)),
      async () => {
        await change(this.local);
        await change(this.unsynced);
      },
    );
  }

  private async consumeLocally(key: string, points: number): Promise<LimitState> {
    const res = await this.local.consume(key, points).catch(verdictOrThrow);
    if (res.consumedPoints <= this.limit.points) return stateOf(true, res);
    // rate-limiter-flexible counts a refused attempt too: given back, so that only what was let through
    // counts (a check that settles as a success gives its point back, and must find the count it left).
    return stateOf(false, await this.local.reward(key, points));
  }

  private async consumeShared(redis: RateLimiterRedis, key: string, points: number): Promise<LimitState> {
    const counted = current(await this.local.get(key));
    const pending = current(await this.unsynced.get(key));
    // The points let through while Redis was away join Redis's count with this request's.
    let res = await redis.consume(key, points + pending).catch(verdictOrThrow);
    await this.unsynced.delete(key);
    // Redis knows fewer points than this process had counted (it restarted empty, or lost the key while
    // this process counted alone): brought up to them before deciding.
    if (res.consumedPoints < counted + points) res = await redis.penalty(key, counted + points - res.consumedPoints);
    const allowed = res.consumedPoints <= this.limit.points;
    if (!allowed) res = await redis.reward(key, points);
    this.remember(key, res);
    return stateOf(allowed, res);
  }

  /** Keeps Redis's answer for `key` as this process's count, until the same window end. */
  private remember(key: string, res: RateLimiterRes): void {
    if (res.msBeforeNext > 0) void this.local.set(key, res.consumedPoints, Math.ceil(res.msBeforeNext / 1000));
  }
}

/** The points of an in-memory count, 0 when it has none (or its window is over). */
const current = (res: RateLimiterRes | null): number => (res && res.msBeforeNext > 0 ? res.consumedPoints : 0);

const stateOf = (allowed: boolean, res: RateLimiterRes): LimitState => ({
  allowed,
  remaining: allowed ? Math.max(0, res.remainingPoints) : 0,
  resetMs: Math.max(0, res.msBeforeNext),
});

/** rate-limiter-flexible refuses with a RateLimiterRes and fails with an Error (Redis): the first is a count like any other. */
function verdictOrThrow(reason: unknown): RateLimiterRes {
  if (reason instanceof RateLimiterRes) return reason;
  throw reason;
}
