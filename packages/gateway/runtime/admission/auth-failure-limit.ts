/**
 * @module Failed authentications are limited per client address (decision D26), and key checks sent
 * to the ERP are capped for all addresses together: over RPC each unknown key costs the ERP about
 * 0.4 s of CPU (password hash first), so this guards the ERP as much as the keys. Past either limit,
 * a request whose key is not already known gets 429 `rate_limited` with Retry-After, before the ERP is
 * asked. A check still waiting for the ERP counts as a failure until it settles, so that many
 * concurrent bad keys cannot overshoot the limit while the ERP is thinking.
 *
 * With REDIS_URL both counters live in Redis, shared by every gateway process (several processes
 * behind a load balancer then check at most AUTH_CHECK_LIMIT keys together); while Redis cannot answer
 * each process counts alone, going on from the counts Redis last gave it, and a Redis that comes back
 * knowing less is brought up to them (shared-state/window-limiter.ts): an outage never resets a count.
 *
 * The client address is Express's `req.ip`: behind proxies, the right-most address not trusted by
 * TRUST_PROXY (a hop count or subnets; `true`, which would trust the client's own header, is refused).
 */
import { GatewayError } from '../errors';
import type { SharedRedis } from '../shared-state/redis';
import { WindowLimiter } from '../shared-state/window-limiter';

/** Settles a key check begun by `begin`: whether the key was refused. */
export type SettleCheck = (failed: boolean) => void;

/** The one counter of key checks (all addresses together). */
const ALL_ADDRESSES = 'all';

export class AuthFailureLimit {
  /** Failures plus checks still waiting for the ERP, per address. */
  private readonly perAddress: WindowLimiter;
  private readonly checks: WindowLimiter;

  constructor(
    limit: number,
    windowMs: number,
    /** Key checks sent to the ERP per window, all addresses together. */
    checkLimit: number = Number.MAX_SAFE_INTEGER,
    /** With REDIS_URL: counted in Redis, so that every gateway process counts together. */
    shared?: SharedRedis,
  ) {
    // Windows are whole seconds (Redis expiry's unit): AUTH_FAILURE_WINDOW_MS is rounded up.
    const windowSeconds = Math.ceil(windowMs / 1000);
    this.perAddress = new WindowLimiter({ name: 'auth-failures', points: limit, windowSeconds }, shared);
    this.checks = new WindowLimiter({ name: 'key-checks', points: checkLimit, windowSeconds }, shared);
  }

  /**
   * Before a key check goes to the ERP: throws 429 when `address` has used up its failures (pending
   * checks included) or all addresses the window's checks; else counts the check as pending (a
   * failure until it settles as a success).
   */
  async begin(address: string): Promise<SettleCheck> {
    const own = await this.perAddress.consume(address, 1);
    if (!own.allowed) throw limited('Too many failed authentications from this address; retry later.', own.resetMs);
    const all = await this.checks.consume(ALL_ADDRESSES, 1);
    if (!all.allowed) {
      void this.perAddress.adjust(address, 1);
      throw limited('Too many new API keys are being checked; retry later.', all.resetMs);
    }
    let settled = false;
    return (failed) => {
      if (settled) return;
      settled = true;
      if (!failed) void this.perAddress.adjust(address, 1);
    };
  }

  /** A failed authentication the ERP was not asked about (no key, or a key already known bad). */
  recordFailure(address: string): void {
    void this.perAddress.consume(address, 1);
  }
}

function limited(message: string, retryInMs: number): GatewayError {
  return new GatewayError('rate_limited', message, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryInMs / 1000))) } });
}
