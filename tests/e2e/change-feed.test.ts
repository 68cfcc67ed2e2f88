/**
 * The change feed (`changed_since`) over real HTTP against the sandbox, with records written into
 * the ERP between the client's calls: a sync loop ends with exactly the records the ERP has; records
 * written in the same second are paged by id without a miss or a repeat; records that left the
 * resource (archived) come as removals; the feed works with exports; what it refuses.
 */
import { ErpWriter, erpDatetime } from '../support/erp-writes';
import { startStack, type Stack } from '../support/stack';

type ApiRecord = { id: number; [field: string]: unknown };
type ChangePage = { data: ApiRecord[]; meta: { next_changed_since: string; more_changes: boolean; removed_ids: number[] } };

/** Short, so the suite waits little for a second to settle; the default is 10 s. */
const SETTLE_MS = 1000;
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 1100));

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

  const feed = async (path: string, since: string, limit: number): Promise<ChangePage> => {
    const res = await stack.get(`/api/v1/${path}${path.includes('?') ? '&' : '?'}changed_since=${encodeURIComponent(since)}&limit=${limit}`);
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body as ChangePage;
  };

  /** What a client of the feed does: apply each page to its copy, until it is up to date. */
  const sync = async (copy: Map<number, ApiRecord>, path: string, since: string, limit: number): Promise<string> => {
    let token = since;
    for (let calls = 0; ; calls++) {
      if (calls > 500) throw new Error('the sync did not end');
      const page = await feed(path, token, limit);
      for (const record of page.data) copy.set(record.id, record);
      for (const id of page.meta.removed_ids) copy.delete(id);
      token = page.meta.next_changed_since;
      if (!page.meta.more_changes) return token;
    }
  };

  /** The ERP's records as the JSON list gives them now (the oracle). */
  const current = async (path: string): Promise<Map<number, ApiRecord>> => {
    const records = new Map<number, ApiRecord>();
    for (let cursor: number | null = 0; cursor !== null; ) {
      const res = await stack.get(`/api/v1/${path}?since_id=${cursor}&limit=200&total=false`);
      for (const record of res.body.data as ApiRecord[]) records.set(record.id, record);
      cursor = res.body.meta.next_since_id;
    }
    return records;
  };

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
    expect(token).toMatch(/^v1\./);
    const after = await feed('fleet/vehicles?fields=plate', token, 50);
    expect([...after.data.map((r) => r.id), ...after.meta.removed_ids].filter((id) => id === a || id === b)).toEqual([]);
  });

  it('ends a sync loop with exactly the records the ERP has, with writes, creations and archiving between its calls (same second included)', async () => {
    const path = 'fleet/vehicles';
    const copy = new Map<number, ApiRecord>();
    let token = await sync(copy, path, '2000-01-01T00:00:00Z', 40);
    const sorted = (records: Map<number, ApiRecord>) => new Map([...records].sort(([a], [b]) => a - b));
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
      for (const record of page.data) copy.set(record.id, record);
      for (const id of page.meta.removed_ids) copy.delete(id);
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
    const secondOf = (value: string) => Number(Buffer.from(value.replace(/^v1\./, ''), 'base64url').toString('utf8').split(':')[0]);
    expect(secondOf(last.meta.next_changed_since)).toBeGreaterThanOrEqual(secondOf(token));
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

describe('change feed positions in the future', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  const token = (second: number, afterId = 0) => `v1.${Buffer.from(`${second}:${afterId}`).toString('base64url')}`;
  const nowSecond = () => Math.floor(Date.now() / 1000);

  // A forged token of the year 33658 (the largest second a token can hold), a date-time next year, a
  // token ten minutes ahead: none can be a position a gateway gave, and a sync keeping one would never
  // see another change. Refused in the error envelope, as JSON pages and as exports, never echoed back.
  it.each([
    ['a forged token of the year 33658', () => token(999_999_999_999, 7)],
    ['a token ten minutes ahead', () => token(nowSecond() + 600)],
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
