/**
 * @module Failed authentications are limited per client address (decision D26), and key checks sent
 * to the ERP are capped for all addresses together: over RPC each unknown key costs the ERP about
 * 0.4 s of CPU (password hash first), so this guards the ERP as much as the keys. Past either limit,
 * a request whose key is not already known gets 429 `rate_limited` with Retry-After, before the ERP is
 * asked. A check still waiting for the ERP counts as a failure until it settles, so that many
 * concurrent bad keys cannot overshoot the limit while the ERP is thinking.
 *
 * The client address is Express's `req.ip`: behind proxies, the right-most address not trusted by
 * TRUST_PROXY (a hop count or subnets; `true`, which would trust the client's own header, is refused).
 */
import { GatewayError } from '../errors';
import { TtlCache } from '../ttl-cache';

interface Window {
  failures: number;
  /** Key checks of this address sent to the ERP and not yet answered. */
  pending: number;
  readonly startedAt: number;
}

/** Settles a key check begun by `begin`: whether the key was refused. */
export type SettleCheck = (failed: boolean) => void;

export class AuthFailureLimit {
  private readonly windows: TtlCache<string, Window>;
  private checks = 0;
  private checksSince: number;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    /** Key checks sent to the ERP per window, all addresses together. */
    private readonly checkLimit: number = Number.MAX_SAFE_INTEGER,
    private readonly now: () => number = Date.now,
  ) {
    this.windows = new TtlCache(100000, now);
    this.checksSince = now();
  }

  /**
   * Before a key check goes to the ERP: throws 429 when `address` has used up its failures (pending
   * checks included) or all addresses the window's checks; else counts the check as pending.
   */
  begin(address: string): SettleCheck {
    const now = this.now();
    const window = this.windowOf(address, now);
    if (window.failures + window.pending >= this.limit) throw limited('Too many failed authentications from this address; retry later.', window.startedAt + this.windowMs - now);
    if (now - this.checksSince >= this.windowMs) {
      this.checks = 0;
      this.checksSince = now;
    }
    if (this.checks >= this.checkLimit) throw limited('Too many new API keys are being checked; retry later.', this.checksSince + this.windowMs - now);
    this.checks++;
    window.pending++;
    let settled = false;
    return (failed) => {
      if (settled) return;
      settled = true;
      window.pending--;
      if (failed) window.failures++;
    };
  }

  /** A failed authentication the ERP was not asked about (no key, or a key already known bad). */
  recordFailure(address: string): void {
    this.windowOf(address, this.now()).failures++;
  }

  private windowOf(address: string, now: number): Window {
    let window = this.windows.get(address);
    if (!window) {
      window = { failures: 0, pending: 0, startedAt: now };
      this.windows.set(address, window, this.windowMs);
    }
    return window;
  }
}

function limited(message: string, retryInMs: number): GatewayError {
  return new GatewayError('rate_limited', message, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryInMs / 1000))) } });
}
