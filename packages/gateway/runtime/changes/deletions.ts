/**
 * @module The change feed's deletion check: which ids the ERP no longer has.
 *
 * A record deleted in Odoo leaves nothing behind (no `write_date` to find, no tombstone). What is
 * left is its id missing from the model's id space: Odoo gives ids from one sequence per table,
 * never twice, so an id that a sync may hold (at most the highest one the feed has seen) and that
 * the ERP no longer has was deleted, or became unreadable to the account (a record rule), or never
 * committed: in each case a copy must not keep it.
 *
 * The id space is cut into ranges of `span` ids (CHANGES_RECONCILE_IDS): `[1, 1+span)`,
 * `[1+span, 1+2·span)`, ... Each feed call that finds the feed caught up, with room left in its page,
 * reads one range, ids only, through the primary key, and the next such call the next range, back to
 * the first after the highest id seen: a round of the id space takes ⌈highest id / span⌉ calls. The token remembers, for each range,
 * a digest of the ids it held at its last check (`ChangeCursor.reconcile`): a range whose ids did
 * not change since reports nothing; one that changed (or is checked for the first time) reports every
 * id of it the ERP does not have, within the page's room, the rest at the next call. So a deletion is
 * reported within one round of the call after it, once; the other missing ids of its range
 * (deleted earlier, or never used) come with it, and a client ignores those it never had, as it
 * ignores the removal of a record it never had. A token holds at most `MAX_RANGES` digests: past
 * them the ranges double in size (two digests add up to the digest of their union).
 */
import type { ReconcileState } from '../query/changed-since';

/** The most ranges a token remembers (4 bytes each): past them, ranges double in size. */
const MAX_RANGES = 256;
/** How many times a token's ranges may have doubled from CHANGES_RECONCILE_IDS. */
const MAX_DOUBLINGS = 8;
const INT32_MAX = 2147483647;

/**
 * The state a call starts from: the token's, when its ranges are of this gateway's span (or a
 * doubling of it); else (a v1 token, a date-time, CHANGES_RECONCILE_IDS changed) a first round, the
 * highest id seen kept.
 */
export function reconcileFrom(state: ReconcileState, span: number): ReconcileState {
  for (let k = 0; k <= MAX_DOUBLINGS; k++) if (state.span === span * 2 ** k) return state;
  return { span, next: 1, seen: state.seen, digests: [] };
}

/** The range the check reads next, `[from, to)`. */
export function reconcileRange(state: ReconcileState): { from: number; to: number } {
  return { from: state.next, to: Math.min(state.next + state.span, INT32_MAX + 1) };
}

/**
 * One range checked: `present` are the ids the ERP has in it (ascending). Returns the ids to report
 * (at most `budget`) and the state the next call starts from.
 */
export function checkRange(state: ReconcileState, present: readonly number[], budget: number): { missing: number[]; next: ReconcileState } {
  const { from, to } = reconcileRange(state);
  const seen = Math.max(state.seen, present[present.length - 1] ?? 0);
  const index = (from - 1) / state.span;
  const digest = digestOf(present);
  const after = (digests: readonly number[]): ReconcileState => fitted({ span: state.span, next: to > seen ? 1 : to, seen, digests });
  let start: number;
  let passDigest: number;
  if (state.resume) {
    // A range reported in part: go on with it; it is remembered as it was when its report began.
    start = state.resume.from;
    passDigest = state.resume.digest;
  } else if (index < state.digests.length && state.digests[index] === digest) {
    return { missing: [], next: after(state.digests) };
  } else {
    start = from;
    passDigest = digest;
  }
  const missing = missingIds(start, Math.min(to, seen + 1), present, budget);
  const last = missing[missing.length - 1];
  if (missing.length === budget && last !== undefined && hasMissingAfter(last + 1, Math.min(to, seen + 1), present)) {
    return { missing, next: { span: state.span, next: from, seen, digests: state.digests, resume: { from: last + 1, digest: passDigest } } };
  }
  const digests = [...state.digests];
  digests[index] = passDigest;
  return { missing, next: after(digests) };
}

/** The ids of `[from, end)` not in `present` (ascending), at most `budget`. */
function missingIds(from: number, end: number, present: readonly number[], budget: number): number[] {
  const missing: number[] = [];
  let expected = from;
  for (const id of [...present, end]) {
    if (id < expected) continue;
    for (; expected < Math.min(id, end) && missing.length < budget; expected++) missing.push(expected);
    if (missing.length === budget || id >= end) break;
    expected = id + 1;
  }
  return missing;
}

function hasMissingAfter(from: number, end: number, present: readonly number[]): boolean {
  return missingIds(from, end, present, 1).length > 0;
}

/** At most MAX_RANGES digests: ranges doubled (pairs of digests added up), the next range realigned. */
function fitted(state: ReconcileState): ReconcileState {
  let { span, next, digests } = state;
  while (digests.length > MAX_RANGES) {
    // Pairs only: a last range without its pair is forgotten (checked again as new, in the doubled range).
    const merged: number[] = [];
    for (let i = 0; i + 1 < digests.length; i += 2) merged.push(((digests[i] as number) + (digests[i + 1] as number)) >>> 0);
    span *= 2;
    digests = merged;
    next = 1 + Math.floor((next - 1) / span) * span;
  }
  return { ...state, span, next, digests };
}

/**
 * The digest of a set of ids: the sum of a mixing of each (murmur3's finaliser), modulo 2³². One id
 * more or less changes it; the digest of two ranges is the sum of theirs.
 */
export function digestOf(ids: readonly number[]): number {
  let sum = 0;
  for (const id of ids) sum = (sum + mix(id)) >>> 0;
  return sum;
}

function mix(id: number): number {
  let h = id >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
