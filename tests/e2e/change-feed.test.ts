/**
 * The change feed (`changed_since`) over real HTTP against the sandbox, with records written into
 * the ERP between the client's calls: a sync loop ends with exactly the records the ERP has; records
 * written in the same second are paged by id without a miss or a repeat; records that left the
 * resource (archived) come as removals; the feed works with exports; what it refuses.
 */
import { changeToken, parseChangedSince } from '@ops-data-gateway/gateway/runtime/query/changed-since';
import { ErpWriter, erpDatetime } from '../support/erp-writes';
import { startStack, type Stack } from '../support/stack';

type ApiRecord = { id: number; [field: string]: unknown };
type ChangePage = { data: ApiRecord[]; meta: { next_changed_since: string; more_changes: boolean; removed_ids: number[] } };

/** Short, so the suite waits little for a second to settle; the default is 10 s. */
const SETTLE_MS = 1000;
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 1100));

/** A client of the feed over a stack: its calls, a sync loop, and the oracle (the JSON list now). */
function feedClient(stackOf: () => Stack) {
  const feed = async (path: string, since: string, limit: number): Promise<ChangePage> => {
    const res = await stackOf().get(`/api/v1/${path}${path.includes('?') ? '&' : '?'}changed_since=${encodeURIComponent(since)}&limit=${limit}`);
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    expect(res.body.data.length + res.body.meta.removed_ids.length).toBeLessThanOrEqual(limit);
    return res.body as ChangePage;
  };
  /** Applies a page to a copy: upsert the records, then drop the removals. */
  const apply = (copy: Map<number, ApiRecord>, page: ChangePage) => {
    for (const record of page.data) copy.set(record.id, record);
    for (const id of page.meta.removed_ids) copy.delete(id);
  };
  /** What a client of the feed does: apply each page to its copy, until it is up to date. */
  const sync = async (copy: Map<number, ApiRecord>, path: string, since: string, limit: number, pages: ChangePage[] = []): Promise<string> => {
    let token = since;
    for (let calls = 0; ; calls++) {
      if (calls > 500) throw new Error('the sync did not end');
      const page = await feed(path, token, limit);
      pages.push(page);
      apply(copy, page);
      token = page.meta.next_changed_since;
      if (!page.meta.more_changes) return token;
    }
  };
  /** The ERP's records as the JSON list gives them now (the oracle). */
  const current = async (path: string): Promise<Map<number, ApiRecord>> => {
    const records = new Map<number, ApiRecord>();
    for (let cursor: number | null = 0; cursor !== null; ) {
      const res = await stackOf().get(`/api/v1/${path}?since_id=${cursor}&limit=200&total=false`);
      for (const record of res.body.data as ApiRecord[]) records.set(record.id, record);
      cursor = res.body.meta.next_since_id;
    }
    return records;
  };
  return { feed, apply, sync, current };
}

const sorted = (records: Map<number, ApiRecord>) => new Map([...records].sort(([a], [b]) => a - b));

describe('change feed', () => {
  let stack: Stack;
  let erp: ErpWriter;
  beforeAll(async () => {
    stack = await startStack({ env: { CHANGES_SETTLE_MS: String(SETTLE_MS) } });
    erp = new ErpWriter(stack.dbPath);
  });
  afterAll(async () => {
    erp.close();
    await stack.close();
  });
  const { feed, apply, sync, current } = feedClient(() => stack);

  it('pages records written in the same second by id, without a miss or a repeat, across tokens', async () => {
    const ids = [...(await current('stock/pickings')).keys()];
    // Seven records stamped with one second nothing else has (the demo data is older), from scattered ids.
    const second = new Date(Math.floor(Date.now() / 1000) * 1000 - 120_000);
    const stamped = [ids[40], ids[3], ids[17], ids[99], ids[8], ids[60], ids[25]] as number[];
    for (const id of stamped) erp.write('stock.picking', id, { origin: `same-second ${id}` }, second);
    const served: number[] = [];
    let token = second.toISOString();
    let more = true;
    for (let calls = 0; more; calls++) {
      expect(calls).toBeLessThan(10);
      const page = await feed('stock/pickings?fields=id,origin', token, 3);
      expect(page.data.length).toBeLessThanOrEqual(3);
      served.push(...page.data.map((r) => r.id));
      token = page.meta.next_changed_since;
      more = page.meta.more_changes;
    }
    expect(served).toEqual([...stamped].sort((a, b) => a - b));
    // The token of a sync that is up to date gives nothing new until something is written.
    expect((await feed('stock/pickings', token, 50)).data).toEqual([]);
  });

  it('reports a record that left the resource (archived) as removed, in JSON and in exports', async () => {
    const [a, b] = [...(await current('fleet/vehicles')).keys()].slice(50, 52) as [number, number];
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    erp.write('fleet.vehicle', a, { active: 0 }, at);
    erp.write('fleet.vehicle', b, { license_plate: 'STILL-HERE' }, at);
    const since = at.toISOString();
    const page = await feed('fleet/vehicles?fields=plate', since, 50);
    expect(page.meta.removed_ids).toEqual([a]);
    expect(page.data).toEqual([{ id: b, plate: 'STILL-HERE' }]);
    // With every field, the odometer (a model the account never reads) is named while records carry it;
    // a page holding only the removal carries no record, so it names nothing.
    const full = await feed('fleet/vehicles', since, 50);
    expect(full.meta).toMatchObject({ removed_ids: [a], unreadable_fields: ['odometer'] });
    expect(a).toBeLessThan(b);
    const onlyRemoval = await stack.get(`/api/v1/fleet/vehicles?changed_since=${encodeURIComponent(since)}&limit=1`);
    expect([onlyRemoval.body.data, onlyRemoval.body.meta.removed_ids, onlyRemoval.body.meta.unreadable_fields]).toEqual([[], [a], undefined]);
    expect(onlyRemoval.headers['x-unreadable-fields']).toBeUndefined();
    const ndjson = await stack
      .get(`/api/v1/fleet/vehicles?format=ndjson&fields=plate&changed_since=${encodeURIComponent(since)}`)
      .buffer(true)
      .parse(text);
    expect(
      (ndjson.body as string)
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([a, b].sort((x, y) => x - y).map((id) => (id === a ? { id: a, _removed: true } : { id: b, plate: 'STILL-HERE', _removed: false })));
    const csv = await stack
      .get(`/api/v1/fleet/vehicles?format=csv&fields=plate&changed_since=${encodeURIComponent(since)}`)
      .buffer(true)
      .parse(text);
    const rows = [`id,plate,_removed`, ...[a, b].sort((x, y) => x - y).map((id) => (id === a ? `${a},,true` : `${b},STILL-HERE,false`))];
    expect(csv.body).toBe(`${rows.join('\r\n')}\r\n`);
    // The export says where a sync goes on from: passed back, it gives nothing already exported.
    const token = csv.headers['x-next-changed-since'] as string;
    expect(token).toMatch(/^v2\./);
    const after = await feed('fleet/vehicles?fields=plate', token, 50);
    expect([...after.data.map((r) => r.id), ...after.meta.removed_ids].filter((id) => id === a || id === b)).toEqual([]);
  });

  it('ends a sync loop with exactly the records the ERP has, with writes, creations and archiving between its calls (same second included)', async () => {
    const path = 'fleet/vehicles';
    const copy = new Map<number, ApiRecord>();
    let token = await sync(copy, path, '2000-01-01T00:00:00Z', 40);
    expect(sorted(copy)).toEqual(sorted(await current(path)));
    const ids = [...copy.keys()].sort((a, b) => a - b);
    const archived: number[] = [];
    const created: number[] = [];
    for (let round = 0; round < 4; round++) {
      // Several writes in one second, a low id and a high id among them, right after a call.
      const now = new Date();
      erp.write('fleet.vehicle', ids[ids.length - 1 - round] as number, { license_plate: `SYNC-HI-${round}` }, now);
      erp.write('fleet.vehicle', ids[round] as number, { license_plate: `SYNC-LO-${round}` }, now);
      erp.write('fleet.vehicle', ids[10 + round] as number, { active: 0 }, now);
      archived.push(ids[10 + round] as number);
      created.push(erp.copy('fleet.vehicle', ids[20 + round] as number, { license_plate: `SYNC-NEW-${round}` }, now));
      // One call of the loop between the writes (not yet up to date: the second has not settled).
      const page = await feed(path, token, 2);
      apply(copy, page);
      token = page.meta.next_changed_since;
      // And a write in the same second as the one just made, after the call.
      erp.write('fleet.vehicle', ids[30 + round] as number, { vin_sn: `VIN-${round}` }, now);
    }
    await settle();
    token = await sync(copy, path, token, 3);
    const expected = await current(path);
    expect(sorted(copy)).toEqual(sorted(expected));
    for (const id of archived) expect(copy.has(id)).toBe(false);
    for (const id of created) expect(copy.get(id)?.['plate']).toMatch(/^SYNC-NEW-/);
    // Up to date: nothing more, and nothing repeated. The token may move on to a later settled second
    // (one in which nothing was written), never back.
    const last = await feed(path, token, 50);
    expect(last).toEqual({ data: [], meta: { next_changed_since: expect.any(String), more_changes: false, removed_ids: [] } });
    expect(parseChangedSince(last.meta.next_changed_since).second).toBeGreaterThanOrEqual(parseChangedSince(token).second);
  });

  it('holds back records written within CHANGES_SETTLE_MS, then serves them', async () => {
    const [id] = [...(await current('stock/pickings')).keys()].slice(7, 8) as [number];
    const now = new Date();
    erp.write('stock.picking', id, { origin: 'just now' }, now);
    const early = await feed('stock/pickings?fields=origin', now.toISOString(), 50);
    expect(early.data).toEqual([]);
    expect(early.meta.more_changes).toBe(false);
    await settle();
    const later = await feed('stock/pickings?fields=origin', early.meta.next_changed_since, 50);
    expect(later.data).toEqual([{ id, origin: 'just now' }]);
    expect(erpDatetime(now)).toMatch(/^\d{4}-/);
  });

  it("reports deleted records in removed_ids at the next call: create, sync, delete, sync gives the ERP's records (a demo model fits in one range of the check)", async () => {
    const path = 'fleet/vehicles';
    const copy = new Map<number, ApiRecord>();
    let token = await sync(copy, path, '2000-01-01T00:00:00Z', 50);
    const ids = [...copy.keys()].sort((a, b) => a - b);
    const created = [0, 1, 2].map((n) => erp.copy('fleet.vehicle', ids[40 + n] as number, { license_plate: `DELETE-ME-${n}` }));
    await settle();
    token = await sync(copy, path, token, 50);
    for (const id of created) expect(copy.get(id)?.['plate']).toMatch(/^DELETE-ME-/);
    // Deleted: two records just created (the highest ids), one of the demo data.
    const deleted = [created[0], created[2], ids[7]] as number[];
    for (const id of deleted) erp.delete('fleet.vehicle', id);
    const page = await feed(path, token, 50);
    expect([...page.meta.removed_ids].sort((a, b) => a - b)).toEqual([...deleted].sort((a, b) => a - b));
    apply(copy, page);
    expect(sorted(copy)).toEqual(sorted(await current(path)));
    // Reported once: the range's ids are remembered in the token, and the next call reports nothing again.
    expect((await feed(path, page.meta.next_changed_since, 50)).meta.removed_ids).toEqual([]);
  });

  it('reports deletions in an export of the feed too (the whole id space), and goes on from its X-Next-Changed-Since', async () => {
    const path = 'stock/pickings';
    const copy = new Map<number, ApiRecord>();
    const token = await sync(copy, path, '2000-01-01T00:00:00Z', 200);
    const [low, high] = [...copy.keys()].sort((a, b) => a - b).filter((_, at, all) => at === 11 || at === all.length - 1) as [number, number];
    erp.delete('stock.picking', low);
    erp.delete('stock.picking', high);
    const res = await stack
      .get(`/api/v1/${path}?format=ndjson&fields=id&changed_since=${encodeURIComponent(token)}`)
      .buffer(true)
      .parse(text);
    const rows = (res.body as string)
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: number; _removed: boolean });
    expect(rows.filter((row) => row._removed).map((row) => row.id)).toEqual([low, high]);
    const next = parseChangedSince(res.headers['x-next-changed-since'] as string);
    expect(next.reconcile.seen).toBeGreaterThanOrEqual(high - 1);
  });

  it('keeps working with a v1 token given before deletions were checked (same place; deletions from then on)', async () => {
    const [id] = [...(await current('stock/pickings')).keys()].slice(30, 31) as [number];
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 90_000);
    erp.write('stock.picking', id, { origin: 'after a v1 token' }, at);
    const v1 = `v1.${Buffer.from(`${at.getTime() / 1000}:0`).toString('base64url')}`;
    const page = await feed('stock/pickings?fields=origin', v1, 200);
    expect(page.data).toContainEqual({ id, origin: 'after a v1 token' });
    expect(page.meta.next_changed_since).toMatch(/^v2\./);
  });

  it('says on /readyz what a write_date check costs on each model the feed read (here: small)', async () => {
    const res = await stack.get('/readyz', null);
    expect(res.status).toBe(200);
    const costs = res.body.changes.write_date as Record<string, Record<string, unknown>>;
    expect(Object.keys(costs).sort()).toEqual(['fleet.vehicle', 'stock.picking']);
    for (const cost of Object.values(costs))
      expect(cost).toEqual({
        case: 'small',
        source: 'measured',
        check_ms: expect.any(Number),
        keyed_ms: expect.any(Number),
        max_id: expect.any(Number),
        measured_at: expect.any(String),
      });
    expect(stack.logLines.filter((line) => line.includes('change feed: stock.picking is small'))).toHaveLength(1);
  });

  it.each([
    ['changed_since=yesterday', 422, 'changed_since must be an ISO 8601 date-time'],
    ['changed_since=v1.bm90LWEtdG9rZW4', 422, 'not given by the gateway'],
    ['changed_since=2026-01-01&order=reference', 400, 'cannot be combined with order'],
    ['changed_since=2026-01-01&since_id=3', 400, 'cannot be combined with since_id'],
    ['changed_since=2026-01-01&offset=3', 400, 'cannot be combined with offset'],
    ['changed_since=2026-01-01&total=true', 400, 'total=true'],
  ])('refuses %s with %i', async (query, status, message) => {
    const res = await stack.get(`/api/v1/stock/pickings?${query}`);
    expect(res.status).toBe(status);
    expect(res.body.error.message).toContain(message);
  });
});

describe('change feed without a write_date index (CHANGES_WRITE_DATE_INDEX=no), deletions checked 100 ids a call', () => {
  let stack: Stack;
  let erp: ErpWriter;
  beforeAll(async () => {
    stack = await startStack({ env: { CHANGES_SETTLE_MS: String(SETTLE_MS), CHANGES_WRITE_DATE_INDEX: 'no', CHANGES_RECONCILE_IDS: '100' } });
    erp = new ErpWriter(stack.dbPath);
  });
  afterAll(async () => {
    erp.close();
    await stack.close();
  });
  const { feed, apply, sync, current } = feedClient(() => stack);
  const path = 'stock/pickings';

  it('copies the rest of a window by id once a page by write_date comes back full (keyed pages, no more scans by write_date), then gives what changed meanwhile', async () => {
    const copy = new Map<number, ApiRecord>();
    // The first page of a first sync is read by write_date, and is full: the rest of the window is copied.
    const first = await feed(path, '2000-01-01T00:00:00Z', 40);
    apply(copy, first);
    const cursor = parseChangedSince(first.meta.next_changed_since);
    expect(first.meta.more_changes).toBe(true);
    expect(cursor.until).toBeGreaterThan(cursor.second);
    const all = [...(await current(path)).keys()].sort((a, b) => a - b);
    // Written while the copy goes on: one record already served, one not yet.
    const served = first.data[0]?.id as number;
    const ahead = all.filter((id) => !copy.has(id)).at(-3) as number;
    erp.write('stock.picking', served, { origin: 'during the copy, served' });
    erp.write('stock.picking', ahead, { origin: 'during the copy, ahead' });
    const calls = stack.erpCalls.length;
    const pages: ChangePage[] = [];
    let token = first.meta.next_changed_since;
    for (let n = 0; n < 20 && parseChangedSince(token).until !== undefined; n++) {
      const page = await feed(path, token, 40);
      pages.push(page);
      apply(copy, page);
      token = page.meta.next_changed_since;
    }
    const copied = pages.flatMap((page) => page.data.map((record) => record.id));
    // By id, each once, none served before: the copy reads through the primary key.
    expect(copied.length).toBeGreaterThan(40);
    expect(copied).toEqual([...copied].sort((a, b) => a - b));
    expect(new Set([...copied, ...first.data.map((record) => record.id)]).size).toBe(copied.length + first.data.length);
    const scans = stack.erpCalls.slice(calls).filter((call) => call.method === 'search_read' && call.kwargs['order'] === 'write_date asc, id asc');
    expect(scans).toEqual([]);
    await settle();
    token = await sync(copy, path, token, 40);
    expect(sorted(copy)).toEqual(sorted(await current(path)));
    expect(copy.get(served)?.['origin']).toBe('during the copy, served');
    expect(copy.get(ahead)?.['origin']).toBe('during the copy, ahead');
  });

  it('reads a window that fits in a page by write_date, with no copy', async () => {
    const [id] = [...(await current(path)).keys()].slice(60, 61) as [number];
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    erp.write('stock.picking', id, { origin: 'a small window' }, at);
    const page = await feed(`${path}?fields=origin`, at.toISOString(), 40);
    expect(page.data).toContainEqual({ id, origin: 'a small window' });
    expect([page.meta.more_changes, parseChangedSince(page.meta.next_changed_since).until]).toEqual([false, undefined]);
  });

  it('reports deletions anywhere in the id space within one round of caught-up calls (⌈highest id / 100⌉), once each', async () => {
    const copy = new Map<number, ApiRecord>();
    let token = await sync(copy, path, '2000-01-01T00:00:00Z', 200);
    // Caught up: one round of calls with nothing deleted reports nothing (the ranges are remembered from here on).
    const highest = Math.max(...copy.keys());
    const round = Math.ceil(highest / 100);
    for (let n = 0; n < round; n++) {
      const page = await feed(path, token, 50);
      apply(copy, page);
      token = page.meta.next_changed_since;
    }
    const ids = [...copy.keys()].sort((a, b) => a - b);
    const deleted = [ids[4], ids[120], ids[ids.length - 1]] as number[];
    for (const id of deleted) erp.delete('stock.picking', id);
    const reported: number[] = [];
    for (let n = 0; n < round; n++) {
      const page = await feed(path, token, 50);
      reported.push(...page.meta.removed_ids);
      apply(copy, page);
      token = page.meta.next_changed_since;
    }
    expect(reported.sort((a, b) => a - b)).toEqual(deleted.sort((a, b) => a - b));
    expect(sorted(copy)).toEqual(sorted(await current(path)));
  });

  it('says CHANGES_WRITE_DATE_INDEX=no on /readyz, and in one log line', async () => {
    const res = await stack.get('/readyz', null);
    expect(res.body.changes.write_date).toEqual({ 'stock.picking': { case: 'not_indexed', source: 'configured' } });
    expect(stack.logLines.filter((line) => line.includes('write_date of stock.picking is not indexed (CHANGES_WRITE_DATE_INDEX says)'))).toHaveLength(1);
  });
});

describe('change feed positions in the future', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  const token = (second: number, afterId = 0) => `v1.${Buffer.from(`${second}:${afterId}`).toString('base64url')}`;
  const nowSecond = () => Math.floor(Date.now() / 1000);
  const first = { span: 0, next: 1, seen: 0, digests: [] };
  /** A token of the current form (v2.): a position, or a first sync's copy ending at `until`. */
  const tokenV2 = (second: number, until?: number) => changeToken({ second, afterId: 0, ...(until === undefined ? {} : { until }), reconcile: first });

  // A forged token of the year 33658 (the largest second a token can hold), a date-time next year, a
  // token ten minutes ahead: none can be a position a gateway gave, and a sync keeping one would never
  // see another change. Refused in the error envelope, as JSON pages and as exports, never echoed back.
  it.each([
    ['a forged token of the year 33658', () => token(999_999_999_999, 7)],
    ['a token ten minutes ahead', () => token(nowSecond() + 600)],
    ['a v2 token ten minutes ahead', () => tokenV2(nowSecond() + 600)],
    ['a v2 copy token from the past whose copy ends ten minutes ahead', () => tokenV2(nowSecond() - 3600, nowSecond() + 600)],
    ['a date-time next year', () => `${new Date().getUTCFullYear() + 1}-01-01T00:00:00Z`],
    ['a date-time past the tolerance', () => new Date((nowSecond() + 120) * 1000).toISOString()],
    ['the last date-time there is', () => '9999-12-31T23:59:59Z'],
  ])('refuses %s with 422, without echoing it', async (_name, position) => {
    const since = position();
    for (const format of ['', '&format=ndjson', '&format=csv']) {
      const res = await stack.get(`/api/v1/stock/pickings?changed_since=${encodeURIComponent(since)}${format}`);
      expect([format, res.status, res.body.error?.code]).toEqual([format, 422, 'invalid_value']);
      expect(res.body.error.message).toContain('in the future');
      expect(JSON.stringify(res.body)).not.toContain(since);
      expect(res.headers['x-next-changed-since']).toBeUndefined();
    }
  });

  it('accepts a position within the clock tolerance (a client clock running 30 s ahead): nothing yet, and where to go on from', async () => {
    const ahead = new Date((nowSecond() + 30) * 1000).toISOString();
    const res = await stack.get(`/api/v1/stock/pickings?changed_since=${encodeURIComponent(ahead)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: [], meta: { more_changes: false, removed_ids: [] } });
  });
});

function text(res: import('supertest').Response, done: (error: Error | null, body: string) => void): void {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    body += chunk;
  });
  res.on('end', () => done(null, body));
}
