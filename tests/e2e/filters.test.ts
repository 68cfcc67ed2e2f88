/**
 * Every named filter of every resource, over each transport: a filter on an exposed field is tried
 * with a value taken from the data and every record returned must satisfy it; a filter on an ERP
 * field that is not exposed must answer 200 with no more records than the unfiltered list.
 */
import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import { datetimeBounds, EXAMPLE, exposedField, probe } from '../support/filter-probes';
import { expectDocumented } from '../support/openapi-responses';
import { startStack, TRANSPORTS, type Stack } from '../support/stack';

type Row = Record<string, unknown>;

describe.each(TRANSPORTS)('filters, %s', (_name, transport, version) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ transport, version });
  });
  afterAll(() => stack.close());

  const get = async (path: string) => {
    const res = expectDocumented(path, await stack.get(path));
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { data: Row[]; meta: { total: number } };
  };

  it.each(RESOURCES.map((r) => [r.path, r] as const))('%s: every filter narrows the list correctly', async (_path, resource) => {
    const all = await get(`/api/v1/${resource.path}?limit=200`);
    for (const filter of resource.filters) {
      const field = exposedField(resource, filter);
      const sample = field && all.data.map((row) => row[field.name]).find((v) => v !== null && v !== '' && v !== undefined);
      const attempt = field && probe(filter, field, sample);
      if (field && attempt) {
        const [value, holds] = attempt;
        const page = await get(`/api/v1/${resource.path}?${filter.name}=${encodeURIComponent(value)}&limit=200`);
        expect([filter.name, page.data.length > 0]).toEqual([filter.name, true]);
        const wrong = page.data.filter((row) => !holds(row[field.name]));
        expect([filter.name, value, wrong.map((row) => row[field.name])]).toEqual([filter.name, value, []]);
        expect(page.meta.total).toBeLessThanOrEqual(all.meta.total);
      } else {
        const page = await get(`/api/v1/${resource.path}?${filter.name}=${encodeURIComponent(EXAMPLE[filter.type](filter))}&limit=1`);
        expect([filter.name, page.meta.total <= all.meta.total]).toEqual([filter.name, true]);
      }
    }
  });

  // The sandbox keeps fractions of a second as Odoo does (create_date, write_date and the datetimes
  // code writes), and answers them cut to the second: a bound equal to what a record shows must
  // still take it in. Judged on every record, by the value the client sees; the count is the ERP's.
  // On 17 (`<=` compares the stored fraction) and on 19 (which rewrites `<=` itself) over JSON-2: the
  // bounds are compiled before any transport, so the other two add nothing.
  const datetimeFiltered = version === 17 || transport === 'json2' ? RESOURCES.filter((r) => r.filters.some((f) => f.type === 'date-time' && exposedField(r, f))) : [];
  if (datetimeFiltered.length)
    it.each(datetimeFiltered.map((r) => [r.path, r] as const))('%s: a date-time bound takes in every record shown at it, and no other', async (_path, resource) => {
      for (const filter of resource.filters.filter((f) => f.type === 'date-time')) {
        const field = exposedField(resource, filter);
        if (!field) continue;
        const shown: unknown[] = [];
        for (let cursor: number | null = 0; cursor !== null; ) {
          const page = (await get(`/api/v1/${resource.path}?since_id=${cursor}&limit=200&total=false&fields=${field.name}`)) as unknown as {
            data: Row[];
            meta: { next_since_id: number | null };
          };
          shown.push(...page.data.map((row) => row[field.name]));
          cursor = page.meta.next_since_id;
        }
        const bounds = datetimeBounds(filter, shown);
        expect([filter.name, bounds.length]).toEqual([filter.name, 6]);
        for (const { value, holds } of bounds) {
          const page = await get(`/api/v1/${resource.path}?${filter.name}=${encodeURIComponent(value)}&limit=200&fields=${field.name}`);
          expect([filter.name, value, page.meta.total]).toEqual([filter.name, value, shown.filter(holds).length]);
          expect([filter.name, value, page.data.filter((row) => !holds(row[field.name])).map((row) => row[field.name])]).toEqual([filter.name, value, []]);
        }
      }
    });

  it('matches ilike text literally: % and _ are not wildcards (D17)', async () => {
    const percent = await get('/api/v1/fleet/vehicles?plate=%25&limit=5');
    expect(percent.meta.total).toBe(0);
    const underscore = await get('/api/v1/fleet/vehicles?plate=_&limit=5');
    expect(underscore.meta.total).toBe(0);
    const dash = await get('/api/v1/fleet/vehicles?plate=-&limit=5');
    expect(dash.meta.total).toBeGreaterThan(0);
  });

  it('takes several ids in an in-filter, comma-separated or repeated (D20)', async () => {
    const tickets = await get('/api/v1/it/tickets?limit=200&fields=assignees');
    expect(tickets.meta.total).toBeGreaterThan(0);
    const comma = await get('/api/v1/it/tickets?assignee_id=1,2,3,4,5,6&limit=200&fields=id');
    const repeated = await get('/api/v1/it/tickets?assignee_id=1&assignee_id=2&assignee_id=3&assignee_id=4&assignee_id=5&assignee_id=6&limit=200&fields=id');
    expect(comma.meta.total).toBeGreaterThan(0);
    expect(repeated.data.map((r) => r['id'])).toEqual(comma.data.map((r) => r['id']));
    const one = await get('/api/v1/it/tickets?assignee_id=1&limit=200&fields=id');
    expect(one.meta.total).toBeLessThanOrEqual(comma.meta.total);
  });

  it('reads a date-only *_before on a datetime field through the end of that day (D15)', async () => {
    const sample = await get('/api/v1/fleet/reservations?limit=1&fields=start');
    const start = sample.data[0]?.['start'] as string;
    const day = start.slice(0, 10);
    const through = await get(`/api/v1/fleet/reservations?start_after=${day}&start_before=${day}&limit=200&fields=start`);
    expect(through.data.map((r) => r['start'])).toContain(start);
    for (const row of through.data) expect(String(row['start']).slice(0, 10)).toBe(day);
  });
});
