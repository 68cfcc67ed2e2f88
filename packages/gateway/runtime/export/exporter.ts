/**
 * @module Streams an export: every record a list request matches, read from the ERP a page at a
 * time and written as it comes, in CSV or NDJSON (export-encoders.ts).
 *
 * - Order and paging: by ascending id, keyset (`id > last`), so every page costs the same at any
 *   depth and a record is never read twice; `since_id` resumes after an id. With `changed_since`,
 *   the change feed's own order and cursor (change-feed.ts), up to a horizon fixed when it starts.
 * - Memory: two pages at most, the one being written and the next, read meanwhile. Each page takes
 *   its own lease of the memory budget, given back once it is written; the page after is asked only
 *   when the client has taken the one before (backpressure: `write` returning false waits for
 *   `drain`).
 * - The client going away (or being dropped by CLIENT_WRITE_TIMEOUT_MS for not reading) stops the
 *   paging: no page is asked after the connection closes.
 * - Deadlines: the ceiling check and the first page are under the request deadline (an error is
 *   still an answer with its status); after that each ERP call has its own (ERP_TIMEOUT_MS, queue
 *   wait included), not the whole export, which may take minutes.
 * - A failure once the status is sent cannot become an error answer: the connection is cut before
 *   the last chunk, so the client sees an incomplete transfer, never a file that looks whole.
 * - Fields answered `null` for want of a read right on another model are named in the
 *   `X-Unreadable-Fields` header, from the first page (read before the status is sent). A later page
 *   that meets another such field (its relation was empty on the pages before) cuts the export the
 *   same way: a file never holds a null the header did not announce.
 * - Every page is an ordinary ERP call: it takes a slot of the ERP concurrency guard like any other.
 */
import type { Request, Response } from 'express';
import type { Principal } from '../admission/auth';
import type { ChangeEntry, ChangeFeed } from '../changes/change-feed';
import type { ErpStats } from '../erp/erp-client';
import type { MemoryBudget } from '../admission/memory-budget';
import { changeScanRequest, exportDomain, exportPageRequest } from '../erp-requests';
import { invalidValue } from '../errors';
import type { Logger } from '../log';
import { changeToken, erpSecond } from '../query/changed-since';
import type { ListQuery } from '../query/parse-query';
import { unreadableFieldsHeader, type ResourceReader } from '../resource-reader';
import type { ResourceSpec } from '../resource-spec';
import { deadlineExpired } from '../request/request-context';
import type { ExportFormat } from '../route-kinds';
import { encoderFor, type ExportEncoder } from './export-encoders';

export interface ExportSettings {
  readonly maxRows: number;
  readonly pageSize: number;
}

interface Page {
  readonly entries: readonly ChangeEntry[];
  /** API fields answered `null` in the entries for want of a read right on another model. */
  readonly unreadable: readonly string[];
  /** The last page: nothing follows. */
  readonly done: boolean;
}

/** Pages of an export, in order: each call reads the page after the one the previous call gave. */
type PageSource = () => Promise<Page>;

export class Exporter {
  constructor(
    private readonly reader: ResourceReader,
    private readonly changes: ChangeFeed,
    private readonly budget: MemoryBudget,
    private readonly settings: ExportSettings,
    private readonly log: Logger,
  ) {}

  async stream(principal: Principal, resource: ResourceSpec, query: ListQuery, format: ExportFormat, req: Request, res: Response, stats: ErpStats): Promise<void> {
    const { next, headers } = query.changes
      ? await this.changePages(principal, resource, query, stats)
      : { next: await this.recordPages(principal, resource, query, stats), headers: {} };
    const encoder = encoderFor(format, query.fields, query.changes !== undefined, query.csvFormulas);
    let closed = false;
    res.once('close', () => {
      closed = true;
    });
    // The first page is read before the status is sent: a failure there is still an error answer.
    let page: Page = req.method === 'HEAD' ? { entries: [], unreadable: [], done: true } : await next();
    if (res.headersSent || deadlineExpired(res)) return;
    this.sendHeaders(res, resource, encoder);
    for (const [name, value] of Object.entries({ ...headers, ...unreadableFieldsHeader(page.unreadable) })) res.setHeader(name, value);
    const announced = new Set(page.unreadable);
    let lease = stats.lease;
    try {
      await write(res, encoder.head());
      for (;;) {
        // The next page is read while this one is written: the ERP and the gateway work at the same
        // time, two pages at most (measured: NDJSON from 0.70x to 0.82x of the direct paging's rows/s, BENCHMARKS.md).
        let ahead: Promise<Page> | undefined;
        const aheadLease = page.done || closed ? undefined : this.budget.lease();
        if (aheadLease) {
          stats.lease = aheadLease;
          ahead = next();
          // Observed now: if the client leaves, this read is let go of below, never awaited.
          ahead.catch(() => undefined);
          // Let the read go out before this page's encoding takes the thread.
          await new Promise((resolve) => setImmediate(resolve));
        }
        await write(res, encoder.encode(page.entries));
        lease?.release();
        lease = aheadLease;
        if (!ahead || closed) break;
        page = await ahead;
        const unannounced = page.unreadable.filter((field) => !announced.has(field));
        if (unannounced.length) throw new Error(`fields became unreadable during the export (${unannounced.join(', ')}): the header did not announce them`);
      }
    } catch (error) {
      // The status is sent: the only way left to say "incomplete" is to cut the connection.
      this.log.warn({ resource: resource.path, error: error instanceof Error ? error.message : String(error) }, 'export cut short: the connection is closed before its end');
      res.destroy();
      return;
    } finally {
      lease?.release();
    }
    if (!closed) res.end();
  }

  private sendHeaders(res: Response, resource: ResourceSpec, encoder: ExportEncoder): void {
    const stamp = new Date()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    res.status(200);
    res.setHeader('Content-Type', encoder.contentType);
    res.setHeader('Content-Disposition', `attachment; filename="${resource.path.replace('/', '-')}-${stamp}.${encoder.extension}"`);
  }

  /** Every matching record, by ascending id, after a ceiling check on their count. */
  private async recordPages(principal: Principal, resource: ResourceSpec, query: ListQuery, stats: ErpStats): Promise<PageSource> {
    const count = await this.reader.count(principal, resource, exportDomain(resource, query), stats);
    this.assertUnderCeiling(count, 'narrow it with filters, or export it in parts with since_id');
    const { pageSize } = this.settings;
    let afterId = query.sinceId ?? 0;
    let sent = 0;
    return async () => {
      const { records, unreadable } = await this.reader.records(principal, resource, query.fields, exportPageRequest(resource, query, afterId, pageSize), stats);
      // Records added since the count still end the export at the ceiling, never past it.
      const kept = records.slice(0, this.settings.maxRows - sent);
      sent += kept.length;
      afterId = (records[records.length - 1]?.['id'] as number | undefined) ?? afterId;
      return {
        entries: kept.map((record) => ({ id: record['id'] as number, record })),
        unreadable,
        done: records.length < pageSize || sent >= this.settings.maxRows,
      };
    };
  }

  /**
   * The change feed from the query's cursor up to a horizon fixed now, page after page; and, in
   * `X-Next-Changed-Since`, the token of where it will have stopped once read to the end (known
   * now, since the horizon is): what a sync passes to its next run.
   */
  private async changePages(principal: Principal, resource: ResourceSpec, query: ListQuery, stats: ErpStats): Promise<{ next: PageSource; headers: Record<string, string> }> {
    const horizon = this.changes.horizon();
    let cursor = query.changes as NonNullable<ListQuery['changes']>;
    const end = cursor.second >= horizon ? cursor : { second: horizon, afterId: 0 };
    // Every record written in the window counts (removals included): an upper bound of the rows.
    const count = await this.reader.count(
      principal,
      resource,
      changeScanRequest(erpSecond(cursor.second), erpSecond(Math.max(horizon, cursor.second)), 0, 0, 'id asc').domain,
      stats,
    );
    this.assertUnderCeiling(count, 'export from a later changed_since, or sync with the JSON pages');
    const next = async () => {
      const page = await this.changes.page(principal, resource, query, cursor, this.settings.pageSize, horizon, stats);
      cursor = page.next;
      return { entries: page.entries, unreadable: page.unreadable, done: !page.more };
    };
    return { next, headers: { 'X-Next-Changed-Since': changeToken(end) } };
  }

  private assertUnderCeiling(count: number, advice: string): void {
    if (count > this.settings.maxRows)
      throw invalidValue(`This export would hold ${count} records, more than the ${this.settings.maxRows} an export may hold (EXPORT_MAX_ROWS): ${advice}.`);
  }
}

/** Writes `text`, then waits until the client has taken it (or is gone) when the socket's buffer is full. */
function write(res: Response, text: string): Promise<void> {
  if (!text || res.destroyed) return Promise.resolve();
  if (res.write(text)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
