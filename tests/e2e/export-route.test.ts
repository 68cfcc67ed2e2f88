/**
 * The export route, `GET /api/v1/<domain>/<resource>/export`, over real HTTP against the sandbox:
 * the format by `format`, by `Accept`, CSV by default; the same file the list route gives to the same
 * request (its compatibility: `format=` and `Accept` there keep answering exports, held by
 * expectDocumented to the export operation); what it refuses; its change feed; every answer checked
 * against the OpenAPI document. Exports' content, loaders and paging: exports.test.ts.
 */
import { asText } from '../support/export-loaders';
import { expectDocumented } from '../support/openapi-responses';
import { startStack, type Stack } from '../support/stack';

describe('the export route', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ env: { EXPORT_PAGE_SIZE: '25' } });
  });
  afterAll(() => stack.close());

  const text = async (path: string, accept?: string) => {
    const test = stack.get(path);
    const res = await (accept ? test.set('Accept', accept) : test).buffer(true).parse(asText);
    const body = String(res.headers['content-type']).startsWith('application/json') ? JSON.parse(res.body as string) : res.body;
    expect([path, res.status]).toEqual([path, 200]);
    return expectDocumented(path, { status: res.status, headers: res.headers, body: body as unknown, text: res.body as string });
  };
  const json = async (path: string) => {
    const res = await stack.get(path);
    return expectDocumented(path, { status: res.status, headers: res.headers, body: res.body as { error?: { code: string; message: string } }, text: res.text });
  };

  it('answers CSV by default, NDJSON by format or Accept, and the records are the JSON list', async () => {
    const ids: number[] = [];
    for (let cursor: number | null = 0; cursor !== null; ) {
      const page = (await stack.get(`/api/v1/fleet/vehicles?since_id=${cursor}&limit=200&total=false`)).body as { data: { id: number }[]; meta: { next_since_id: number | null } };
      ids.push(...page.data.map((record) => record.id));
      cursor = page.meta.next_since_id;
    }
    expect(ids.length).toBeGreaterThan(25);
    const csv = await text('/api/v1/fleet/vehicles/export?fields=id');
    expect([csv.status, csv.headers['content-type']]).toEqual([200, 'text/csv; charset=utf-8; header=present']);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="fleet-vehicles-\d{8}T\d{6}Z\.csv"$/);
    expect(csv.headers['etag']).toBeUndefined();
    expect(csv.text).toBe(`id\r\n${ids.map((id) => `${id}\r\n`).join('')}`);
    for (const [path, accept] of [
      ['/api/v1/fleet/vehicles/export?fields=id&format=ndjson', undefined],
      ['/api/v1/fleet/vehicles/export?fields=id', 'application/x-ndjson'],
      // format wins over Accept.
      ['/api/v1/fleet/vehicles/export?fields=id&format=ndjson', 'text/csv'],
    ] as const) {
      const ndjson = await text(path, accept);
      expect([path, accept, ndjson.status, ndjson.headers['content-type']]).toEqual([path, accept, 200, 'application/x-ndjson; charset=utf-8']);
      expect(ndjson.text).toBe(ids.map((id) => `${JSON.stringify({ id })}\n`).join(''));
    }
    // An Accept naming no export format (a browser's, JSON's): the default, CSV.
    for (const accept of ['application/json', 'text/html,*/*;q=0.8']) expect((await text('/api/v1/fleet/vehicles/export?fields=id', accept)).text).toBe(csv.text);
  });

  it('gives the same file as an export asked on the list route (kept for compatibility)', async () => {
    const query = 'fields=id,plate,driver&fuel_type=diesel';
    for (const format of ['csv', 'ndjson']) {
      const routed = await text(`/api/v1/fleet/vehicles/export?${query}&format=${format}`);
      const compatible = await text(`/api/v1/fleet/vehicles?${query}&format=${format}`);
      expect([compatible.status, compatible.headers['content-type'], compatible.text]).toEqual([200, routed.headers['content-type'], routed.text]);
    }
    const byAccept = await text(`/api/v1/fleet/vehicles?${query}`, 'text/csv');
    expect(byAccept.text).toBe((await text(`/api/v1/fleet/vehicles/export?${query}`)).text);
  });

  it('refuses paging, order, a count and a format that is not an export, saying why', async () => {
    for (const key of ['limit=10', 'offset=5', 'order=plate', 'total=true']) {
      const res = await json(`/api/v1/fleet/vehicles/export?${key}`);
      expect([key, res.status, res.body.error?.code]).toEqual([key, 400, 'bad_request']);
      expect(res.body.error?.message).toContain('An export streams every matching record by ascending id');
    }
    const json_ = await json('/api/v1/fleet/vehicles/export?format=json');
    expect([json_.status, json_.body.error]).toEqual([422, { code: 'invalid_value', message: 'format: expected csv, ndjson or parquet.' }]);
    const unknown = await json('/api/v1/fleet/vehicles/export?colour=red');
    expect([unknown.status, unknown.body.error?.code]).toEqual([400, 'bad_request']);
    expect((await json('/api/v1/fleet/vehicles/export?csv_formulas=raw&format=ndjson')).status).toBe(400);
    const unauthenticated = await stack.get('/api/v1/fleet/vehicles/export', null);
    expect(unauthenticated.status).toBe(401);
  });

  it('is a route of its own: the detail route does not take it, and records are still found by id', async () => {
    const first = (await stack.get('/api/v1/fleet/vehicles?limit=1&total=false')).body as { data: { id: number }[] };
    const id = first.data[0]?.id as number;
    expect((await json(`/api/v1/fleet/vehicles/${id}`)).status).toBe(200);
    expect((await json('/api/v1/fleet/vehicles/exports')).status).toBe(404);
    expect((await text('/api/v1/fleet/fuel-logs/export?fields=id&format=ndjson')).status).toBe(200);
  });

  it('exports the change feed with its next token', async () => {
    const res = await text('/api/v1/fleet/vehicles/export?changed_since=2000-01-01T00:00:00Z&fields=id&format=ndjson');
    expect(res.status).toBe(200);
    expect(res.headers['x-next-changed-since']).toMatch(/^v2\./);
    const lines = res.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; _removed: boolean });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => typeof line._removed === 'boolean')).toBe(true);
  });

  it('is charged as an export (its own kind) against the key rate limit, on either path', async () => {
    const limited = await startStack({ env: { RATE_LIMIT_POINTS: '10', RATE_LIMIT_WINDOW_SECONDS: '600', RATE_LIMIT_COSTS: 'export=4,list=1,counted_list=1,detail=1' } });
    try {
      const first = await limited.get('/api/v1/fleet/vehicles/export?fields=id').buffer(true).parse(asText);
      expect([first.status, first.headers['ratelimit']]).toEqual([200, expect.stringMatching(/^"per-key";r=6;t=[0-9]+$/)]);
      const second = await limited.get('/api/v1/fleet/vehicles?format=csv&fields=id').buffer(true).parse(asText);
      expect([second.status, second.headers['ratelimit']]).toEqual([200, expect.stringMatching(/^"per-key";r=2;t=[0-9]+$/)]);
      expect((await limited.get('/api/v1/fleet/vehicles/export?fields=id')).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
