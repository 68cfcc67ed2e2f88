/**
 * Related records in one call (issue 30), over real HTTP against the sandbox. For every relation of
 * the catalogue, the expanded answer is compared with what a client gets by calling both routes and
 * joining by hand: the related resource's detail route for a `to_one` relation, its list route
 * filtered on the link for a `to_many` one (same records, same values, same order, the same bound and
 * paging link). A page of 200 records costs the ERP the same calls as a page of 10 (never N+1);
 * a relation the account cannot read is null, named and logged; the bound per record is never a
 * silent cut; the rate-limit cost and the response cache's entries are the expanded answer's own.
 */
import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import type { RelationSpec, ResourceSpec } from '@ops-data-gateway/gateway/runtime/resource-spec';
import { ErpWriter } from '../support/erp-writes';
import { EXPAND_PER_RECORD as PER_RECORD, expectExpandedIsTheJoin } from '../support/expand-join';
import { expectDocumented } from '../support/openapi-responses';
import { startStack, type Stack } from '../support/stack';

type Row = Record<string, unknown> & { id: number };
interface Page {
  data: Row[];
  meta: {
    total?: number;
    unreadable_fields?: string[];
    expanded?: Record<string, { resource: string; per_record_max: number; truncated: { id: number; total: number | null; next: string }[] }>;
  };
}

/** Parents compared per relation: each costs the hand join one or two requests. */
const PARENTS = 12;
const byPath = new Map(RESOURCES.map((r) => [r.path, r]));
const RELATIONS: readonly (readonly [string, ResourceSpec, RelationSpec])[] = RESOURCES.flatMap((resource) =>
  resource.relations.map((relation) => [`${resource.path} ${relation.name}`, resource, relation] as const),
);

describe('expand on the sandbox (JSON-2, Odoo 19)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ transport: 'json2', version: 19 });
  });
  afterAll(async () => {
    await stack.close();
  });

  const get = async <T = Page>(path: string, status = 200): Promise<T> => {
    const res = await stack.get(path);
    expect([path, res.status]).toEqual([path, status]);
    return res.body as T;
  };

  it('the catalogue declares the pairs the issue names, and relations both ways for each link', () => {
    const names = RELATIONS.map(([name]) => name);
    for (const name of [
      'purchase/orders lines',
      'purchase/order-lines order',
      'events/events registrations',
      'events/registrations event_record',
      'fleet/vehicles fuel_logs',
      'fleet/vehicles services',
      'travel/trips stages',
      'travel/trips expenses',
      'approvals/requests lines',
      'approvals/request-lines request',
    ])
      expect(names).toContain(name);
    for (const [, resource, relation] of RELATIONS) {
      const other = byPath.get(relation.target) as ResourceSpec;
      const inverse = other.relations.find((r) => r.target === resource.path && r.via === relation.via && r.kind !== relation.kind);
      expect([resource.path, relation.name, inverse !== undefined]).toEqual([resource.path, relation.name, true]);
    }
  });

  it.each(RELATIONS)('%s: the expanded answer is the two routes joined by hand', async (_name, resource, relation) => {
    // Every answer is also held to the OpenAPI document (the relation's embedded schema, meta.expanded).
    const get = (path: string) => stack.get(path).then((res) => ({ status: expectDocumented(path, res).status, body: res.body as unknown }));
    const compared = await expectExpandedIsTheJoin(get, resource, relation, PARENTS);
    expect(compared).toBeGreaterThan(0);
  });

  it('the related records have their own field selection; to_one reads its link even when fields= leaves it out', async () => {
    const orders = await get('/api/v1/purchase/orders?limit=5&fields=reference&expand=lines(price_total,description)');
    for (const order of orders.data) {
      expect(Object.keys(order).sort()).toEqual(['id', 'lines', 'reference']);
      for (const line of order['lines'] as Row[]) expect(Object.keys(line).sort()).toEqual(['description', 'id', 'price_total']);
    }
    const lines = await get('/api/v1/purchase/order-lines?limit=5&fields=description&expand=order(reference)');
    const full = await get('/api/v1/purchase/order-lines?limit=5&fields=order_id');
    lines.data.forEach((line, i) => {
      expect(Object.keys(line).sort()).toEqual(['description', 'id', 'order']);
      const orderId = full.data[i]?.['order_id'];
      expect(line['order']).toEqual(orderId === null ? null : { id: orderId, reference: expect.any(String) });
    });
  });

  it('costs one ERP read per relation per page, whatever the page size (never N+1)', async () => {
    const callsOf = async (path: string) => {
      const before = stack.erpCalls.length;
      await get(path);
      return stack.erpCalls.slice(before).map((call) => `${call.model}.${call.method}`);
    };
    // The key check and the read rights are asked once, then cached with the key.
    await callsOf('/api/v1/purchase/orders?limit=1&expand=lines');
    await callsOf('/api/v1/fleet/vehicles?limit=1&expand=fuel_logs,services');
    const small = await callsOf('/api/v1/purchase/orders?limit=10&expand=lines');
    const large = await callsOf('/api/v1/purchase/orders?limit=200&expand=lines');
    expect(large.sort()).toEqual(small.sort());
    expect(large.filter((call) => call === 'purchase.order.line.search_read')).toHaveLength(1);
    // The lines' own related values cost what they cost on the lines' list route.
    const linesAlone = await callsOf('/api/v1/purchase/order-lines?limit=200&total=false');
    const ordersAlone = await callsOf('/api/v1/purchase/orders?limit=200');
    expect(large.length).toBe(linesAlone.length + ordersAlone.length);
    const both = await callsOf('/api/v1/fleet/vehicles?limit=200&expand=fuel_logs,services');
    expect(both.filter((call) => call === 'fleet.fuel.log.search_read')).toHaveLength(1);
    expect(both.filter((call) => call === 'fleet.vehicle.log.services.search_read')).toHaveLength(1);
  });

  it('refuses what it cannot do, naming what the resource offers', async () => {
    const error = async (path: string) => ((await stack.get(path)).body as { error: { code: string; message: string } }).error;
    expect(await error('/api/v1/purchase/orders?expand=nope')).toEqual({ code: 'bad_request', message: expect.stringContaining('its relations are lines') });
    expect((await error('/api/v1/purchase/orders?expand=lines(nope)')).message).toContain("Unknown field 'nope'");
    expect((await error('/api/v1/purchase/orders?expand=lines,lines')).message).toContain('named twice');
    expect((await error('/api/v1/purchase/orders?expand=lines(order(id))')).message).toContain('not expanded further');
    expect((await error('/api/v1/purchase/orders?expand=lines&format=csv')).message).toContain('JSON pages only');
    expect((await error('/api/v1/purchase/orders?expand=lines&changed_since=2020-01-01T00:00:00Z')).message).toContain('changed_since');
    expect((await error('/api/v1/stock/pickings/1?expand=x')).message).toContain('has no relations');
    for (const path of ['/api/v1/purchase/orders?expand=', '/api/v1/purchase/orders?expand=lines&expand=lines']) expect((await stack.get(path)).status).toBe(422);
  });
});

describe('expand: the bound per record, rights, cache and cost', () => {
  let stack: Stack;
  let erp: ErpWriter;
  let order: Row;
  beforeAll(async () => {
    stack = await startStack({ transport: 'auto', version: 17, env: { CACHE_DEFAULT_TTL_S: '300', RATE_LIMIT_POINTS: '1000', RATE_LIMIT_COSTS: 'expanded=7' } });
    erp = new ErpWriter(stack.dbPath);
    // An order with more lines than the bound: 60 copies of one of its lines.
    const lines = (await stack.get('/api/v1/purchase/order-lines?limit=1&fields=order_id')).body as Page;
    const line = lines.data[0] as Row;
    for (let i = 0; i < 60; i++) erp.copy('purchase.order.line', line.id, {});
    order = { id: line['order_id'] as number };
  });
  afterAll(async () => {
    erp.setReadRight('ops_api.group_data_reader', 'purchase.order.line', true);
    erp.close();
    await stack.close();
  });

  it('cuts a long list at the bound, says so with the count and the link that pages the rest', async () => {
    const expanded = (await stack.get(`/api/v1/purchase/orders/${order.id}?expand=lines`)).body as { data: Row; meta: Page['meta'] };
    const all = (await stack.get(`/api/v1/purchase/order-lines?order_id=${order.id}&limit=200`)).body as Page;
    expect(all.meta.total).toBeGreaterThan(60);
    expect(expanded.data['lines']).toEqual(all.data.slice(0, PER_RECORD));
    const next = `/api/v1/purchase/order-lines?order_id=${order.id}&offset=${PER_RECORD}`;
    expect(expanded.meta.expanded).toEqual({ lines: { resource: 'purchase/order-lines', per_record_max: PER_RECORD, truncated: [{ id: order.id, total: all.meta.total, next }] } });
    // The link pages exactly the rest.
    const rest = (await stack.get(`${next}&limit=200`)).body as Page;
    expect([...(expanded.data['lines'] as Row[]), ...rest.data]).toEqual(all.data);
  });

  it('charges its own cost, and is its own entry of the response cache', async () => {
    const plain = await stack.get('/api/v1/purchase/orders?limit=3');
    const first = await stack.get('/api/v1/purchase/orders?limit=3&expand=lines(id)');
    const again = await stack.get('/api/v1/purchase/orders?expand=lines(id)&limit=3');
    expect(first.headers['etag']).not.toBe(plain.headers['etag']);
    expect(again.headers['etag']).toBe(first.headers['etag']);
    expect(again.body).toEqual(first.body);
    expect((first.body as Page).data.every((r) => Array.isArray(r['lines']))).toBe(true);
    const remaining = (res: { headers: Record<string, string> }) => Number(/r=(\d+)/.exec(res.headers['ratelimit'] ?? '')?.[1] ?? res.headers['ratelimit-remaining']);
    const before = await stack.get('/api/v1/purchase/orders?limit=4');
    const after = await stack.get('/api/v1/purchase/orders?limit=4&expand=lines');
    expect(remaining(before) - remaining(after)).toBe(7);
  });

  it('answers a relation the account cannot read as null, named in unreadable_fields, and logs it', async () => {
    erp.setReadRight('ops_api.group_data_reader', 'purchase.order.line', false);
    const res = await stack.get('/api/v1/purchase/orders?limit=5&expand=lines&fields=reference');
    expect(res.status).toBe(200);
    const page = res.body as Page;
    expect(page.data.map((r) => r['lines'])).toEqual(page.data.map(() => null));
    expect(page.meta.unreadable_fields).toEqual(['lines']);
    expect(res.headers['x-unreadable-fields']).toBe('lines');
    expect(stack.logLines.some((line) => line.includes('unreadable relation') && line.includes('"lines"'))).toBe(true);
    erp.setReadRight('ops_api.group_data_reader', 'purchase.order.line', true);
  });
});
