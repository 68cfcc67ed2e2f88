/**
 * Paging by offset and by cursor walk a whole resource and meet the same records; total=false,
 * order, fields and limit clamping behave as the spec says; over each transport.
 */
import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import { expectDocumented } from '../support/openapi-responses';
import { expectSameRecords, walkBothWays, type Page } from '../support/paging-walk';
import { startStack, TRANSPORTS, type Stack } from '../support/stack';

/** One resource per domain, the largest first. */
const WALKED = [
  'purchase/orders',
  'fleet/vehicles',
  'events/registrations',
  'approvals/approvers',
  'it/tickets',
  'space/reservations',
  'sprint/blockers',
  'travel/trips',
  'electricity/readings',
  'analytic/accounts',
  'stock/pickings',
];

describe.each(TRANSPORTS)('paging, %s', (_name, transport, version) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ transport, version });
  });
  afterAll(() => stack.close());

  const get = async (path: string): Promise<Page> => {
    const res = expectDocumented(path, await stack.get(path));
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Page;
  };

  it.each(WALKED)('%s: offset paging and cursor paging meet the same records, total of them', async (path) => {
    const walks = await walkBothWays(get, path);
    expect(walks.total).toBeGreaterThan(20);
    expectSameRecords(walks);
  });

  it('ends a cursor walk with next_since_id null, and gives the last id when more remain', async () => {
    const page = await get('/api/v1/purchase/orders?since_id=0&limit=10&fields=id');
    expect(page.meta.next_since_id).toBe(page.data[9]?.id);
    const highest = (await get('/api/v1/purchase/orders?order=id%20desc&limit=3&fields=id')).data.map((r) => r.id);
    const tail = await get(`/api/v1/purchase/orders?since_id=${highest[2]}&limit=5&fields=id`);
    expect(tail.data.map((r) => r.id)).toEqual([highest[1], highest[0]]);
    expect(tail.meta.next_since_id).toBeNull();
    const end = await get(`/api/v1/purchase/orders?since_id=${highest[0]}&limit=5&fields=id`);
    expect(end).toEqual({ data: [], meta: { total: expect.any(Number), next_since_id: null } });
  });

  it('omits meta.total with total=false', async () => {
    const page = await get('/api/v1/purchase/orders?total=false&limit=2');
    expect(page.meta).toEqual({});
    expect(page.data).toHaveLength(2);
  });

  it('lowers a limit above 200 to 200, without error', async () => {
    const page = await get('/api/v1/purchase/orders?limit=100000&fields=id');
    expect(page.data).toHaveLength(200);
    expect(page.meta.total).toBeGreaterThan(200);
  });

  it('orders by the default order, then by id; or by the order asked, asc or desc', async () => {
    const dated = await get('/api/v1/purchase/orders?limit=200&fields=date_order');
    const dates = dated.data.map((r) => r['date_order'] as string);
    expect(dates).toEqual([...dates].sort().reverse());
    const asc = await get('/api/v1/purchase/orders?limit=200&order=amount_total&fields=amount_total');
    const amounts = asc.data.map((r) => r['amount_total'] as number);
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    const desc = await get('/api/v1/purchase/orders?limit=50&order=amount_total%20DESC,reference&fields=amount_total');
    const down = desc.data.map((r) => r['amount_total'] as number);
    expect(down).toEqual([...down].sort((a, b) => b - a));
  });

  it('returns the fields asked (and id), in list and detail', async () => {
    const page = await get('/api/v1/fleet/vehicles?limit=3&fields=plate,fuel_type');
    for (const row of page.data) expect(Object.keys(row)).toEqual(['id', 'plate', 'fuel_type']);
    const detail = expectDocumented('/api/v1/fleet/vehicles/x?fields=plate', await stack.get(`/api/v1/fleet/vehicles/${page.data[0]?.id}?fields=plate`));
    expect(detail.body).toEqual({ data: { id: page.data[0]?.id, plate: page.data[0]?.['plate'] } });
  });

  it('serves every route of the catalogue, list and detail', async () => {
    for (const resource of RESOURCES) {
      const list = await get(`/api/v1/${resource.path}?limit=2`);
      expect([resource.path, list.data.length]).toEqual([resource.path, 2]);
      const id = list.data[0]?.id as number;
      const detail = expectDocumented(`/api/v1/${resource.path}/${id}`, await stack.get(`/api/v1/${resource.path}/${id}`));
      expect([resource.path, detail.status, detail.body.data]).toEqual([resource.path, 200, list.data[0]]);
    }
  });
});
