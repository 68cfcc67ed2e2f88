/**
 * The live suite's checks of the two bulk features, judged by what a consumer receives, read-only
 * (a live ERP is never written):
 * - **exports = the list**: the NDJSON and CSV exports of a resource (every field; a couple of
 *   fields, a many2one among them; a filter) hold exactly the records and values the JSON list gives
 *   walked by `since_id` pages, in the same order; the CSV is read back with csv-parse (strict
 *   RFC 4180: CRLF, quoting, an unquoted empty field is null, a quoted one an empty text); the headers a
 *   consumer relies on (Content-Type, Content-Disposition, no ETag).
 * - **a change-feed walk**: from the README's start (a date-time, here the epoch) to caught up, the
 *   pages give every record of the list once, as the list gives it, and as removals exactly the
 *   records the account can read outside the resource; all in `(write_date, id)` order (the ERP's own
 *   `write_date`, read directly); `meta` as the README and OpenAPI say; tokens never going back; the
 *   caught-up call empty with a token not earlier than the last; the feed as an NDJSON export equal
 *   to the walk, with its `X-Next-Changed-Since`.
 * On a quiet ERP nothing is written during the walk, so a record seen twice is a defect.
 */
import { parse } from 'csv-parse/sync';
import type { Response } from 'supertest';
import { parseChangedSince } from '@ops-data-gateway/gateway/runtime/query/changed-since';
import type { ResourceSpec } from '@ops-data-gateway/gateway/runtime/resource-spec';
import { asText, csvText } from '../support/export-loaders';
import { EXAMPLE, exposedField, probe } from '../support/filter-probes';
import { expectDocumented } from '../support/openapi-responses';
import type { LiveTarget } from './live-target';

type Row = { id: number; [field: string]: unknown };
type ListPage = { data: Row[]; meta: { total?: number; next_since_id?: number | null } };
type ChangeMeta = { next_changed_since: string; more_changes: boolean; removed_ids: number[] };

/** What the checks need of the suite around them (its target, and its documented GET of a JSON page). */
export interface SuiteAccess {
  target(): LiveTarget;
  resource(path: string): ResourceSpec;
  /** A 200 JSON answer, validated against openapi.json, or a throw. */
  ok(path: string): Promise<{ data: Row[]; meta: Record<string, unknown> }>;
}

/** The README's way to start a feed is a date-time: the earliest one there is. */
const EPOCH = '1970-01-01T00:00:00Z';
const CSV_TYPE = 'text/csv; charset=utf-8; header=present';
const NDJSON_TYPE = 'application/x-ndjson; charset=utf-8';

export function describeExportAndFeedChecks(suite: SuiteAccess, resources: readonly string[]): void {
  if (resources.length === 0) return;
  const key = () => suite.target().settings.key;
  const driftNulls = (r: ResourceSpec) => suite.target().gapsOf(r).apiFields;

  /** Every record of the JSON list by `since_id` pages of about a third of the list (the oracle). */
  const walkList = async (path: string, query: string): Promise<Row[]> => {
    const total = (await suite.ok(`/api/v1/${path}?limit=1${query.includes('&fields=') ? '' : '&fields=id'}${query}`)).meta['total'] as number;
    const size = Math.min(200, Math.max(1, Math.ceil(total / 3)));
    const rows: Row[] = [];
    for (let cursor: number | null = 0, pages = 0; cursor !== null; pages++) {
      if (pages > 5) throw new Error(`the list walk of ${path}${query} did not end`);
      const page = (await suite.ok(`/api/v1/${path}?since_id=${cursor}&limit=${size}&total=false${query}`)) as ListPage;
      rows.push(...page.data);
      cursor = page.meta.next_since_id ?? null;
    }
    expect(rows.length).toBe(total);
    return rows;
  };

  /** An export as a consumer downloads it: the whole body as text, the answer documented by openapi.json. */
  const download = async (r: ResourceSpec, path: string, accept: string): Promise<{ text: string; headers: Record<string, string> }> => {
    const started = Date.now();
    const res: Response = await suite.target().gateway.get(path, key()).set('Accept', accept).buffer(true).parse(asText);
    const text = res.body as string;
    if (res.status !== 200) throw new Error(`GET ${path} (${accept}): ${res.status} ${text}`);
    expectDocumented(path, { status: res.status, headers: res.headers, body: text, text }, 'GET', driftNulls(r));
    const headers = res.headers as Record<string, string>;
    const extension = headers['content-type'] === CSV_TYPE ? 'csv' : 'ndjson';
    const stamp = new RegExp(`^attachment; filename="${r.path.replace('/', '-')}-(\\d{4})(\\d{2})(\\d{2})T(\\d{2})(\\d{2})(\\d{2})Z\\.${extension}"$`).exec(
      headers['content-disposition'] ?? '',
    );
    expect([path, headers['content-disposition'], stamp !== null]).toEqual([path, headers['content-disposition'], true]);
    const [, y, mo, d, h, mi, s] = (stamp as RegExpExecArray).map(Number);
    const named = Date.UTC(y as number, (mo as number) - 1, d, h, mi, s);
    // The file is named after the time of the export, in UTC, to the second.
    expect(named).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000 - 1000);
    expect(named).toBeLessThanOrEqual(Date.now() + 1000);
    expect([path, headers['etag']]).toEqual([path, undefined]);
    return { text, headers };
  };

  const ndjsonWithHeaders = async (r: ResourceSpec, path: string, accept = '*/*'): Promise<{ rows: Row[]; headers: Record<string, string> }> => {
    const { text, headers } = await download(r, path, accept);
    expect(headers['content-type']).toBe(NDJSON_TYPE);
    if (text === '') return { rows: [], headers };
    expect(text.endsWith('\n')).toBe(true);
    const rows = text
      .slice(0, -1)
      .split('\n')
      .map((line) => JSON.parse(line) as Row);
    return { rows, headers };
  };
  const ndjson = async (r: ResourceSpec, path: string, accept = '*/*'): Promise<Row[]> => (await ndjsonWithHeaders(r, path, accept)).rows;

  /** The CSV export as rows of text, `null` for an unquoted empty field (RFC 4180, CRLF only). */
  const csv = async (r: ResourceSpec, path: string, accept = '*/*'): Promise<(string | null)[][]> => {
    const { text, headers } = await download(r, path, accept);
    expect(headers['content-type']).toBe(CSV_TYPE);
    return parse(text, {
      record_delimiter: '\r\n',
      bom: false,
      cast: (value, context) => (value === '' && !context.quoting ? null : value),
    }) as (string | null)[][];
  };

  /** What the CSV must hold for `rows`: a header of their fields, then each value as the README writes it. */
  const csvOf = (rows: readonly Row[], columns: readonly string[]) => [columns, ...rows.map((row) => columns.map((name) => csvText(row[name])))];

  describe.each(resources.map((path) => [path]))('%s: exports and change feed', (path) => {
    it('exports as NDJSON and CSV exactly the records and values the JSON list gives, in its order: every field, a few fields, a filter', async () => {
      const r = suite.resource(path);
      const columns = r.fields.map((f) => f.name);
      const all = await walkList(path, '');
      expect(all.length).toBeGreaterThan(0);

      expect(await ndjson(r, `/api/v1/${path}`, 'application/x-ndjson')).toEqual(all);
      expect(await csv(r, `/api/v1/${path}`, 'text/csv')).toEqual(csvOf(all, columns));

      const chosen = fewFields(r);
      const some = await walkList(path, `&fields=${chosen.join(',')}`);
      expect(some).toEqual(all.map((row) => Object.fromEntries(['id', ...chosen].map((name) => [name, row[name]]))));
      expect(await ndjson(r, `/api/v1/${path}?format=ndjson&fields=${chosen.join(',')}`)).toEqual(some);
      const someCsv = await csv(r, `/api/v1/${path}?format=csv&fields=${chosen.join(',')}`);
      expect(someCsv).toEqual(csvOf(some, Object.keys(some[0] as Row)));

      const { filter, fromData } = narrowingFilter(r, suite.target(), all);
      const filtered = await walkList(path, `&${filter}`);
      // A value taken from a record matches at least that record.
      expect([filter, filtered.length > 0 || !fromData, filtered.length <= all.length]).toEqual([filter, true, true]);
      expect(await ndjson(r, `/api/v1/${path}?${filter}`, 'application/x-ndjson')).toEqual(filtered);
      expect(await csv(r, `/api/v1/${path}?format=csv&${filter}`)).toEqual(csvOf(filtered, columns));
    });

    it('walks the change feed from the epoch to caught up: every list record once and as listed, removals exactly the records outside the resource, all in (write_date, id) order', async () => {
      const r = suite.resource(path);
      const target = suite.target();
      const listed = new Map((await walkList(path, '')).map((row) => [row.id, row]));
      // The oracle of order and removals: every record the account can read, whatever the scope, with the ERP's own write_date.
      const written = (await target.erp({
        model: r.model,
        method: 'search_read',
        ids: null,
        kwargs: { domain: [], fields: ['write_date'], context: { active_test: false } },
      })) as { id: number; write_date: string }[];
      const inFeedOrder = written
        .map(({ id, write_date }) => ({ id, second: secondOf(write_date) }))
        .sort((a, b) => a.second - b.second || a.id - b.id)
        .map(({ id }) => id);
      const limit = Math.min(200, Math.max(1, Math.ceil(inFeedOrder.length / 3)));

      const data: Row[] = [];
      const removed: number[] = [];
      const pages: number[][] = [];
      let token = EPOCH;
      let previous: Cursor | undefined;
      let more = true;
      for (let calls = 0; more; calls++) {
        // Records of one second are paged by id, so a walk takes about one call per `limit` records, plus one per second cut.
        if (calls > 2 * Math.ceil(inFeedOrder.length / limit) + 5) throw new Error(`the change feed of ${path} did not catch up after ${calls} calls`);
        const page = await suite.ok(`/api/v1/${path}?changed_since=${encodeURIComponent(token)}&limit=${limit}`);
        const meta = expectChangeMeta(page.meta, page.data);
        expect(page.data.length + meta.removed_ids.length).toBeLessThanOrEqual(limit);
        const cursor = parseChangedSince(meta.next_changed_since);
        if (previous) expect([path, notBefore(cursor, previous)]).toEqual([path, true]);
        previous = cursor;
        data.push(...page.data);
        removed.push(...meta.removed_ids);
        pages.push([...page.data.map((row) => row.id), ...meta.removed_ids]);
        token = meta.next_changed_since;
        more = meta.more_changes;
      }

      const caughtUp = await suite.ok(`/api/v1/${path}?changed_since=${encodeURIComponent(token)}&limit=${limit}`);
      const last = expectChangeMeta(caughtUp.meta, caughtUp.data);
      expect([caughtUp.data, last.removed_ids, last.more_changes]).toEqual([[], [], false]);
      expect([path, notBefore(parseChangedSince(last.next_changed_since), previous as Cursor)]).toEqual([path, true]);

      // Each record once, as the list gives it; removals are exactly what the account reads outside the resource.
      expect(data.map((row) => row.id)).toEqual(inFeedOrder.filter((id) => listed.has(id)));
      expect(data).toEqual(data.map((row) => listed.get(row.id)));
      expect(removed).toEqual(inFeedOrder.filter((id) => !listed.has(id)));
      // Across pages too: every entry of a page comes after every entry of the page before.
      const rank = new Map(inFeedOrder.map((id, at) => [id, at]));
      const ranks = pages.filter((ids) => ids.length).map((ids) => ids.map((id) => rank.get(id) as number));
      for (let i = 1; i < ranks.length; i++) expect([path, Math.min(...(ranks[i] as number[])) > Math.max(...(ranks[i - 1] as number[]))]).toEqual([path, true]);

      // The same feed as one export: the walk's entries in (write_date, id) order, `_removed` on every line,
      // and the token the next sync starts from, not earlier than where the walk caught up.
      const exported = await ndjsonWithHeaders(r, `/api/v1/${path}?format=ndjson&changed_since=${EPOCH}`);
      expect(exported.rows).toEqual(inFeedOrder.map((id) => (listed.has(id) ? { ...listed.get(id), _removed: false } : { id, _removed: true })));
      const next = exported.headers['x-next-changed-since'];
      expect([path, typeof next]).toEqual([path, 'string']);
      expect([path, notBefore(parseChangedSince(next as string), previous as Cursor)]).toEqual([path, true]);

      // With a filter, a record written in the window that does not match it is a removal too (README).
      const { filter } = narrowingFilter(r, target, [...listed.values()]);
      const matching = new Map((await walkList(path, `&${filter}`)).map((row) => [row.id, row]));
      const filteredFeed = await ndjson(r, `/api/v1/${path}?format=ndjson&changed_since=${EPOCH}&${filter}`);
      expect(filteredFeed).toEqual(inFeedOrder.map((id) => (matching.has(id) ? { ...matching.get(id), _removed: false } : { id, _removed: true })));
    });
  });

  /**
   * The feed's `meta`: exactly the three members the README shows, of their types (nothing of a list
   * page's), and `unreadable_fields` when the page's records hold nulls for want of a read right:
   * then those fields are null in every record of the page.
   */
  function expectChangeMeta(meta: Record<string, unknown>, data: readonly Row[]): ChangeMeta {
    const { unreadable_fields: unreadable, ...rest } = meta;
    expect(Object.keys(rest).sort()).toEqual(['more_changes', 'next_changed_since', 'removed_ids']);
    expect(rest).toEqual({ next_changed_since: expect.stringMatching(/^\S+$/), more_changes: expect.any(Boolean), removed_ids: expect.any(Array) });
    for (const id of meta['removed_ids'] as unknown[]) expect(Number.isInteger(id)).toBe(true);
    if (unreadable !== undefined) {
      expect([unreadable, data.length > 0]).toEqual([expect.arrayContaining([expect.any(String)]), true]);
      for (const row of data) for (const field of unreadable as string[]) expect([row.id, field, row[field]]).toEqual([row.id, field, null]);
    }
    return meta as ChangeMeta;
  }
}

/**
 * Two fields besides id: a many2one when the resource has one, and another of the type CSV writes
 * least plainly (an array as JSON text, then a date-time, a number or boolean; else the last field).
 */
function fewFields(r: ResourceSpec): string[] {
  const many2one = r.fields.find((f) => f.source.kind === 'many2one');
  const others = r.fields.filter((f) => f.name !== 'id' && f !== many2one);
  const plainness = (f: ResourceSpec['fields'][number]) => (f.type === 'array' ? 0 : f.format === 'date-time' ? 1 : f.type !== 'string' ? 2 : 3);
  const other = [...others].reverse().sort((a, b) => plainness(a) - plainness(b))[0];
  return r.fields.filter((f) => f === many2one || f === other).map((f) => f.name);
}

/**
 * A filter with a value from the ERP's own data (`name=value`), preferably one that leaves some
 * records out (judged on the list by the probe's predicate); any served filter of the resource else.
 */
function narrowingFilter(r: ResourceSpec, target: LiveTarget, all: readonly Row[]): { filter: string; fromData: boolean } {
  const gaps = target.gapsOf(r);
  const candidates: { query: string; kept: number }[] = [];
  for (const filter of r.filters) {
    if (gaps.filters.has(filter.name)) continue;
    const field = exposedField(r, filter);
    const sample = field && all.map((row) => row[field.name]).find((v) => v !== null && v !== '' && v !== undefined);
    const attempt = field && probe(filter, field, sample);
    if (!field || !attempt) continue;
    const [value, holds] = attempt;
    candidates.push({ query: `${filter.name}=${encodeURIComponent(value)}`, kept: all.filter((row) => holds(row[field.name])).length });
  }
  const narrowing = candidates.find((c) => c.kept > 0 && c.kept < all.length) ?? candidates[0];
  if (narrowing) return { filter: narrowing.query, fromData: true };
  const any = r.filters.find((f) => !gaps.filters.has(f.name));
  if (!any) throw new Error(`${r.path} has no filter this ERP can apply`);
  return { filter: `${any.name}=${encodeURIComponent(EXAMPLE[any.type](any))}`, fromData: false };
}

type Cursor = ReturnType<typeof parseChangedSince>;

/** A token's position is not before another's: a later second, or the same second and an id not lower. */
function notBefore(a: Cursor, b: Cursor): boolean {
  return a.second > b.second || (a.second === b.second && a.afterId >= b.afterId);
}

/** The second of an ERP datetime (`YYYY-MM-DD HH:MM:SS`, UTC; 17 may add a fraction it does not answer). */
function secondOf(erp: string): number {
  const ms = Date.parse(`${erp.slice(0, 10)}T${erp.slice(11, 19)}Z`);
  if (Number.isNaN(ms)) throw new Error(`the ERP answered write_date ${JSON.stringify(erp)}`);
  return ms / 1000;
}
