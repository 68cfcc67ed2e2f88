/**
 * @module The change feed (`changed_since`): the records written at or after a point, a page at a
 * time, with the cursor to go on from; the records that left the resource, and the deleted ones,
 * as removals.
 *
 * Why it is built this way, from what Odoo does (docs/compatibility.md, "Change feed"):
 * - `write_date` is answered in whole seconds, though Odoo 17–19 store their transaction's timestamp
 *   with its microseconds (checked in the databases of live 17.0, 18.0 and 19.0: every row). So the
 *   feed never compares to a fraction: it reads a second with `>= S` and `< S+1`, and orders within a
 *   second by id itself. A cursor is a second and the last id served in it.
 * - Odoo stamps `write_date` with the time the writing transaction began. A record may therefore
 *   appear, stamped with a second already served, until every transaction begun in that second has
 *   committed. The feed serves only seconds older than CHANGES_SETTLE_MS (the horizon), so a second
 *   is complete when it is served; a transaction longer than that can still be missed (README).
 * - Odoo creates no index on `write_date`: without one (write-date-cost.ts measures it), a page read
 *   by `write_date` makes the ERP read the whole table. So a sync that starts from a date-time begins
 *   with a copy: the records written from that date-time up to the horizon of its first call, read by
 *   id through the primary key (a page costs the same at any depth, as an export's), then goes on by
 *   `write_date` from that horizon, for what changed since. With an index (or a small table) it reads
 *   by `write_date` from the start, in `(write_date, id)` order.
 * - Records that left the resource (its scope, such as archived ones) or the filters are changes a
 *   sync must see too. The scan therefore reads ids of every record written in the window (the
 *   account's own access rules still apply), then reads the page's records with the scope and the
 *   filters: an id the second read does not return is reported as removed.
 * - Deleted records leave nothing to read: each call that finds the feed caught up, with room left in
 *   its page, checks one range of ids for the ones the ERP no longer has (deletions.ts), going round
 *   the id space from call to call.
 */
import type { Principal } from '../admission/auth';
import type { ErpStats } from '../erp/erp-client';
import { changedRecordsRequest, changeScanRequest, copyScanRequest, HIGHEST_ID_REQUEST, idRangeRequest } from '../erp-requests';
import { type ChangeCursor, changeToken, type ReconcileState, secondOf } from '../query/changed-since';
import type { ListQuery } from '../query/parse-query';
import type { ApiRecord, ErpRow } from '../records';
import type { ResourceReader } from '../resource-reader';
import type { ResourceSpec } from '../resource-spec';
import { ErpUnavailable } from '../erp/erp-error';
import { checkRange, reconcileFrom, reconcileRange } from './deletions';
import type { WriteDateCosts } from './write-date-cost';
import { invalidValue } from '../errors';

/**
 * How far ahead of the gateway's clock a `changed_since` may be (seconds): a client's clock (or
 * another gateway instance's) may run a little ahead. Past it the position cannot have been given
 * by a gateway nor be meant: it is refused (422) rather than kept, as a sync holding it would
 * never see another change.
 */
const FUTURE_TOLERANCE_S = 60;

/** One change, in feed order: the record as it is now, or only its id when it left the resource or is gone. */
export type ChangeEntry = { readonly id: number; readonly record: ApiRecord } | { readonly id: number; readonly record?: undefined };

export interface ChangePage {
  readonly entries: readonly ChangeEntry[];
  /** API fields answered `null` in the entries for want of a read right on another model. */
  readonly unreadable: readonly string[];
  /** Where the next page (or the next sync) starts. */
  readonly next: ChangeCursor;
  /** True while more changes before the horizon remain to be read. */
  readonly more: boolean;
}

export class ChangeFeed {
  constructor(
    private readonly reader: ResourceReader,
    private readonly costs: WriteDateCosts,
    private readonly settleMs: number,
    /** Ids the deletion check reads per call (CHANGES_RECONCILE_IDS). */
    private readonly reconcileIds: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * 422 for a position in the future (beyond FUTURE_TOLERANCE_S): never served, never echoed back. A
   * copy's end (`until`) counts too: the feed would go on from there.
   */
  assertNotAhead(cursor: ChangeCursor): void {
    if (Math.max(cursor.second, cursor.until ?? 0) <= Math.floor(this.now() / 1000) + FUTURE_TOLERANCE_S) return;
    throw invalidValue(
      `changed_since is in the future (more than ${FUTURE_TOLERANCE_S} s ahead of the gateway's clock): pass back meta.next_changed_since unchanged, or start from a date-time not later than now.`,
    );
  }

  /** The first second not served yet: seconds before it are complete (see the module comment). */
  horizon(): number {
    return Math.floor((this.now() - this.settleMs) / 1000);
  }

  /**
   * Up to `limit` changes after `from`, before `horizon` (a second); then, once caught up and when
   * the page has room, the ids of one range that the ERP no longer has (`deletions: false`: not
   * those, an export reads them itself).
   */
  async page(
    principal: Principal,
    resource: ResourceSpec,
    query: ListQuery,
    from: ChangeCursor,
    limit: number,
    horizon: number,
    stats: ErpStats,
    deletions = true,
  ): Promise<ChangePage> {
    // What a write_date read costs on this model: measured at its first use (and every 15 minutes), so
    // that it is known, logged and reported from then on, and decides the copy below.
    const cost = await this.costs.of(principal, resource, stats);
    const read = from.until === undefined ? await this.scan(principal, resource, from, limit, horizon, stats) : await this.copy(principal, resource, from, limit, horizon, stats);
    const { ids, more } = read;
    let next: Omit<ChangeCursor, 'reconcile'> = read.next;
    // A full page by write_date: more changes are pending than a page holds. Without an index on
    // write_date each such page reads the whole table: the rest, up to this horizon, is copied by id.
    if (from.until === undefined && more && next.afterId === 0 && cost.case === 'not_indexed') next = { ...next, until: horizon };
    let entries: ChangeEntry[] = [];
    let unreadable: readonly string[] = [];
    if (ids.length) {
      const read = await this.reader.records(principal, resource, query.fields, changedRecordsRequest(resource, query, ids), stats);
      unreadable = read.unreadable;
      const byId = new Map(read.records.map((record) => [record['id'] as number, record]));
      entries = ids.map((id): ChangeEntry => {
        const record = byId.get(id);
        return record ? { id, record } : { id };
      });
    }
    const start = reconcileFrom(from.reconcile, this.reconcileIds);
    let position: ReconcileState = { ...start, seen: Math.max(start.seen, ...ids) };
    // Once caught up (the deletion check is for a copy that is otherwise complete), with room in the page.
    if (deletions && !more && entries.length < limit) {
      const check = await this.deletions(principal, resource, position, limit - entries.length, stats);
      position = check.next;
      // A record read above and deleted before the check is gone: the later read wins.
      const gone = new Set(check.missing);
      entries = entries.filter((entry) => !gone.has(entry.id));
      entries.push(...check.missing.map((id) => ({ id })));
    }
    return { entries, unreadable, next: { ...next, reconcile: position }, more };
  }

  /** One range of the deletion check: the ids of it the ERP no longer has (at most `budget`), and where the check goes on. */
  async deletions(principal: Principal, resource: ResourceSpec, state: ReconcileState, budget: number, stats: ErpStats) {
    const position = reconcileFrom(state, this.reconcileIds);
    const { from, to } = reconcileRange(position);
    const rows = await this.reader.scan(principal, resource, idRangeRequest(from, to), stats);
    // The ERP is trusted no further than the request: ids of the range, ascending, once each.
    const present = [...new Set(rows.map((row) => row['id']).filter((id): id is number => Number.isInteger(id) && (id as number) >= from && (id as number) < to))].sort(
      (a, b) => a - b,
    );
    return checkRange(position, present, budget);
  }

  /** The resource's model's highest id the account reads (an export checks deletions up to it). */
  async highestId(principal: Principal, resource: ResourceSpec, stats: ErpStats): Promise<number> {
    const [row] = await this.reader.scan(principal, resource, HIGHEST_ID_REQUEST, stats);
    return Number.isInteger(row?.['id']) ? (row?.['id'] as number) : 0;
  }

  /** A page of a first sync's copy: the records written in `[second, until)` after `afterId`, by id; then the feed goes on from `until`. */
  private async copy(principal: Principal, resource: ResourceSpec, from: ChangeCursor, limit: number, horizon: number, stats: ErpStats) {
    const until = from.until as number;
    const rows = await this.reader.scan(principal, resource, copyScanRequest(from.second, until, from.afterId, limit + 1), stats);
    const ids = rows.slice(0, limit).map((row) => row['id'] as number);
    if (rows.length > limit) return { ids, next: { second: from.second, afterId: ids[ids.length - 1] as number, until }, more: true };
    return { ids, next: { second: until, afterId: 0 }, more: until < horizon };
  }

  /**
   * The ids of at most `limit` next changes, in `(second, id)` order: the window from the cursor to
   * the horizon read by `write_date`, one read a page, keeping the seconds a full read holds whole
   * (its last one may go on past it: the next page starts there); a second holding more than a page
   * is read by id.
   */
  private async scan(principal: Principal, resource: ResourceSpec, from: ChangeCursor, limit: number, horizon: number, stats: ErpStats) {
    const ids: number[] = [];
    let { second, afterId } = from;
    let byId = afterId > 0;
    while (ids.length < limit) {
      if (second >= horizon) return { ids, next: { second, afterId }, more: false };
      const need = limit - ids.length;
      if (byId) {
        // The rest of one second, by id.
        const within = await this.reader.scan(principal, resource, changeScanRequest(second, second + 1, afterId, need + 1, 'id asc'), stats);
        for (const row of within.slice(0, need)) ids.push(row['id'] as number);
        if (within.length > need) return { ids, next: { second, afterId: ids[ids.length - 1] as number }, more: true };
        second += 1;
        afterId = 0;
        byId = false;
        continue;
      }
      const rows = await this.reader.scan(principal, resource, changeScanRequest(second, horizon, 0, need + 1, 'write_date asc, id asc'), stats);
      if (rows.length <= need) {
        ids.push(...idsBySecond(rows));
        return { ids, next: { second: horizon, afterId: 0 }, more: false };
      }
      // Full: the last second read may hold more records than were read. Keep the seconds before it,
      // and end the page there (one read a page: without an index each read scans the table).
      const cut = secondOfRow(rows[need] as ErpRow);
      if (cut > second) {
        ids.push(...idsBySecond(rows.filter((row) => secondOfRow(row) < cut)));
        return { ids, next: { second: cut, afterId: 0 }, more: true };
      }
      // Every record read is of one second, which holds more than a page: that second is read by id.
      byId = true;
    }
    return { ids, next: { second, afterId }, more: true };
  }
}

function secondOfRow(row: ErpRow): number {
  const second = secondOf(row['write_date']);
  // Every record of an Odoo model with log access has one; anything else is not an answer to trust.
  if (second === undefined) throw new ErpUnavailable('the ERP answered a record without a write_date');
  return second;
}

/** Rows in `write_date` order to ids in `(second, id)` order: a second's ids sorted (with fractions, the ERP orders by them). */
function idsBySecond(rows: readonly ErpRow[]): number[] {
  return rows
    .map((row) => [secondOfRow(row), row['id'] as number] as const)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map(([, id]) => id);
}

/**
 * A JSON page of the change feed: the records in `data`, the removals (left the resource, or deleted)
 * in `meta.removed_ids`, and the fields answered `null` for want of a read right in
 * `meta.unreadable_fields` (when there are any), so that a sync never stores such a null as the
 * record's value without knowing.
 */
export async function changePage(feed: ChangeFeed, principal: Principal, resource: ResourceSpec, query: ListQuery, stats: ErpStats) {
  const page = await feed.page(principal, resource, query, query.changes as ChangeCursor, query.limit, feed.horizon(), stats);
  const data: ApiRecord[] = [];
  const removed: number[] = [];
  for (const entry of page.entries) {
    if (entry.record) data.push(entry.record);
    else removed.push(entry.id);
  }
  const meta = {
    next_changed_since: changeToken(page.next),
    more_changes: page.more,
    removed_ids: removed,
    ...(page.unreadable.length ? { unreadable_fields: [...page.unreadable] } : {}),
  };
  return { body: { data, meta }, unreadable: page.unreadable };
}
