/**
 * @module The ERP time change checks may take (CACHE_WATCH_SHARE_PCT of one worker's time), kept as
 * a token bucket: time is earned at `share` of the clock from the first check on, each check spends
 * what it cost, and a check is started only when what it is expected to cost (its last cost) has been
 * earned. So, counted from the first check, the checks' ERP time never exceeds `share` of the time
 * passed by more than the last check's cost above its estimate. Baselines are not delayed (a request
 * waits for them) but are spent all the same: the checks after them wait until they are paid for.
 * What is earned while nothing is due is kept only up to one check's worth, so an idle hour buys no
 * burst.
 *
 * Per-model intervals (change-watch.ts) spread the checks among the models; this bounds their sum
 * whatever the costs do (a check dearer than the one before, a burst of baselines at start-up).
 */
export class CheckBudget {
  /** Milliseconds of ERP time earned and not spent (negative: owed). */
  private balanceMs = 0;
  /** When the balance was last brought up to date; undefined before the first check. */
  private since: number | undefined;
  /** The dearest check seen: what may be kept in hand. */
  private largestMs = 0;

  constructor(private readonly share: number) {}

  /** Milliseconds to wait from `now` before a check expected to cost `expectedMs` may start (0: now). */
  waitMs(expectedMs: number, now: number): number {
    this.earn(now);
    const missing = Math.max(0, expectedMs) - this.balanceMs;
    return missing <= 0 ? 0 : Math.ceil(missing / this.share);
  }

  /** A check started at `startedAt` took `costMs` of the ERP's time. */
  spend(costMs: number, startedAt: number): void {
    this.earn(startedAt);
    this.balanceMs -= costMs;
    this.largestMs = Math.max(this.largestMs, costMs);
  }

  private earn(now: number): void {
    if (this.since === undefined) {
      this.since = now;
      return;
    }
    if (now <= this.since) return;
    this.balanceMs = Math.min(this.largestMs, this.balanceMs + (now - this.since) * this.share);
    this.since = now;
  }
}
