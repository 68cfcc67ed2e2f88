/**
 * @module A fixed-window counter per key (rate-limiter-flexible): in Redis when the gateway shares its
 * state (REDIS_URL), so that all processes count together, else in this process's memory. While Redis
 * cannot answer (down, slow past REDIS_TIMEOUT_MS), the same limit is counted in this process's memory
 * (each process then allows the whole limit by itself: with N processes, up to N times it) and Redis
 * takes over again once it answers. A limit is never waived and never turned into an error.
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

type Limiter = RateLimiterMemory | RateLimiterRedis;

export class WindowLimiter {
  private readonly memory: RateLimiterMemory;
  private readonly redis: RateLimiterRedis | undefined;

  constructor(
    readonly limit: WindowLimit,
    private readonly shared?: SharedRedis,
  ) {
    const options = { points: limit.points, duration: limit.windowSeconds };
    this.memory = new RateLimiterMemory({ ...options, keyPrefix: limit.name });
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
    return this.run(async (limiter) => {
      const state = await limiter.consume(key, points).then(stateOf(true), refusedOrThrow);
      // rate-limiter-flexible counts a refused attempt too: given back, so that only what was let through
      // counts (a check that settles as a success gives its point back, and must find the count it left).
      if (!state.allowed) await limiter.reward(key, points);
      return state;
    });
  }

  /** Gives back `points` (negative: takes more) of `key`'s window, e.g. when a request turned out cheaper. */
  async adjust(key: string, points: number): Promise<void> {
    if (points === 0) return;
    await this.run((limiter) => (points > 0 ? limiter.reward(key, points) : limiter.penalty(key, -points)).then(stateOf(true), refusedOrThrow));
  }

  private run(operation: (limiter: Limiter) => Promise<LimitState>): Promise<LimitState> {
    const { shared, redis } = this;
    if (!shared || !redis) return operation(this.memory);
    return shared.attempt(
      () => operation(redis),
      () => operation(this.memory),
    );
  }
}

const stateOf =
  (allowed: boolean) =>
  (res: RateLimiterRes): LimitState => ({ allowed, remaining: Math.max(0, res.remainingPoints), resetMs: Math.max(0, res.msBeforeNext) });

/** rate-limiter-flexible refuses with a RateLimiterRes and fails with an Error (Redis): only the first is a verdict. */
function refusedOrThrow(reason: unknown): LimitState {
  if (reason instanceof RateLimiterRes) return stateOf(false)(reason);
  throw reason;
}
