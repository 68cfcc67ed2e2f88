/**
 * @module Change detection for cached answers (README, "Caching and conditional requests"): while a
 * model has cached answers that are being read, the gateway asks the ERP now and then whether
 * anything in it changed since its last look, and when something did, every cached answer that
 * depends on the model is dropped: the answers of its resources, and those of other resources whose
 * answers show its records' names or values, follow their order or were chosen through them
 * (many2one names, related fields, x2many, analytic distributions, expanded records: models-shown.ts).
 *
 * How an answer is dropped: each (account, model) watched has a generation, part of the cache key of
 * every answer that depends on it (cache-key.ts). A change makes a new generation: the answers stored
 * under the old one are never found again (the in-memory store also frees them at once,
 * `CacheStore.drop`; Redis lets them expire). An answer being read while the change is seen is stored
 * under the generation its request began with: it is never served after the change.
 *
 * A check is one call on the model (`web_search_read`, resource-reader.ts `latestWrites`), made with
 * the key of the account whose answers it vouches for (record rules differ by account), on every
 * record archived or not (`active_test: false`), which answers two things:
 * - how many records there are: a deletion lowers the count (a record created and deleted between two
 *   checks changes nothing anyone was served; a creation with a deletion is seen by the next call);
 * - the ids and `write_date`s of the records written last, newest first, of which those since the last
 *   check, less the settle window, are its writes, archivings and creations (a record is created with
 *   its `write_date`). One call where there were two (a count, then the written records): on a real
 *   Odoo a call's own cost (the key checked, the request) is most of a cheap check's, so this halves
 *   it, and the interval with it. Odoo stamps `write_date` with the time its transaction began,
 *   in whole seconds as answered, so a record committed late, or written twice within one second, may
 *   show a pair already seen: a pair first seen before its second has settled (its second plus the
 *   settle window, CACHE_WATCH_SETTLE_MS) counts as a change once more when it has. A change is
 *   therefore seen within one interval, and one made by a transaction longer than that, or repeated
 *   within the second, within the settle window plus one interval.
 *
 * How often: each check's cost (the ERP time of its call) is measured, and the next check of
 * that (account, model) comes `max(CACHE_WATCH_MIN_INTERVAL_MS, cost × watched / share)` later, where
 * `watched` is the number of (account, model) pairs watched and `share` CACHE_WATCH_SHARE: all checks
 * together keep the ERP busy at most that share of one worker's time. Checks run one at a time
 * (baselines included: a check's cost is its own, never the wait behind another). The intervals
 * follow the last costs; the share itself is held by a budget (check-budget.ts) that counts every
 * check, baselines included, and delays the next one until it is paid for. Where
 * that interval exceeds an answer's TTL the TTL governs: no answer is ever served older than its TTL.
 *
 * When: a pair is watched from the first lookup of an answer that depends on it until no such lookup
 * has happened for as long as such an answer lives (TTL plus stale window). Its first check is the
 * baseline, made before that first lookup (the request waits for it; the requests meanwhile share
 * it), so that no answer is ever stored before the gateway knew what the model held. A check
 * that fails (the ERP down, or the account without a read right on a comodel whose names it is given
 * as nulls) changes nothing: the answers are then bound by their TTL alone, as without checks, and
 * the failure is counted and logged; a baseline that failed is tried again, and once it answers the
 * answers stored without one are dropped.
 *
 * With REDIS_URL (shared-watch.ts): one process holds each pair's lease and checks it; every process
 * keys its answers with the generations kept in Redis, so all of them drop on a change it sees.
 */
import { randomBytes } from 'node:crypto';
import type { Principal } from '../admission/auth';
import type { WatchSettings } from '../config';
import { ErpStats } from '../erp/erp-client';
import { outsideRequests } from '../request/request-context';
import { secondOf } from '../query/changed-since';
import type { ResourceReader } from '../resource-reader';
import { CheckBudget } from './check-budget';
import type { SharedWatch } from './shared-watch';

/** What the watcher reports, for the metrics. */
export interface WatchObserver {
  checked(model: string, outcome: 'unchanged' | 'changed' | 'baseline' | 'error', seconds: number): void;
  dropped(entries: number): void;
}

/** What a cached answer's lookup learns: the generations to key it with, and when its models were last checked. */
export interface WatchedVersion {
  /** The generations of every model the answer depends on, in the cache key. */
  readonly generation: string;
  /** Epoch ms when the check of these models that began earliest began (the answers stored before it are vouched for up to then). */
  readonly checkedAt: number;
}

/** The most records written since the last look that one check reads: more is a change without looking further. */
const WRITTEN_LIMIT = 200;
/** A watched pair with a failing check is tried again no sooner than this. */
const ERROR_RETRY_MS = 5_000;

interface Watched {
  readonly model: string;
  readonly key: string;
  principal: Principal;
  /** Unique for this watch (a store shared across restarts never sees a generation twice). */
  readonly epoch: string;
  changes: number;
  /** The baseline check in flight, or done (`ready`). */
  baseline?: Promise<void>;
  ready: boolean;
  /** The baseline failed: answers are stored, bound by their TTL alone, until a check answers. */
  blind: boolean;
  /** With REDIS_URL: this process holds the pair's lease and makes its checks (shared-watch.ts). */
  leader: boolean;
  /** Epoch ms of the start of the last check that answered. */
  checkedAt: number;
  count: number;
  /** Records written in the window of the last check: id → [second, settled]. */
  seen: Map<number, { readonly second: number; readonly settled: boolean }>;
  /** Milliseconds of ERP time the last check took. */
  costMs: number;
  nextDueAt: number;
  lastReadAt: number;
  keepMs: number;
}

export class ChangeWatch {
  private readonly watched = new Map<string, Watched>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;
  /** Checks run one at a time (baselines included), so that each one's cost is its own, not a queue's. */
  private queue: Promise<void> = Promise.resolve();
  /** This process, as a holder of shared leases. */
  private readonly holder = randomBytes(9).toString('base64url');
  /** The ERP time the checks may take: CACHE_WATCH_SHARE_PCT of the time since the first. */
  private readonly budget: CheckBudget;
  /** Epoch ms before which the budget allows no check (the last tick found it short). */
  private notBefore = 0;

  constructor(
    private readonly reader: ResourceReader,
    private readonly settings: WatchSettings,
    private readonly onDrop: (tag: string) => number,
    private readonly observer?: WatchObserver,
    private readonly log?: { warn(fields: object, message: string): void },
    /** With REDIS_URL: one process checks each pair, every process keys by the shared generations. */
    private readonly shared?: SharedWatch,
    private readonly now: () => number = Date.now,
  ) {
    this.budget = new CheckBudget(settings.share);
  }

  get enabled(): boolean {
    return this.settings.enabled;
  }

  /**
   * The generations an answer for `principal` that depends on `models` (models-shown.ts) is keyed with, the lookup counted as a
   * read of each model it depends on (kept watched `keepMs` after it). A model not watched yet is
   * looked at first (its baseline: the first request waits for it, the requests meanwhile share it).
   */
  async versionOf(principal: Principal, models: readonly string[], keepMs: number): Promise<WatchedVersion> {
    const now = this.now();
    const watched = models.map((model) => this.watch(principal, model, keepMs, now));
    const pending = watched.filter((w) => !w.ready).map((w) => w.baseline);
    if (pending.length) await Promise.all(pending);
    const states = this.shared && (await this.shared.state(watched.map((w) => w.key)));
    if (states) {
      // Shared: the generations and the checks of whichever process holds each pair's lease.
      const generation = watched.map((w, i) => `${w.model}:${states[i]?.generation ?? 0}`).join(',');
      return { generation, checkedAt: Math.min(...states.map((state) => state.checkedAt)) };
    }
    let checkedAt = Number.POSITIVE_INFINITY;
    for (const w of watched) checkedAt = Math.min(checkedAt, w.blind ? 0 : w.checkedAt);
    return { generation: watched.map((w) => `${w.model}:${w.epoch}.${w.changes}`).join(','), checkedAt };
  }

  /** The tag of every answer of `uid` that depends on `model` (the in-memory store drops them by it). */
  static tagOf(uid: number, model: string): string {
    return `${uid}:${model}`;
  }

  /** The tags of an answer of `uid` that depends on `models`. */
  static tagsOf(uid: number, models: readonly string[]): string[] {
    return models.map((model) => ChangeWatch.tagOf(uid, model));
  }

  /** What /readyz shows: each model watched, its last check's cost and the interval that follows from it. */
  snapshot(): { model: string; uid: number; ready: boolean; blind: boolean; checkMs: number; intervalMs: number; checkedAt: number }[] {
    return [...this.watched.values()].map((w) => ({
      model: w.model,
      uid: w.principal.uid,
      ready: w.ready,
      blind: w.blind,
      checkMs: Math.round(w.costMs * 100) / 100,
      intervalMs: Math.round(this.intervalOf(w.costMs)),
      checkedAt: w.checkedAt,
    }));
  }

  /** No more checks; resolves once the one in flight, if any, is done. */
  async close(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.queue;
  }

  private watch(principal: Principal, model: string, keepMs: number, now: number): Watched {
    const key = ChangeWatch.tagOf(principal.uid, model);
    let watched = this.watched.get(key);
    if (!watched) {
      watched = {
        model,
        key,
        principal,
        epoch: randomBytes(6).toString('base64url'),
        changes: 0,
        ready: false,
        blind: false,
        leader: false,
        checkedAt: 0,
        count: 0,
        seen: new Map(),
        costMs: 0,
        nextDueAt: now,
        lastReadAt: now,
        keepMs,
      };
      this.watched.set(key, watched);
    }
    // The latest key of the account: a key revoked since is not the one checks go on with.
    watched.principal = principal;
    watched.lastReadAt = now;
    watched.keepMs = Math.max(watched.keepMs, keepMs);
    if (!watched.baseline) {
      const first = watched;
      first.baseline = this.serially(() => this.check(first)).then(() => this.schedule());
    }
    return watched;
  }

  /** The interval after a check that cost `costMs`, with the pairs watched now. */
  private intervalOf(costMs: number): number {
    return Math.max(this.settings.minIntervalMs, (costMs * Math.max(1, this.watched.size)) / this.settings.share);
  }

  private schedule(): void {
    if (this.stopped || this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    let next = Number.POSITIVE_INFINITY;
    for (const w of this.watched.values()) if (w.ready) next = Math.min(next, w.nextDueAt, w.lastReadAt + w.keepMs);
    if (next === Number.POSITIVE_INFINITY) return;
    // Not before the budget allows the next check (forgetting a pair no longer read can wait as long).
    next = Math.max(next, this.notBefore);
    this.timer = outsideRequests(() => setTimeout(() => void this.tick(), Math.max(0, next - this.now())));
    this.timer.unref();
  }

  /**
   * Checks the pairs due, the longest due first, one at a time, as long as the ERP time budget
   * (check-budget.ts) allows; forgets the pairs no longer read.
   */
  private async tick(): Promise<void> {
    this.timer = undefined;
    this.running = true;
    try {
      for (;;) {
        if (this.stopped) return;
        const now = this.now();
        let due: Watched | undefined;
        for (const w of [...this.watched.values()]) {
          if (now - w.lastReadAt > w.keepMs) {
            // No answer depending on it can still be served: nothing to watch.
            if (w.ready) this.watched.delete(w.key);
            continue;
          }
          if (w.ready && w.nextDueAt <= now && (!due || w.nextDueAt < due.nextDueAt)) due = w;
        }
        if (!due) return;
        const pair = due;
        // Asked when the check's turn has come (a baseline may have been queued before it and spent).
        const waitMs = await this.serially(async () => {
          const wait = this.budget.waitMs(pair.costMs, this.now());
          if (wait === 0) await this.check(pair);
          return wait;
        });
        if (waitMs > 0) {
          this.notBefore = this.now() + waitMs;
          return;
        }
      }
    } finally {
      this.running = false;
      this.schedule();
    }
  }

  /** Runs `check` after every check queued before it. */
  private serially<T>(check: () => Promise<T>): Promise<T> {
    // A check is the gateway's own work, whichever request caused it: it carries no request's identity.
    const run = this.queue.then(() => outsideRequests(check));
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** One check of a pair: the baseline when it has none, else a comparison with the last look. */
  private async check(w: Watched): Promise<void> {
    /** No look to compare with: a baseline. */
    let fresh = !w.ready || w.blind;
    if (this.shared) {
      const lease = Math.max(10_000, 3 * this.intervalOf(w.costMs));
      if (!(await this.shared.lead(w.key, this.holder, lease))) {
        // Another process checks the pair (or Redis is away, and the shared cache with it): try again later.
        w.leader = false;
        w.ready = true;
        w.blind = false;
        w.nextDueAt = this.now() + this.settings.minIntervalMs;
        return;
      }
      // Just taken over: what this process looked at before (if anything) is not the last look.
      if (!w.leader) fresh = true;
      w.leader = true;
    }
    const started = this.now();
    const stats = new ErpStats();
    const target = { model: w.model };
    const window = Math.floor((fresh ? started : w.checkedAt) / 1000) - Math.ceil(this.settings.settleMs / 1000) - 1;
    let outcome: 'unchanged' | 'changed' | 'baseline' | 'error' = fresh ? 'baseline' : 'unchanged';
    try {
      const latest = await this.reader.latestWrites(w.principal, target, WRITTEN_LIMIT + 1, stats);
      const count = latest.count;
      // Newest first (records without a date before them): those of the window are what was written since the last look.
      const written = latest.rows.filter((row) => (secondOf(row['write_date']) ?? Number.NEGATIVE_INFINITY) >= window);
      // A full page whose last record is still in the window (or has no date) may hide more: a change without looking further.
      const last = latest.rows.at(-1);
      const overflow = latest.rows.length > WRITTEN_LIMIT && (secondOf(last?.['write_date']) ?? Number.POSITIVE_INFINITY) >= window;
      const settledBefore = Math.floor(started / 1000) - Math.ceil(this.settings.settleMs / 1000);
      const seen = new Map<number, { second: number; settled: boolean }>();
      let changed = count !== w.count || overflow;
      for (const row of written.slice(0, WRITTEN_LIMIT)) {
        const id = row['id'] as number;
        const second = secondOf(row['write_date']) ?? Number.NaN;
        const settled = second < settledBefore;
        const before = w.seen.get(id);
        if (!before || before.second !== second || (!before.settled && settled)) changed = true;
        seen.set(id, { second, settled });
      }
      w.count = count;
      w.seen = seen;
      w.checkedAt = started;
      if (this.shared) {
        // A new holder's baseline drops what was stored while no process looked (or looked elsewhere).
        w.ready = true;
        w.blind = false;
        if (changed && !fresh) outcome = 'changed';
        await this.shared.checked(w.key, started, fresh || changed);
        if (fresh || changed) this.observer?.dropped(this.onDrop(w.key));
      } else if (!w.ready) {
        // The baseline: answers depending on the model are stored from now on, under this generation.
        w.ready = true;
      } else if (w.blind) {
        // A baseline at last: the answers stored without one are dropped.
        outcome = 'baseline';
        w.blind = false;
        w.changes += 1;
        this.observer?.dropped(this.onDrop(w.key));
      } else if (changed) {
        outcome = 'changed';
        w.changes += 1;
        this.observer?.dropped(this.onDrop(w.key));
      }
    } catch (error) {
      outcome = 'error';
      this.log?.warn(
        { model: w.model, error: error instanceof Error ? error.message : String(error) },
        'cache: a change check failed (answers depending on the model are bound by their TTL)',
      );
      if (!w.ready || w.blind) {
        // No baseline: answers are bound by their TTL until a check answers (tried again below).
        w.ready = true;
        w.blind = true;
      }
    }
    w.costMs = stats.ms;
    this.budget.spend(stats.ms, started);
    w.nextDueAt = started + (outcome === 'error' ? Math.max(ERROR_RETRY_MS, this.intervalOf(w.costMs)) : this.intervalOf(w.costMs));
    this.observer?.checked(w.model, outcome, stats.ms / 1000);
  }
}
