/**
 * @module The change feed (`changed_since`): the records written at or after a point, in
 * `(write_date, id)` order, a page at a time, with the cursor to go on from.
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
 * - Records that left the resource (its scope, such as archived ones) or the filters are changes a
 *   sync must see too. The scan therefore reads ids of every record written in the window (the
 *   account's own access rules still apply), then reads the page's records with the scope and the
 *   filters: an id the second read does not return is reported as removed.
 * - Deleted records leave nothing to read: they cannot be seen (README says what to do).
 */
import type { Principal } from '../admission/auth';
import type { ErpStats } from '../erp/erp-client';
import { changedRecordsRequest, changeScanRequest } from '../erp-requests';
import { type ChangeCursor, changeToken, erpSecond, secondOf } from '../query/changed-since';
import type { ListQuery } from '../query/parse-query';
import type { ApiRecord, ErpRow } from '../records';
import type { ResourceReader } from '../resource-reader';
import type { ResourceSpec } from '../resource-spec';
import { ErpUnavailable } from '../erp/erp-error';
import { invalidValue } from '../errors';

/**
 * How far ahead of the gateway's clock a `changed_since` may be (seconds): a client's clock (or
 * another gateway instance's) may run a little ahead. Past it the position cannot have been given
 * by a gateway nor be meant: it is refused (422) rather than kept, as a sync holding it would
 * never see another change.
 */
const FUTURE_TOLERANCE_S = 60;

/** One change, in feed order: the record as it is now, or only its id when it left the resource. */
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
    private readonly settleMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** 422 for a position in the future (beyond FUTURE_TOLERANCE_S): never served, never echoed back. */
  assertNotAhead(cursor: ChangeCursor): void {
    if (cursor.second <= Math.floor(this.now() / 1000) + FUTURE_TOLERANCE_S) return;
    throw invalidValue(
      `changed_since is in the future (more than ${FUTURE_TOLERANCE_S} s ahead of the gateway's clock): pass back meta.next_changed_since unchanged, or start from a date-time not later than now.`,
    );
  }

  /** The first second not served yet: seconds before it are complete (see the module comment). */
  horizon(): number {
    return Math.floor((this.now() - this.settleMs) / 1000);
  }

  /** Up to `limit` changes after `from`, before `horizon` (a second). */
  async page(principal: Principal, resource: ResourceSpec, query: ListQuery, from: ChangeCursor, limit: number, horizon: number, stats: ErpStats): Promise<ChangePage> {
    const { ids, next, more } = await this.scan(principal, resource, from, limit, horizon, stats);
    if (ids.length === 0) return { entries: [], unreadable: [], next, more };
    const { records, unreadable } = await this.reader.records(principal, resource, query.fields, changedRecordsRequest(resource, query, ids), stats);
    const byId = new Map(records.map((record) => [record['id'] as number, record]));
    const entries = ids.map((id): ChangeEntry => {
      const record = byId.get(id);
      return record ? { id, record } : { id };
    });
    return { entries, unreadable, next, more };
  }

  /**
   * The ids of the next `limit` changes, in `(second, id)` order. Within the cursor's second, by id
   * after the cursor's; then the following seconds in `write_date` order, of which a read that came
   * back full keeps only the seconds it holds whole (its last one may go on past it).
   */
  private async scan(principal: Principal, resource: ResourceSpec, from: ChangeCursor, limit: number, horizon: number, stats: ErpStats) {
    const ids: number[] = [];
    let { second, afterId } = from;
    while (ids.length < limit) {
      if (second >= horizon) return { ids, next: { second, afterId }, more: false };
      const need = limit - ids.length;
      const within = await this.reader.scan(principal, resource, changeScanRequest(erpSecond(second), erpSecond(second + 1), afterId, need + 1, 'id asc'), stats);
      for (const row of within.slice(0, need)) ids.push(row['id'] as number);
      if (within.length > need) return { ids, next: { second, afterId: ids[ids.length - 1] as number }, more: true };
      if (second + 1 >= horizon) return { ids, next: { second: second + 1, afterId: 0 }, more: false };
      if (ids.length === limit) return { ids, next: { second: second + 1, afterId: 0 }, more: true };
      const rest = limit - ids.length;
      const later = await this.reader.scan(principal, resource, changeScanRequest(erpSecond(second + 1), erpSecond(horizon), 0, rest + 1, 'write_date asc, id asc'), stats);
      if (later.length <= rest) {
        ids.push(...idsBySecond(later));
        return { ids, next: { second: horizon, afterId: 0 }, more: false };
      }
      // Full: the last second read may hold more records than were read. Keep the seconds before it.
      const cut = secondOfRow(later[rest] as ErpRow);
      ids.push(...idsBySecond(later.filter((row) => secondOfRow(row) < cut)));
      second = cut;
      afterId = 0;
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
 * A JSON page of the change feed: the records in `data`, the removals in `meta.removed_ids`, and the
 * fields answered `null` for want of a read right in `meta.unreadable_fields` (when there are any),
 * so that a sync never stores such a null as the record's value without knowing.
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
