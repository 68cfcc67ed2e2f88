/**
 * @module What a `write_date` check costs on this ERP, per model: the cost model of the change feed
 * (and of anything else that asks the ERP "what changed since?").
 *
 * Odoo creates no index on `write_date` (issue 31: `stock_picking` of a real Odoo 19 has 12 indexes,
 * none on it). Without one, every question about `write_date` (a change-feed page, "the latest
 * write", "anything written since S?") makes PostgreSQL read the whole table: 200 to 500 ms at a
 * million rows where a keyed read costs 10 to 30 ms (BENCHMARKS.md). A DBA's one-line
 * `CREATE INDEX ... (write_date)` or a module declaring `write_date` with `index=True` makes them
 * cost what a keyed read costs.
 *
 * How the gateway knows which case it is in: by measuring. An API account can read neither
 * `pg_indexes` nor (on most set-ups) `ir.model.fields`, and a DBA's index leaves no trace in the
 * latter anyway; what matters is the cost, and the cost is what a call shows. So, the first time a
 * model is asked about (and again after `REMEASURE_MS`), two calls are timed twice each, as the
 * account of the change-feed request that first reads the model:
 * - a keyed read: the model's highest id (`order: id desc, limit: 1`), read through the primary key
 *   at any size, which also gives the size of the id space;
 * - a `write_date` check: the records written from now on (`write_date >= now`, `order: write_date`,
 *   `limit: 1`), nothing or almost nothing to return: an index answers it at once, a table without
 *   one is read whole.
 * A model of fewer than `SMALL_IDS` ids is `small` whatever the times say (reading such a table
 * whole costs a few milliseconds: indexed or not, it does not matter; and a stall of a loaded
 * machine cannot make it look dear). Else the check costing more than the keyed read by at least
 * `max(15 ms, the keyed read)` (their fastest of two each) is `not_indexed`; a cheap check is
 * `indexed` when the id space is large enough that a scan would have shown (`LARGE_IDS`), `small`
 * otherwise.
 * CHANGES_WRITE_DATE_INDEX=yes|no says it instead (no measuring calls).
 *
 * Reported once per model and whenever the case changes (a log line), on /readyz (`changes`) and
 * in the `odg_change_feed_write_date_check_seconds` metric.
 */
import type { Logger } from 'pino';
import type { Principal } from '../admission/auth';
import type { ErpStats } from '../erp/erp-client';
import { erpSecond } from '../query/changed-since';
import type { ResourceReader } from '../resource-reader';
import type { ResourceSpec } from '../resource-spec';

type WriteDateCase = 'indexed' | 'not_indexed' | 'small';

export interface WriteDateCost {
  readonly model: string;
  readonly case: WriteDateCase;
  /** Where the case comes from: measured, or CHANGES_WRITE_DATE_INDEX. */
  readonly source: 'measured' | 'configured';
  /** The `write_date` check's time and the keyed read's (ms, fastest of two), when measured. */
  readonly checkMs?: number;
  readonly keyedMs?: number;
  /** The model's highest id the account can read, when measured. */
  readonly maxId?: number;
  readonly measuredAt?: string;
}

/** An id space this large shows a table scan (about 15 ms for 100,000 rows on PostgreSQL). */
const LARGE_IDS = 100_000;
/** Below this many ids a table is read whole in a few milliseconds. */
const SMALL_IDS = 10_000;
/** Least extra time of the check over the keyed read that means the table was read whole. */
const SCAN_MS = 15;
/** Measured again after this long (a table grows, a DBA adds an index). */
const REMEASURE_MS = 15 * 60_000;

export class WriteDateCosts {
  private readonly known = new Map<string, { cost: WriteDateCost; at: number }>();
  private readonly measuring = new Map<string, Promise<WriteDateCost>>();

  constructor(
    private readonly reader: ResourceReader,
    private readonly setting: 'auto' | 'yes' | 'no',
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
    /** Milliseconds, for timing the probes. */
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** What a `write_date` check costs on the resource's model: known, or measured now (calls of those measuring at once are shared). */
  async of(principal: Principal, resource: ResourceSpec, stats: ErpStats): Promise<WriteDateCost> {
    const model = resource.model;
    if (this.setting !== 'auto') return this.remember({ model, case: this.setting === 'yes' ? 'indexed' : 'not_indexed', source: 'configured' });
    const known = this.known.get(model);
    if (known && this.now() - known.at < REMEASURE_MS) return known.cost;
    let measuring = this.measuring.get(model);
    if (!measuring) {
      measuring = this.measure(principal, resource, stats).finally(() => this.measuring.delete(model));
      this.measuring.set(model, measuring);
    }
    return measuring;
  }

  /** Every model measured (or configured) so far, for /readyz and the metrics. */
  snapshot(): WriteDateCost[] {
    return [...this.known.values()].map((entry) => entry.cost);
  }

  /** What /readyz adds: `changes.write_date`, by model, once a model is known (nothing before). */
  readiness(): Record<string, unknown> {
    const costs = this.snapshot();
    return costs.length ? { changes: { write_date: Object.fromEntries(costs.map((cost) => [cost.model, readinessOf(cost)])) } } : {};
  }

  private async measure(principal: Principal, resource: ResourceSpec, stats: ErpStats): Promise<WriteDateCost> {
    const timed = async <T>(run: () => Promise<T>): Promise<[T, number]> => {
      const started = this.clock();
      const result = await run();
      return [result, this.clock() - started];
    };
    const keyed = () => this.reader.scan(principal, resource, { domain: [], fields: ['id'], order: 'id desc', limit: 1 }, stats);
    const check = () =>
      this.reader.scan(
        principal,
        resource,
        { domain: [['write_date', '>=', erpSecond(Math.floor(this.now() / 1000))]], fields: ['id'], order: 'write_date asc, id asc', limit: 1 },
        stats,
      );
    const [[rows, keyed1], [, check1], [, keyed2], [, check2]] = [await timed(keyed), await timed(check), await timed(keyed), await timed(check)];
    const keyedMs = Math.min(keyed1, keyed2);
    const checkMs = Math.min(check1, check2);
    const maxId = (rows[0]?.['id'] as number | undefined) ?? 0;
    const scans = checkMs - keyedMs >= Math.max(SCAN_MS, keyedMs);
    const cost: WriteDateCost = {
      model: resource.model,
      case: maxId < SMALL_IDS ? 'small' : scans ? 'not_indexed' : maxId >= LARGE_IDS ? 'indexed' : 'small',
      source: 'measured',
      checkMs: round(checkMs),
      keyedMs: round(keyedMs),
      maxId,
      measuredAt: new Date(this.now()).toISOString(),
    };
    return this.remember(cost);
  }

  private remember(cost: WriteDateCost): WriteDateCost {
    const before = this.known.get(cost.model)?.cost;
    this.known.set(cost.model, { cost, at: this.now() });
    if (before?.case !== cost.case) this.log.info({ model: cost.model, write_date: cost.case, check_ms: cost.checkMs, keyed_ms: cost.keyedMs, max_id: cost.maxId }, describe(cost));
    return cost;
  }
}

function describe(cost: WriteDateCost): string {
  const measured = cost.source === 'configured' ? 'CHANGES_WRITE_DATE_INDEX says' : `measured: ${cost.checkMs} ms against ${cost.keyedMs} ms for a keyed read`;
  switch (cost.case) {
    case 'not_indexed':
      return `change feed: write_date of ${cost.model} is not indexed (${measured}): every caught-up call reads the whole table; a first sync copies by id. An index on write_date makes it cheap (README, "The change feed at scale")`;
    case 'indexed':
      return `change feed: write_date of ${cost.model} is indexed (${measured}): a change-feed call costs what a keyed read costs`;
    default:
      return `change feed: ${cost.model} is small (${measured}): a write_date check costs little, index or not`;
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** A model's `write_date` cost as /readyz shows it. */
function readinessOf(cost: WriteDateCost) {
  return {
    case: cost.case,
    source: cost.source,
    ...(cost.checkMs === undefined ? {} : { check_ms: cost.checkMs, keyed_ms: cost.keyedMs, max_id: cost.maxId, measured_at: cost.measuredAt }),
  };
}
