/**
 * @module The `changed_since` parameter and the token the change feed gives back. The client starts
 * from an ISO 8601 date-time; the gateway answers `meta.next_changed_since`, a token holding where
 * the feed stopped (runtime/changes/change-feed.ts says how it is used):
 * - a second of `write_date` and the last id served within that second (the ERP answers
 *   `write_date` in whole seconds, so a second and an id tell apart records written in the same one);
 * - during a first sync's copy, the second the copy ends at (`until`): the records written from
 *   `second` to `until` are read by id, `afterId` being the last one read;
 * - the deletion check's state (runtime/changes/deletions.ts): the size of its ranges of ids, the
 *   first id of the range it checks next, the highest id the feed has seen, a digest of the ids of
 *   each range at its last check, and where a range reported in part goes on.
 *
 * The token is opaque to clients; `v2.` says its form (binary, base64url). A `v1.` token (second and
 * id only, given before deletions were checked) is still read: the feed goes on from where it was,
 * and the deletion check starts a first round.
 */
import { invalidValue } from '../errors';
import { parseDateValue } from './dates';

/** The deletion check's state (runtime/changes/deletions.ts). */
export interface ReconcileState {
  /** Ids per range; 0 before the first check. */
  readonly span: number;
  /** The first id of the range checked next (`1 + k·span`). */
  readonly next: number;
  /** The highest id the feed has seen. */
  readonly seen: number;
  /** A digest of the ids each range held at its last check, range by range from the first. */
  readonly digests: readonly number[];
  /** The range of `next` was reported in part: it goes on from `from`; `digest` is the range's when its report began. */
  readonly resume?: { readonly from: number; readonly digest: number };
}

/** Where a change feed stands: every record of earlier seconds, and of `second` up to `afterId`, was served. */
export interface ChangeCursor {
  /** A second of `write_date`, in seconds since the epoch (UTC); during a copy, the second it copies from. */
  readonly second: number;
  /** The last id served within `second` (during a copy: the last id copied); 0 when none was. */
  readonly afterId: number;
  /** During a first sync's copy: the second it copies up to (the records written in `[second, until)`). */
  readonly until?: number;
  readonly reconcile: ReconcileState;
}

const TOKEN = /^v([12])\.([A-Za-z0-9_-]{1,4096})$/;
const V1_BODY = /^([0-9]{1,12}):([0-9]{1,10})$/;
const INT32_MAX = 2147483647;
/** The most digests a token may hold (deletions.ts keeps at most 256). */
const MAX_DIGESTS = 256;
const FIRST: ReconcileState = { span: 0, next: 1, seen: 0, digests: [] };
const HAS_UNTIL = 1;
const HAS_RESUME = 2;

export function changeToken(cursor: ChangeCursor): string {
  const { second, afterId, until, reconcile } = cursor;
  const { resume } = reconcile;
  const bytes = Buffer.alloc(1 + 6 + 4 + (until === undefined ? 0 : 6) + 12 + (resume ? 8 : 0) + 4 * reconcile.digests.length);
  let at = bytes.writeUInt8((until === undefined ? 0 : HAS_UNTIL) | (resume ? HAS_RESUME : 0), 0);
  at = bytes.writeUIntBE(second, at, 6);
  at = bytes.writeUInt32BE(afterId, at);
  if (until !== undefined) at = bytes.writeUIntBE(until, at, 6);
  at = bytes.writeUInt32BE(reconcile.span, at);
  at = bytes.writeUInt32BE(reconcile.next, at);
  at = bytes.writeUInt32BE(reconcile.seen, at);
  if (resume) {
    at = bytes.writeUInt32BE(resume.from, at);
    at = bytes.writeUInt32BE(resume.digest, at);
  }
  for (const digest of reconcile.digests) at = bytes.writeUInt32BE(digest, at);
  return `v2.${bytes.toString('base64url')}`;
}

/** A date-time (records written at or after its second) or a token the gateway gave; else 422. */
export function parseChangedSince(text: string): ChangeCursor {
  const token = TOKEN.exec(text);
  if (token) {
    const cursor = token[1] === '1' ? fromV1(token[2] as string) : fromV2(token[2] as string);
    if (cursor) return cursor;
    throw invalidValue('changed_since: this token was not given by the gateway (pass back meta.next_changed_since unchanged).');
  }
  const date = parseDateValue(text);
  // The ERP keeps whole seconds: a fraction cannot be compared, so its whole second is included.
  if (date) return { second: Math.floor(date.utc.getTime() / 1000), afterId: 0, reconcile: FIRST };
  throw invalidValue(`changed_since must be an ISO 8601 date-time (2026-01-31T08:00:00Z) or the token meta.next_changed_since gave; '${text.slice(0, 64)}' is neither.`);
}

function fromV1(body: string): ChangeCursor | undefined {
  const m = V1_BODY.exec(Buffer.from(body, 'base64url').toString('utf8'));
  if (!m || Number(m[2]) > INT32_MAX) return undefined;
  return { second: Number(m[1]), afterId: Number(m[2]), reconcile: FIRST };
}

function fromV2(body: string): ChangeCursor | undefined {
  const bytes = Buffer.from(body, 'base64url');
  if (bytes.toString('base64url') !== body) return undefined;
  const flags = bytes[0];
  if (flags === undefined || flags > (HAS_UNTIL | HAS_RESUME)) return undefined;
  const fixed = 1 + 6 + 4 + (flags & HAS_UNTIL ? 6 : 0) + 12 + (flags & HAS_RESUME ? 8 : 0);
  const digestCount = (bytes.length - fixed) / 4;
  if (!Number.isInteger(digestCount) || digestCount < 0 || digestCount > MAX_DIGESTS) return undefined;
  let at = 1;
  const read = (size: 4 | 6) => {
    const value = size === 4 ? bytes.readUInt32BE(at) : bytes.readUIntBE(at, 6);
    at += size;
    return value;
  };
  const second = read(6);
  const afterId = read(4);
  const until = flags & HAS_UNTIL ? read(6) : undefined;
  const [span, next, seen] = [read(4), read(4), read(4)];
  const resume = flags & HAS_RESUME ? { from: read(4), digest: read(4) } : undefined;
  const digests = Array.from({ length: digestCount }, () => read(4));
  const aligned = span > 0 ? (next - 1) % span === 0 && next <= INT32_MAX : next === 1 && digestCount === 0 && !resume;
  if (second > 999_999_999_999 || afterId > INT32_MAX || seen > INT32_MAX || !aligned) return undefined;
  if (until !== undefined && until <= second) return undefined;
  if (resume && (resume.from <= next || resume.from >= next + span)) return undefined;
  return { second, afterId, ...(until === undefined ? {} : { until }), reconcile: { span, next, seen, digests, ...(resume ? { resume } : {}) } };
}

/** A second as the ERP compares datetimes: `YYYY-MM-DD HH:MM:SS`, UTC. */
export function erpSecond(second: number): string {
  return new Date(second * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** The second of an ERP datetime text (`YYYY-MM-DD HH:MM:SS`, UTC; a fraction, if any, dropped); undefined if it is not one. */
export function secondOf(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/.test(value)) return undefined;
  const ms = Date.parse(`${value.slice(0, 10)}T${value.slice(11, 19)}Z`);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}
