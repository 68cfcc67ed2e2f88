/**
 * The deletion check's arithmetic (runtime/changes/deletions.ts), driven as the feed drives it: an
 * ERP (here, a set of ids standing for a model's table) read one range per call. The oracle is a
 * plain set difference, computed here: over a round, every id the ERP lost since the ranges were
 * last checked is reported, within each call's room, and nothing is reported again once its range is
 * remembered.
 */
import { checkRange, digestOf, reconcileFrom, reconcileRange } from '@ops-data-gateway/gateway/runtime/changes/deletions';
import type { ReconcileState } from '@ops-data-gateway/gateway/runtime/query/changed-since';

const FIRST: ReconcileState = { span: 0, next: 1, seen: 0, digests: [] };

/** `calls` calls of the check against `erp`, each with room for `budget` ids; what they reported, and the state after. */
function follow(erp: ReadonlySet<number>, from: ReconcileState, calls: number, budget: number, span: number) {
  let state = reconcileFrom(from, span);
  const reported: number[] = [];
  for (let n = 0; n < calls; n++) {
    const { from: lo, to } = reconcileRange(state);
    const present = [...erp].filter((id) => id >= lo && id < to).sort((a, b) => a - b);
    const step = checkRange(state, present, budget);
    expect(step.missing.length).toBeLessThanOrEqual(budget);
    reported.push(...step.missing);
    state = step.next;
  }
  return { reported, state };
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('deletion check', () => {
  it('reports, in its first round, every id up to the highest seen that the ERP does not have (gaps at the top included)', () => {
    const erp = new Set([1, 2, 4, 5, 9]);
    const { reported, state } = follow(erp, { ...FIRST, seen: 12 }, 1, 100, 100);
    expect(reported).toEqual([3, 6, 7, 8, 10, 11, 12]);
    expect(state).toEqual({ span: 100, next: 1, seen: 12, digests: [digestOf([1, 2, 4, 5, 9])] });
  });

  it('learns the highest id from the ranges when it knows none (a v1 token)', () => {
    expect(follow(new Set([2, 3, 7]), FIRST, 1, 100, 100).reported).toEqual([1, 4, 5, 6]);
  });

  it('reports nothing for a range whose ids did not change, and exactly the ids lost since, within one round of calls', () => {
    const erp = new Set(range(1, 251));
    const first = follow(erp, { ...FIRST, seen: 250 }, 3, 50, 100);
    expect(first.reported).toEqual([]);
    expect(first.state.next).toBe(1);
    // Nothing changed: a round reports nothing.
    expect(follow(erp, first.state, 3, 50, 100).reported).toEqual([]);
    for (const id of [5, 120, 121, 250]) erp.delete(id);
    const round = follow(erp, first.state, 3, 50, 100);
    expect(round.reported).toEqual([5, 120, 121, 250]);
    // Reported once: the next round reports nothing.
    expect(follow(erp, round.state, 3, 50, 100).reported).toEqual([]);
  });

  it('reports the other missing ids of a range that changed with it (it cannot tell which are new)', () => {
    const erp = new Set(range(1, 101).filter((id) => id !== 30));
    const first = follow(erp, { ...FIRST, seen: 100 }, 1, 50, 100);
    expect(first.reported).toEqual([30]);
    erp.delete(60);
    expect(follow(erp, first.state, 1, 50, 100).reported).toEqual([30, 60]);
  });

  it('goes on where the page had no more room, and remembers the range as it was when its report began', () => {
    const erp = new Set(range(1, 101).filter((id) => id % 10 !== 0));
    const { reported, state } = follow(erp, { ...FIRST, seen: 100 }, 4, 3, 100);
    expect(reported).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    // A deletion during the report, before the place it had reached: not lost, reported at the next round.
    const cut = follow(erp, { ...FIRST, seen: 100 }, 1, 3, 100);
    expect(cut.state.resume).toEqual({ from: 31, digest: digestOf([...erp]) });
    erp.delete(11);
    const rest = follow(erp, cut.state, 3, 3, 100);
    expect(rest.reported).toEqual([40, 50, 60, 70, 80, 90, 100]);
    expect(follow(erp, rest.state, 1, 100, 100).reported).toContain(11);
    expect(state.resume).toBeUndefined();
  });

  it('starts a first round when the token was made with another span (CHANGES_RECONCILE_IDS changed), keeping the highest id seen', () => {
    expect(reconcileFrom({ span: 300, next: 301, seen: 999, digests: [1] }, 100)).toEqual({ span: 100, next: 1, seen: 999, digests: [] });
    const doubled = { span: 400, next: 401, seen: 999, digests: [1] };
    expect(reconcileFrom(doubled, 100)).toBe(doubled);
  });

  it('keeps at most 256 ranges: past them, ranges double and their digests add up', () => {
    const erp = new Set(range(1, 2571));
    const { state } = follow(erp, { ...FIRST, seen: 2570 }, 257, 10, 10);
    expect(state.span).toBe(20);
    expect(state.digests).toHaveLength(128);
    expect(state.digests[5]).toBe(digestOf(range(101, 121)));
    // Still exact after: a deletion is reported within a round of the doubled ranges.
    erp.delete(2000);
    expect(follow(erp, state, 129, 10, 10).reported).toEqual([2000]);
  });

  it('never goes past the largest id there can be', () => {
    expect(reconcileRange({ span: 10_000, next: 2147480001, seen: 2147483647, digests: [] })).toEqual({ from: 2147480001, to: 2147483648 });
  });
});
