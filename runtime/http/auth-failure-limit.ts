/**
 * @module Failed authentications are limited per client address (decision D26): past the limit
 * within the window, requests from that address whose key is not already known good get 429
 * `rate_limited` with Retry-After, before the ERP is asked. Over RPC each unknown key costs the ERP
 * about 0.4 s of CPU (password hash first), so this guards the ERP as much as the keys.
 */
import { GatewayError } from '../errors';
import { TtlCache } from '../ttl-cache';

interface Window {
  failures: number;
  readonly startedAt: number;
}

export class AuthFailureLimit {
  private readonly windows: TtlCache<string, Window>;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.windows = new TtlCache(100000, now);
  }

  /** Throws 429 when `address` has used up its failures in the current window. */
  check(address: string): void {
    const window = this.windows.get(address);
    if (!window || window.failures < this.limit) return;
    const retryAfter = Math.max(1, Math.ceil((window.startedAt + this.windowMs - this.now()) / 1000));
    throw new GatewayError('rate_limited', 'Too many failed authentications from this address; retry later.', {
      headers: { 'Retry-After': String(retryAfter) },
    });
  }

  recordFailure(address: string): void {
    const window = this.windows.get(address);
    if (window) window.failures++;
    else this.windows.set(address, { failures: 1, startedAt: this.now() }, this.windowMs);
  }
}
