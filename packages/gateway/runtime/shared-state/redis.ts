/**
 * @module The one connection to Redis (REDIS_URL) through which several gateway processes share their
 * state: the failed-authentication limits, the cap of ERP key checks, the per-key rate limits and the
 * response cache. Redis is a help, never a dependency: every call is bounded (REDIS_TIMEOUT_MS), a
 * call that fails or times out makes the caller use its fallback (per-process limits, a cache bypass)
 * and keeps Redis out of the way for a short cool-down, so a slow or dead Redis costs a request at
 * most one bounded wait per cool-down and never a 5xx.
 *
 * ioredis rather than node-redis: ioredis's `commandTimeout` bounds a command from the moment it is
 * sent until its reply, so a Redis that accepted the connection but stopped answering (paused,
 * swapping, `DEBUG SLEEP`) is cut off at the bound; node-redis 6's per-command `timeout` stops counting
 * once the command is written to the socket, which would leave exactly that case unbounded.
 * rate-limiter-flexible drives both alike (its Lua counter is loaded once, then run by SHA).
 */
import { Redis } from 'ioredis';
import type { RedisConfig } from '../config';
import type { Logger } from '../log';

/** After a failed call, Redis is left alone this long (then tried again by the next call). */
const COOL_DOWN_MS = 2000;
/** Reconnection attempts back off up to this delay, forever: Redis may come back at any time. */
const MAX_RECONNECT_DELAY_MS = 2000;

export class SharedRedis {
  readonly client: Redis;
  readonly keyPrefix: string;
  private coolDownUntil = 0;
  private failing = false;

  constructor(
    config: RedisConfig,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.keyPrefix = config.keyPrefix;
    this.client = new Redis(config.url, {
      commandTimeout: config.timeoutMs,
      connectTimeout: Math.max(config.timeoutMs, 1000),
      // While disconnected a command fails at once (the caller falls back) instead of waiting in a queue.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
      // Nothing here needs a connection before the first request: start-up never waits for Redis.
      lazyConnect: false,
    });
    // Connection errors surface as failed calls; without a listener ioredis would print each one.
    this.client.on('error', () => this.markFailing('connection error'));
    this.client.on('ready', () => this.markRecovered());
  }

  /** Whether to ask Redis now: connected, and no call failed within the cool-down. */
  get usable(): boolean {
    return this.client.status === 'ready' && this.now() >= this.coolDownUntil;
  }

  /**
   * `operation` against Redis, or `fallback()` when Redis is not usable or the operation fails (an
   * error or the timeout). Never rejects because of Redis.
   */
  async attempt<T>(operation: (client: Redis) => Promise<T>, fallback: () => T | Promise<T>): Promise<T> {
    if (!this.usable) return fallback();
    let result: T;
    try {
      result = await operation(this.client);
    } catch (error) {
      this.coolDownUntil = this.now() + COOL_DOWN_MS;
      this.markFailing(error instanceof Error ? error.message.slice(0, 200) : 'failed');
      return fallback();
    }
    if (this.failing) this.markRecovered();
    return result;
  }

  /** Closes the connection (at shutdown), within the timeout. */
  async close(): Promise<void> {
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  private markFailing(reason: string): void {
    if (this.failing) return;
    this.failing = true;
    // The URL is never logged: it may carry a password.
    this.log.warn({ shared_state: 'redis', reason }, 'Redis unusable: limits are counted per process, the cache is bypassed, until it answers again');
  }

  private markRecovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.log.info({ shared_state: 'redis' }, 'Redis answers again: limits and cache are shared again');
  }
}
