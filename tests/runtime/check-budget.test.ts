/**
 * The ERP time change checks take stays within CACHE_WATCH_SHARE_PCT (runtime/cache/check-budget.ts),
 * whatever the checks cost: simulated on a clock with costs that vary from one check to the next and a
 * burst of baselines at the start, as on the real Odoo 19 with a million pickings (171 to 426 ms).
 */
import { CheckBudget } from '@ops-data-gateway/gateway/runtime/cache/check-budget';

/** Deterministic costs between `low` and `high` ms (a linear congruential sequence). */
function costs(low: number, high: number): () => number {
  let seed = 12345;
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return low + ((high - low) * seed) / 2 ** 31;
  };
}

/** A watcher that always wants to check: each check as soon as the budget allows it. */
function run(share: number, baselines: number, seconds: number, nextCost: () => number) {
  const budget = new CheckBudget(share);
  const start = 1_000_000;
  let now = start;
  let spent = 0;
  let worstBeforeStart = Number.NEGATIVE_INFINITY;
  let lastCost = 0;
  for (let i = 0; i < baselines; i++) {
    // Baselines: made at once, never delayed (a request waits for them).
    lastCost = nextCost();
    budget.spend(lastCost, now);
    spent += lastCost;
    now += lastCost;
  }
  let checks = 0;
  while (now < start + seconds * 1000) {
    const wait = budget.waitMs(lastCost, now);
    now += wait;
    // What the checks took before this one starts, against the share of the time since the first.
    worstBeforeStart = Math.max(worstBeforeStart, spent - share * (now - start));
    const cost = nextCost();
    budget.spend(cost, now);
    spent += cost;
    now += cost;
    lastCost = cost;
    checks++;
  }
  return { spent, elapsed: now - start, worstBeforeStart, checks, lastCost };
}

describe('the budget of change checks', () => {
  it('never lets the checks take more than the share of the time since the first, baselines included (costs 171 to 426 ms)', () => {
    const result = run(0.02, 5, 3600, costs(171, 426));
    // Before each check starts, what was spent is within the share (to a millisecond of rounding).
    expect(result.worstBeforeStart).toBeLessThanOrEqual(1);
    // After the last one: at most its own cost above the share.
    expect(result.spent - 0.02 * result.elapsed).toBeLessThanOrEqual(result.lastCost);
    // And the share is used, not wasted: above 1.9 % over an hour.
    expect(result.spent / result.elapsed).toBeGreaterThan(0.019);
  });

  it('makes the checks after a burst of baselines wait until it is paid for', () => {
    const budget = new CheckBudget(0.02);
    for (let i = 0; i < 5; i++) budget.spend(400, 0);
    // 2 s of ERP time owed, plus the next check's 400 ms, at 2 %: 120 s.
    expect(budget.waitMs(400, 0)).toBe(120_000);
    expect(budget.waitMs(400, 60_000)).toBe(60_000);
    expect(budget.waitMs(400, 120_000)).toBe(0);
  });

  it('keeps at most one check in hand after a long idle time: an idle hour buys no burst', () => {
    const budget = new CheckBudget(0.02);
    budget.spend(100, 0);
    const later = 3_600_000;
    expect(budget.waitMs(100, later)).toBe(0);
    budget.spend(100, later);
    // The next one waits its full share: 100 ms at 2 % is 5 s.
    expect(budget.waitMs(100, later)).toBe(5000);
  });
});
