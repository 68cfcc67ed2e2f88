/**
 * @module Per-key rate limits (decision D26), off unless the operator sets RATE_LIMIT_POINTS: each API
 * key may spend that many points per window of RATE_LIMIT_WINDOW_SECONDS; a request is charged its
 * kind's cost (RATE_LIMIT_COSTS) before the ERP is asked, and past the limit it is answered 429
 * `rate_limited` with Retry-After, the ERP untouched. A request that turns out cheaper (a 304) is
 * charged its lower cost instead once answered, and so is one the response cache answered.
 *
 * Counted per key, not per ERP account: the gateway's consumers usually hold keys of one technical
 * account (docs/production.md, "Authentication"), so a limit per account would let one busy dashboard use up
 * every other consumer's share; per key, each consumer has its own and the operator can reason about
 * it. The counter is named by the key's id (a prefix of its SHA-256, as in the logs), never the key.
 * With REDIS_URL the counters are shared by every gateway process (shared-state/window-limiter.ts).
 *
 * Every data answer past authentication and query validation carries the two fields of the IETF
 * draft "RateLimit header fields for HTTP" (draft-ietf-httpapi-ratelimit-headers-10, 27 September
 * 2025, whose syntax -11 of May 2026 keeps as far as its published record shows): Structured Field
 * lists whose item names the policy, here
 *   RateLimit-Policy: "per-key";q=600;w=60     (quota in points, window in seconds)
 *   RateLimit: "per-key";r=598;t=42            (points left, seconds until the window ends)
 * The quota unit stays the default ("requests"): every request costs at least one point, and the
 * costs weigh them by what they ask of the ERP.
 */
import type { ServerResponse } from 'node:http';
import type { RateLimitConfig, RateLimitCosts } from '../config';
import { GatewayError } from '../errors';
import type { AnswerCost, RequestCost } from '../route-kinds';
import type { SharedRedis } from '../shared-state/redis';
import { WindowLimiter } from '../shared-state/window-limiter';

/**
 * How a request was answered, when that may be cheaper than its kind (route-kinds.ts): `full` keeps
 * the charge; `not_modified` (a 304) and `cached` (a 200 from the response cache, fresh or stale: the
 * ERP was not asked) are charged their own costs instead.
 */
export type AnswerOutcome = 'full' | AnswerCost;

const POLICY = 'per-key';

/** The charge of one request, settled once it has answered. */
export interface Charge {
  settle(outcome: AnswerOutcome): void;
}

const FREE: Charge = { settle: () => undefined };

export class KeyRateLimit {
  private readonly limiter: WindowLimiter;
  private readonly costs: RateLimitCosts;
  private readonly policy: string;
  private readonly points: number;
  private readonly windowSeconds: number;

  constructor(
    config: RateLimitConfig,
    shared?: SharedRedis,
    /** Told of each refusal (odg_rate_limit_refusals_total when metrics are on). */
    private readonly onRefusal: () => void = () => undefined,
  ) {
    this.costs = config.costs;
    this.points = config.points;
    this.windowSeconds = config.windowSeconds;
    this.limiter = new WindowLimiter({ name: 'key', points: config.points, windowSeconds: config.windowSeconds }, shared);
    this.policy = `"${POLICY}";q=${config.points};w=${config.windowSeconds}`;
  }

  /**
   * Charges `kind` to the key before the ERP is asked and sets the RateLimit fields on the answer;
   * throws 429 `rate_limited` with Retry-After when the key's window has no room for it.
   */
  async admit(keyId: string, kind: RequestCost, res: ServerResponse): Promise<Charge> {
    const cost = this.costs[kind];
    const state = await this.limiter.consume(keyId, cost);
    const resetSeconds = Math.max(1, Math.ceil(state.resetMs / 1000));
    res.setHeader('RateLimit-Policy', this.policy);
    res.setHeader('RateLimit', `"${POLICY}";r=${state.remaining};t=${resetSeconds}`);
    if (!state.allowed) {
      this.onRefusal();
      // Retry-After never names a time before the window's end (the draft's rule): they are the same here.
      throw new GatewayError('rate_limited', `This API key has used its ${this.points} points of the current ${this.windowSeconds}-second window; retry in ${resetSeconds} s.`, {
        headers: { 'Retry-After': String(resetSeconds) },
      });
    }
    let settled = false;
    return {
      settle: (outcome) => {
        if (settled || outcome === 'full') return;
        settled = true;
        // Given back (or, for a dearer outcome, taken) in the background: the answer is already written.
        void this.limiter.adjust(keyId, cost - this.costs[outcome]);
      },
    };
  }
}

/** No limit configured: every request is free and carries no RateLimit fields. */
export const NO_KEY_RATE_LIMIT = { admit: async (): Promise<Charge> => FREE };

export type KeyRateLimitPort = Pick<KeyRateLimit, 'admit'>;
