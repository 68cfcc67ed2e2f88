/**
 * The aggregate route over real HTTP against the sandbox ERP: for every resource with a dimension,
 * each dimension's groups (counts, sums, averages, extremes, distinct counts) compared with the same
 * grouping computed by DuckDB from the NDJSON export of the same filters; the route's own behaviour
 * (paging, order, buckets, many2one ids, CSV/NDJSON, cache and ETag, cost kind, errors) on purchase orders;
 * one grouped read per answer over each transport and version.
 */
import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import type { ResourceSpec } from '@ops-data-gateway/gateway/runtime/resource-spec';
import { asText } from '../support/export-loaders';
import { askableDimensions, duckDbGroups, routeGroups, type AskedDimension, type Group } from '../support/aggregate-oracle';
import { startStack, TRANSPORTS, type Stack } from '../support/stack';

const close = (a: number | null, b: number | null): boolean => (a === null || b === null ? a === b : Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b)));

/** The measures asked of a resource: its numbers' four aggregators and distinct ids, at most 15 (with count: 16). */
function measuresOf(resource: ResourceSpec): { compared: string[]; names: string[] } {
  const compared: string[] = [];
  const names: string[] = [];
  for (const measure of resource.aggregate?.measures ?? []) {
    const field = resource.fields.find((f) => f.name === measure.name);
    for (const aggregator of measure.aggregators) {
      const spelling = `${measure.name}:${aggregator}`;
      // A distinct count of a many2one's names: the export holds names, and two records may share one.
      if (aggregator === 'count_distinct' && field?.type !== 'integer') names.push(spelling);
      else compared.push(spelling);
    }
  }
  return { compared: compared.slice(0, 12), names: names.slice(0, 3) };
}

describe('aggregate route', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  const allGroups = async (path: string, query: string): Promise<Group[]> => {
    const groups: Group[] = [];
    for (let offset: number | null = 0; offset !== null; ) {
      const res = await stack.get(`/api/v1/${path}/aggregate?${query}&limit=1000&offset=${offset}`);
      expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
      groups.push(...res.body.data);
      offset = res.body.meta.next_offset;
    }
    return groups;
  };

  const ndjson = async (path: string, filters: string): Promise<string> => {
    const res = await stack.get(`/api/v1/${path}?format=ndjson${filters}`).buffer(true).parse(asText);
    expect(res.status).toBe(200);
    return res.body as string;
  };

  const compare = async (resource: ResourceSpec, dimensions: AskedDimension[], filters: string, exported: string) => {
    const { compared, names } = measuresOf(resource);
    const query = `group_by=${encodeURIComponent(dimensions.map((d) => d.spelling).join(','))}&measures=${encodeURIComponent(['count', ...compared, ...names].join(','))}${filters}`;
    const groups = await allGroups(resource.path, query);
    const got = routeGroups(groups, dimensions, compared);
    const expected = await duckDbGroups(exported, dimensions, compared);
    const where = `${resource.path}?${query}`;
    expect({ where, keys: [...got.keys()].sort() }).toEqual({ where, keys: [...expected.keys()].sort() });
    for (const [key, want] of expected) {
      const have = got.get(key) as { count: number; measures: (number | null)[]; merged: number };
      expect({ where, key, count: have.count }).toEqual({ where, key, count: want.count });
      compared.forEach((spelling, i) => {
        // The average or distinct count of groups merged by name is not that of their records: compared per group only.
        if ((spelling.endsWith(':avg') || spelling.endsWith(':count_distinct')) && have.merged > 1) return;
        const [a, b] = [have.measures[i] ?? null, want.measures[i] ?? null];
        if (!close(a, b)) expect({ where, key, spelling, value: a }).toEqual({ where, key, spelling, value: b });
      });
    }
    for (const group of groups) for (const spelling of names) expect(group[spelling] as number).toBeLessThanOrEqual(group['count'] as number);
    return groups;
  };

  const grouped = RESOURCES.filter((r) => (r.aggregate?.dimensions.length ?? 0) > 0);
  it('every resource but those the catalogue says otherwise has a dimension', () => {
    expect(grouped.length).toBeGreaterThan(RESOURCES.length / 2);
  });

  it.each(grouped.map((r) => [r.path, r] as const))('%s: each dimension, grouped by the ERP, equals DuckDB over the NDJSON export', async (_path, resource) => {
    const exported = await ndjson(resource.path, '');
    const dimensions = askableDimensions(resource);
    for (const dimension of dimensions) await compare(resource, [dimension], '', exported);
    // Two dimensions at once, and no dimension (one group of everything).
    const second = dimensions.find((d) => d.dimension.erp !== dimensions[0]?.dimension.erp);
    if (second) await compare(resource, [dimensions[0] as AskedDimension, second], '', exported);
    const [all] = await compare(resource, [], '', exported);
    expect(all?.['count']).toBe(exported.split('\n').filter(Boolean).length);
    // The resource's first enum filter, applied as on its list.
    const filter = resource.filters.find((f) => f.type === 'enum');
    if (filter) {
      const filters = `&${filter.name}=${encodeURIComponent(filter.values?.[0] ?? '')}`;
      await compare(resource, dimensions.slice(0, 1), filters, await ndjson(resource.path, filters));
    }
  });

  describe('purchase/orders', () => {
    it('answers each dimension under its asked spelling, the many2one id and the bucket range beside it', async () => {
      const res = await stack.get('/api/v1/purchase/orders/aggregate?group_by=state,vendor,date_order:month&measures=amount_total:sum&limit=1000');
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ limit: 1000, offset: 0, next_offset: null, time_zone: 'UTC' });
      for (const group of res.body.data as Group[]) {
        expect(Object.keys(group).sort()).toEqual(
          ['amount_total:sum', 'count', 'date_order:month', 'date_order:month:from', 'date_order:month:to', 'state', 'vendor', 'vendor:id'].sort(),
        );
        if (group['date_order:month'] !== null) {
          const label = group['date_order:month'] as string;
          expect(label).toMatch(/^\d{4}-\d{2}$/);
          expect(group['date_order:month:from']).toBe(`${label}-01T00:00:00Z`);
          const next = new Date(`${label}-01T00:00:00Z`);
          next.setUTCMonth(next.getUTCMonth() + 1);
          expect(group['date_order:month:to']).toBe(next.toISOString().replace('.000', ''));
        }
      }
      // The id of a vendor group is the vendor_id the list gives its orders.
      const group = (res.body.data as Group[]).find((g) => g['vendor:id'] !== null) as Group;
      const list = await stack.get(`/api/v1/purchase/orders?vendor_id=${group['vendor:id'] as number}&limit=1&fields=vendor`);
      expect(list.body.data[0].vendor).toBe(group['vendor']);
    });

    it('orders by a measure or the count, pages with next_offset and never cuts silently', async () => {
      const byCount = await stack.get('/api/v1/purchase/orders/aggregate?group_by=vendor&order=count desc&limit=1000');
      const counts = (byCount.body.data as Group[]).map((g) => g['count'] as number);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
      expect(counts.length).toBeGreaterThan(3);
      const pages: Group[] = [];
      let offset: number | null = 0;
      let calls = 0;
      while (offset !== null) {
        const page = await stack.get(`/api/v1/purchase/orders/aggregate?group_by=vendor&order=count desc&limit=2&offset=${offset}`);
        expect(page.body.data.length).toBeLessThanOrEqual(2);
        pages.push(...page.body.data);
        offset = page.body.meta.next_offset;
        calls++;
      }
      expect(calls).toBe(Math.ceil(counts.length / 2));
      expect(pages.map((g) => g['vendor:id']).sort()).toEqual((byCount.body.data as Group[]).map((g) => g['vendor:id']).sort());
      const bySum = await stack.get('/api/v1/purchase/orders/aggregate?group_by=state&measures=amount_total:sum&order=amount_total:sum desc');
      const sums = (bySum.body.data as Group[]).map((g) => g['amount_total:sum'] as number);
      expect(sums).toEqual([...sums].sort((a, b) => b - a));
    });

    it('gives CSV and NDJSON of the same groups', async () => {
      const json = await stack.get('/api/v1/purchase/orders/aggregate?group_by=state,vendor&measures=amount_total:sum');
      const nd = await stack.get('/api/v1/purchase/orders/aggregate?group_by=state,vendor&measures=amount_total:sum&format=ndjson').buffer(true).parse(asText);
      expect(nd.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
      expect(
        (nd.body as string)
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line)),
      ).toEqual(json.body.data);
      const csv = await stack.get('/api/v1/purchase/orders/aggregate?group_by=state,vendor&measures=amount_total:sum').set('Accept', 'text/csv').buffer(true).parse(asText);
      expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="purchase-orders-aggregate-\d{8}T\d{6}Z\.csv"$/);
      const lines = (csv.body as string).split('\r\n');
      expect(lines[0]).toBe('state,vendor,vendor:id,count,amount_total:sum');
      expect(lines.length - 2).toBe(json.body.data.length);
    });

    it.each([
      ['group_by=no_such', 400, 'bad_request', /Cannot group by 'no_such'/],
      ['group_by=state:month', 422, 'invalid_value', /only a date or date-time dimension takes a granularity/],
      ['group_by=date_order', 422, 'invalid_value', /group by it with a granularity/],
      ['group_by=date_order:decade', 422, 'invalid_value', /granularity of a date-time is one of day, week, month, quarter, year/],
      ['measures=state:sum', 422, 'invalid_value', /'state' cannot be measured/],
      ['measures=amount_total:median', 422, 'invalid_value', /amount_total is measured with amount_total:sum/],
      ['measures=amount_total', 422, 'invalid_value', /amount_total is measured with/],
      ['measures=nothing:sum', 400, 'bad_request', /Unknown measure/],
      ['limit=1001', 422, 'invalid_value', /limit must be an integer from 1 to 1000/],
      ['limit=0', 422, 'invalid_value', /limit must be an integer from 1 to 1000/],
      ['group_by=state,vendor,currency,company,department', 422, 'invalid_value', /at most 4 dimensions/],
      ['group_by=state,state', 400, 'bad_request', /twice/],
      ['group_by=state&order=amount_total:sum', 400, 'bad_request', /Cannot order by/],
      ['measures=amount_total:avg&order=amount_total:avg desc', 400, 'bad_request', /Cannot order by 'amount_total:avg'/],
      ['buyer=3', 400, 'bad_request', /Unknown parameter 'buyer'/],
      ['group_by=buyer', 400, 'bad_request', /Cannot group by 'buyer'/],
      ['state=nope', 422, 'invalid_value', /state must be one of/],
      ['format=ndjson&csv_formulas=raw', 400, 'bad_request', /csv_formulas/],
    ])('refuses %s in the envelope', async (query, status, code, message) => {
      const res = await stack.get(`/api/v1/purchase/orders/aggregate?${query}`);
      expect(res.status).toBe(status);
      expect(res.body.error.code).toBe(code);
      expect(res.body.error.message).toMatch(message);
    });

    it('makes one grouped read per answer, records it under its route template, and needs a key', async () => {
      const before = stack.erpCalls.length;
      const res = await stack.get('/api/v1/purchase/orders/aggregate?group_by=state');
      expect(res.status).toBe(200);
      const calls = stack.erpCalls.slice(before).filter((c) => c.model === 'purchase.order' && c.method !== 'has_access');
      expect(calls.map((c) => c.method)).toEqual(['formatted_read_group']);
      expect(calls[0]?.kwargs['context']).toMatchObject({ tz: 'UTC' });
      expect((await stack.get('/api/v1/purchase/orders/aggregate', null)).status).toBe(401);
      const line = stack.logLines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => typeof l['route'] === 'string' && l['route'] === '/api/v1/purchase/orders/aggregate');
      expect(line?.['route']).toBe('/api/v1/purchase/orders/aggregate');
    });
  });
});

describe.each(TRANSPORTS)('aggregate over %s', (_name, transport, version) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ transport, version });
  });
  afterAll(() => stack.close());

  it('answers the same groups, with one read_group or formatted_read_group call', async () => {
    const before = stack.erpCalls.length;
    const res = await stack.get(
      '/api/v1/purchase/orders/aggregate?group_by=state,date_order:week&measures=amount_total:sum,vendor_id:count_distinct,amount_total:max&order=amount_total:sum desc&limit=1000',
    );
    expect(res.body.meta.next_offset).toBeNull();
    expect(res.status).toBe(200);
    const calls = stack.erpCalls.slice(before).filter((c) => c.model === 'purchase.order' && c.method.endsWith('read_group'));
    expect(calls.map((c) => c.method)).toEqual([version >= 19 ? 'formatted_read_group' : 'read_group']);
    const exported = await stack.get('/api/v1/purchase/orders?format=ndjson').buffer(true).parse(asText);
    const dimensions = askableDimensions(RESOURCES.find((r) => r.path === 'purchase/orders') as ResourceSpec);
    const state = dimensions.find((d) => d.dimension.name === 'state') as AskedDimension;
    const dateOrder = dimensions.find((d) => d.dimension.name === 'date_order') as AskedDimension;
    const asked = [state, { ...dateOrder, spelling: 'date_order:week', granularity: 'week' }];
    const measures = ['amount_total:sum', 'vendor_id:count_distinct', 'amount_total:max'];
    const expected = await duckDbGroups(exported.body as string, asked, measures);
    const got = routeGroups(res.body.data, asked, measures);
    expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [key, want] of expected) {
      const have = got.get(key);
      expect(have?.count).toBe(want.count);
      for (const [i, value] of want.measures.entries()) expect({ key, i, close: close(have?.measures[i] ?? null, value) }).toEqual({ key, i, close: true });
    }
  });
});

describe('aggregate answers through the response cache, conditional and charged as aggregate', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      env: { CACHE_DEFAULT_TTL_S: '60', RATE_LIMIT_POINTS: '100', RATE_LIMIT_WINDOW_SECONDS: '600', RATE_LIMIT_COSTS: 'aggregate=7,cached=2,not_modified=1' },
    });
  });
  afterAll(() => stack.close());

  const remaining = (header: unknown) => Number(/^"per-key";r=(\d+);t=(\d+)$/.exec(String(header))?.[1]);

  it('reads the ERP once for two spellings of one question, answers 304 to its ETag, and charges each outcome its cost', async () => {
    const grouped = () => stack.erpCalls.filter((c) => c.method === 'formatted_read_group').length;
    const first = await stack.get('/api/v1/purchase/orders/aggregate?group_by=state&measures=amount_total:sum&state=purchase');
    expect(first.status).toBe(200);
    expect(first.headers['server-timing']).toMatch(/cache;desc=miss/);
    expect(first.headers['cache-control']).toBe('private, max-age=60');
    const afterFirst = remaining(first.headers['ratelimit']);
    const calls = grouped();
    // The same question, its parameters in another order and spelling: one cache entry.
    const second = await stack.get('/api/v1/purchase/orders/aggregate?state=purchase&measures=amount_total:sum&group_by=%20state&limit=100');
    expect(second.status).toBe(200);
    expect(second.headers['server-timing']).toMatch(/cache;desc=hit/);
    expect(second.body).toEqual(first.body);
    expect(grouped()).toBe(calls);
    // RateLimit says the points left after the up-front charge (aggregate: 7); the answer's outcome
    // settles it afterwards (cached: 2, 304: 1), which the next request's header shows.
    expect(remaining(second.headers['ratelimit'])).toBe(afterFirst - 7);
    const notModified = await stack
      .get('/api/v1/purchase/orders/aggregate?group_by=state&measures=amount_total:sum&state=purchase')
      .set('If-None-Match', first.headers['etag'] as string);
    expect(notModified.status).toBe(304);
    expect(remaining(notModified.headers['ratelimit'])).toBe(afterFirst - 2 - 7);
    // Another question is another entry, charged as an aggregate.
    const other = await stack.get('/api/v1/purchase/orders/aggregate?group_by=vendor');
    expect(other.status).toBe(200);
    expect(grouped()).toBe(calls + 1);
    expect(remaining(other.headers['ratelimit'])).toBe(afterFirst - 10);
  });
});
