/**
 * Exports (CSV and NDJSON) of list routes, read the way their consumers read them (DuckDB, Python's
 * csv module, a line-by-line JSON parser) and compared record by record, every field, with the JSON
 * list; how a request asks for one; what an export refuses; and that a client going away stops the
 * ERP paging, counted on the ERP's side of the wire.
 */
import { request as httpRequest } from 'node:http';
import { asText, csvText, loadCsvWithDuckDb, loadCsvWithPython } from '../support/export-loaders';
import type { FaultProxy } from '../support/fault-proxy';
import { ErpWriter } from '../support/erp-writes';
import { startStackBehindProxy, type Stack } from '../support/stack';
import { everyRecord } from '../support/paging-walk';

type ApiRecord = { id: number; [field: string]: unknown };

/** Small pages, so that every export here spans many of them. */
const PAGE_SIZE = 37;

describe('exports', () => {
  let stack: Stack;
  let proxy: FaultProxy;
  /** Texts CSV must quote or keep apart from a null, written into pickings before the suite reads them. */
  const TRICKY = ['', 'two\nlines', 'carriage\rreturn', 'crlf\r\nend', 'comma, and "quotes"', '=1+1', 'ünïcødé ✓'];
  beforeAll(async () => {
    ({ stack, proxy } = await startStackBehindProxy({ env: { EXPORT_PAGE_SIZE: String(PAGE_SIZE), EXPORT_MAX_ROWS: '650' } }));
    const erp = new ErpWriter(stack.dbPath);
    for (const [index, origin] of TRICKY.entries()) erp.write('stock.picking', 3 + index * 11, { origin });
    erp.close();
  });
  afterAll(async () => {
    await stack.close();
    await proxy.close();
  });

  /** Every record of the JSON list, by the since_id cursor: the oracle. */
  const jsonList = (path: string, query = '') => everyRecord((url) => stack.get(url), path, query);

  const exportText = async (path: string, accept: string): Promise<{ text: string; headers: Record<string, string> }> => {
    const res = await stack.get(path).set('Accept', accept).buffer(true).parse(asText);
    expect(res.status).toBe(200);
    return { text: res.body as string, headers: res.headers as Record<string, string> };
  };

  it.each(['stock/pickings', 'purchase/orders', 'it/tickets'])('%s: the CSV export, loaded by DuckDB and by Python, is the JSON list record by record', async (path) => {
    const expected = await jsonList(path);
    const { text, headers } = await exportText(`/api/v1/${path}`, 'text/csv');
    expect(headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    expect(headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="${path.replace('/', '-')}-\\d{8}T\\d{6}Z\\.csv"$`));
    const columns = Object.keys(expected[0] as ApiRecord);
    const wanted = expected.map((record) => columns.map((name) => csvText(record[name])));
    expect(wanted.length).toBeGreaterThan(PAGE_SIZE * 2);
    // The records hold nulls (and, for two of them, arrays; for pickings, texts to quote): the comparison covers them.
    expect(wanted.some((row) => row.includes(null))).toBe(true);
    if (path === 'stock/pickings') for (const origin of TRICKY) expect(expected.some((record) => record['origin'] === origin)).toBe(true);

    const duck = await loadCsvWithDuckDb(text);
    expect(duck.columns).toEqual(columns);
    expect(duck.rows).toEqual(wanted);
    expect(duck.typedRows).toBe(wanted.length);

    // Python's csv module (3.11) reads an empty field as '' whether quoted or not: null is '' there.
    const python = loadCsvWithPython(text);
    expect(python[0]).toEqual(columns);
    expect(python.slice(1)).toEqual(wanted.map((row) => row.map((value) => value ?? '')));
  });

  it("csv_formulas=raw: every text as the ERP holds it, formulas included (the default puts a ' before them)", async () => {
    const expected = await jsonList('stock/pickings', '&fields=origin');
    const raw = await loadCsvWithDuckDb((await exportText('/api/v1/stock/pickings?fields=origin&csv_formulas=raw', 'text/csv')).text);
    expect(raw.rows).toEqual(expected.map((record) => [String(record.id), csvText(record['origin'], 'raw')]));
    expect(raw.rows.some((row) => row[1] === '=1+1')).toBe(true);
    const escaped = await loadCsvWithDuckDb((await exportText('/api/v1/stock/pickings?fields=origin&csv_formulas=escaped', 'text/csv')).text);
    expect(escaped.rows.some((row) => row[1] === "'=1+1")).toBe(true);
    expect(escaped.rows.some((row) => row[1] === '=1+1')).toBe(false);
  });

  it.each([
    ['format=json&csv_formulas=raw', 400],
    ['format=ndjson&csv_formulas=raw', 400],
    ['csv_formulas=raw', 400],
    ['format=csv&csv_formulas=yes', 422],
  ])('csv_formulas only with a CSV export, escaped or raw: %s is %i', async (query, status) => {
    const res = await stack.get(`/api/v1/stock/pickings?${query}`);
    expect([res.status, res.body.error.message]).toEqual([status, expect.stringContaining('csv_formulas')]);
  });

  it('keeps an empty text apart from a null in CSV, and writes arrays as JSON text', async () => {
    const expected = await jsonList('it/tickets');
    const withArray = expected.find((record) => Array.isArray(record['assignees']) && (record['assignees'] as unknown[]).length > 0);
    expect(withArray).toBeDefined();
    const { text } = await exportText('/api/v1/it/tickets?format=csv', '*/*');
    const duck = await loadCsvWithDuckDb(text);
    const at = duck.columns.indexOf('assignees');
    const row = duck.rows.find((r) => r[0] === String(withArray?.id));
    expect(JSON.parse(row?.[at] as string)).toEqual(withArray?.['assignees']);
  });

  it('streams NDJSON: each line is the JSON list record, in ascending id, with the filters and fields asked', async () => {
    const expected = await jsonList('purchase/orders', '&state=purchase&fields=reference,amount_total,vendor_reference');
    const { text, headers } = await exportText('/api/v1/purchase/orders?state=purchase&fields=reference,amount_total,vendor_reference', 'application/x-ndjson');
    expect(headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text
      .slice(0, -1)
      .split('\n')
      .map((line) => JSON.parse(line) as ApiRecord);
    expect(lines).toEqual(expected);
    expect(lines.length).toBeGreaterThan(PAGE_SIZE);
  });

  it('takes format=csv|ndjson over Accept, resumes after since_id, and answers JSON to a browser', async () => {
    const all = await jsonList('stock/pickings', '&fields=id');
    const after = all[10]?.id as number;
    const { text } = await exportText(`/api/v1/stock/pickings?format=ndjson&fields=id&since_id=${after}`, 'text/csv');
    expect(
      text
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as ApiRecord).id),
    ).toEqual(all.slice(11).map((r) => r.id));
    const browser = await stack.get('/api/v1/stock/pickings?limit=1').set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(browser.headers['content-type']).toBe('application/json; charset=utf-8');
    const preferred = await stack.get('/api/v1/stock/pickings?fields=id').set('Accept', 'application/json;q=0.5, text/csv');
    expect(preferred.status).toBe(200);
    expect(preferred.headers['content-type']).toMatch(/^text\/csv/);
  });

  it.each([
    ['limit=10', 400, 'limit'],
    ['order=reference', 400, 'order'],
    ['offset=5', 400, 'offset'],
    ['total=true', 400, 'total'],
  ])('refuses an export with %s (%i), in the error envelope', async (query, status, word) => {
    const res = await stack.get(`/api/v1/stock/pickings?format=csv&${query}`);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe('bad_request');
    expect(res.body.error.message).toContain(word);
  });

  it('refuses an unknown format with 422, and format on a detail route with 400', async () => {
    const bad = await stack.get('/api/v1/stock/pickings?format=xlsx');
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toBe('format: expected json, csv, ndjson or parquet.');
    const detail = await stack.get('/api/v1/stock/pickings/1?format=csv');
    expect(detail.status).toBe(400);
  });

  it('refuses an export larger than EXPORT_MAX_ROWS before sending anything, with 422', async () => {
    const res = await stack.get('/api/v1/purchase/order-lines?format=csv');
    const total = (await stack.get('/api/v1/purchase/order-lines?limit=1&fields=id')).body.meta.total as number;
    expect(total).toBeGreaterThan(650);
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body.error.message).toContain(`${total} records, more than the 650`);
  });

  it('stops paging the ERP when the client goes away halfway (counted at the ERP)', async () => {
    const total = (await stack.get('/api/v1/purchase/orders?limit=1&fields=id')).body.meta.total as number;
    const pages = Math.ceil(total / PAGE_SIZE);
    expect(pages).toBeGreaterThan(6);
    // Each page takes 100 ms at the ERP: a gateway that went on paging would ask for several more in the wait below.
    proxy.mode = { kind: 'delay', ms: 100, only: /search_read/ };
    proxy.resetCounts();
    // Read the first chunk, then hang up.
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${stack.url}/api/v1/purchase/orders?format=ndjson&fields=id`, { headers: { Authorization: `Bearer ${stack.keys.valid}` } }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => undefined);
      req.once('error', reject);
      req.end();
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const reads = proxy.requests.filter((line) => line.includes('search_read')).length;
    // A page in flight when the client left may still complete; none is asked after.
    expect(reads).toBeLessThanOrEqual(3);
    // Nothing more arrives later.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(proxy.requests.filter((line) => line.includes('search_read')).length).toBe(reads);
    proxy.mode = { kind: 'forward' };
  });
});
