/**
 * Exports as BI tools and spreadsheets take them: compressed when the client accepts it (the bytes on
 * the wire decompressed by Node's zlib are the identity export, byte for byte), the row count announced
 * before the body (`X-Total-Count`, held to the rows the body has), and the Excel dialects opened in a
 * real spreadsheet engine (LibreOffice Calc, headless) with the character set left to the file (its
 * byte-order mark), dates detected as Excel detects them, and `;` as the list separator for
 * `excel-semicolon`: every cell holds the JSON list's value, as a number or a date where it is one.
 * The default dialect opened the same way keeps its date-times as text: the check can fail.
 * (LibreOffice detects UTF-8 without a BOM, where Excel falls back to the legacy code page: what
 * the BOM does for Excel is Microsoft's documented behaviour, checked here on the bytes, and that a
 * BOM-aware reader does not take it into the first header.)
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { openInSpreadsheet } from '../support/spreadsheet';
import { startStack, type Stack } from '../support/stack';
import { ErpWriter } from '../support/erp-writes';
import { everyRecord } from '../support/paging-walk';

type ApiRecord = { id: number; [field: string]: unknown };

/** Small pages, so that every export here spans several of them (and several zlib flushes). */
const PAGE_SIZE = 53;

interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The bytes as they came over the wire (compressed, when they were). */
  readonly body: Buffer;
}

describe('exports for BI tools and spreadsheets', () => {
  let stack: Stack;
  let off: Stack;
  const ACCENTED = 'Société Générale — Zürich';
  beforeAll(async () => {
    [stack, off] = await Promise.all([
      startStack({ env: { EXPORT_PAGE_SIZE: String(PAGE_SIZE) } }),
      startStack({ env: { EXPORT_PAGE_SIZE: String(PAGE_SIZE), COMPRESSION: 'off' } }),
    ]);
    const erp = new ErpWriter(stack.dbPath);
    erp.write('purchase.order', 1, { partner_ref: ACCENTED });
    erp.close();
  });
  afterAll(async () => {
    await stack?.close();
    await off?.close();
  });

  /** A GET with the valid key, read as raw bytes: no client-side decompression. */
  const rawGet = (on: Stack, path: string, headers: Record<string, string>, method = 'GET'): Promise<RawAnswer> =>
    new Promise((resolve, reject) => {
      // A connection of its own: a kept-alive one may be closed by the server while a spreadsheet converts.
      const req = httpRequest(`${on.url}${path}`, { method, agent: false, headers: { Authorization: `Bearer ${on.keys.valid}`, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });

  /** Every record of the JSON list, by the since_id cursor: the oracle. */
  const jsonList = (path: string, query = '') => everyRecord((url) => stack.get(url), path, query);

  it.each([
    ['gzip', 'gzip', gunzipSync],
    ['br', 'br', brotliDecompressSync],
    ['gzip;q=0.5, br', 'br', brotliDecompressSync],
    ['br;q=0.5, gzip', 'gzip', gunzipSync],
    ['gzip, br', 'gzip', gunzipSync],
  ])('Accept-Encoding: %s: the export goes out %s, and decompresses to the identity export byte for byte', async (acceptEncoding, coding, decompress) => {
    for (const format of ['csv', 'ndjson']) {
      const path = `/api/v1/stock/pickings?format=${format}`;
      const identity = await rawGet(stack, path, {});
      expect(identity.headers['content-encoding']).toBeUndefined();
      const compressed = await rawGet(stack, path, { 'Accept-Encoding': acceptEncoding });
      expect([compressed.status, compressed.headers['content-encoding'], compressed.headers['vary']]).toEqual([200, coding, 'Accept-Encoding']);
      expect(compressed.headers['content-length']).toBeUndefined();
      // The Content-Disposition names a second: the two answers may differ there only.
      expect(compressed.headers['content-type']).toBe(identity.headers['content-type']);
      const plain = decompress(compressed.body);
      expect(plain.equals(identity.body)).toBe(true);
      expect(compressed.body.length).toBeLessThan(identity.body.length / 3);
    }
  });

  it('Accept-Encoding: identity, or COMPRESSION=off: the export goes out as it is', async () => {
    const identity = await rawGet(stack, '/api/v1/purchase/orders?format=csv', { 'Accept-Encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    const refused = await rawGet(stack, '/api/v1/purchase/orders?format=csv', { 'Accept-Encoding': 'gzip;q=0, br;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    const offAnswer = await rawGet(off, '/api/v1/purchase/orders?format=csv', { 'Accept-Encoding': 'gzip, br' });
    expect([offAnswer.status, offAnswer.headers['content-encoding']]).toEqual([200, undefined]);
    expect(offAnswer.body.toString('utf8').split('\r\n')[0]).toMatch(/^id,/);
  });

  it('HEAD says what GET would: the coding and the count, without a body', async () => {
    const head = await rawGet(stack, '/api/v1/stock/pickings?format=ndjson', { 'Accept-Encoding': 'gzip' }, 'HEAD');
    const get = await rawGet(stack, '/api/v1/stock/pickings?format=ndjson', { 'Accept-Encoding': 'gzip' });
    expect([head.status, head.headers['content-encoding'], head.headers['x-total-count'], head.body.length]).toEqual([200, 'gzip', get.headers['x-total-count'], 0]);
  });

  it.each([
    ['stock/pickings', ''],
    ['purchase/orders', '&state=purchase'],
    ['fleet/vehicles', '&fuel_type=diesel'],
  ])('%s%s: X-Total-Count, sent before the body, is the rows the export holds and the JSON list count', async (path, filters) => {
    const expected = await jsonList(path, `&fields=id${filters}`);
    const counted = await stack.get(`/api/v1/${path}?limit=1${filters}`);
    expect(counted.body.meta.total).toBe(expected.length);
    for (const format of ['csv', 'ndjson']) {
      const res = await rawGet(stack, `/api/v1/${path}?format=${format}&fields=id${filters}`, { 'Accept-Encoding': 'gzip' });
      const lines = gunzipSync(res.body)
        .toString('utf8')
        .split(format === 'csv' ? '\r\n' : '\n')
        .filter(Boolean);
      const rows = format === 'csv' ? lines.slice(1) : lines;
      expect([res.headers['x-total-count'], rows.length]).toEqual([String(expected.length), expected.length]);
    }
  });

  it('no X-Total-Count with changed_since: the deleted records that end such an export are found while it is read', async () => {
    const res = await rawGet(stack, '/api/v1/fleet/vehicles?format=ndjson&fields=id&changed_since=2000-01-01T00:00:00Z', {});
    const rows = res.body.toString('utf8').split('\n').filter(Boolean);
    expect(rows.some((line) => (JSON.parse(line) as { _removed: boolean })._removed)).toBe(true);
    expect([res.headers['x-total-count'], res.headers['x-next-changed-since']]).toEqual([undefined, expect.any(String)]);
  });

  it.each([
    ['format=json&csv_dialect=excel', 400],
    ['format=ndjson&csv_dialect=excel', 400],
    ['format=csv&csv_dialect=excel-tab', 422],
  ])('csv_dialect only with a CSV export, of the dialects listed: %s is %i', async (query, status) => {
    const res = await stack.get(`/api/v1/stock/pickings?${query}`);
    expect([res.status, res.body.error.message]).toEqual([status, expect.stringContaining('csv_dialect')]);
  });

  describe('the Excel dialects, opened in a spreadsheet as Excel opens a CSV', () => {
    const FIELDS = 'reference,vendor_reference,amount_total,date_order,state';
    let expected: ApiRecord[];
    /** The columns, in the answer's order (the catalogue's). */
    let COLUMNS: string[];
    beforeAll(async () => {
      expected = (await stack.get(`/api/v1/purchase/orders?limit=12&order=id&fields=${FIELDS}`)).body.data as ApiRecord[];
      COLUMNS = Object.keys(expected[0] as ApiRecord);
      expect(expected.some((record) => record['vendor_reference'] === ACCENTED)).toBe(true);
      expect(expected.some((record) => typeof record['amount_total'] === 'number' && !Number.isInteger(record['amount_total']))).toBe(true);
    });
    const exportBytes = async (dialect: string): Promise<Buffer> => {
      const last = expected[expected.length - 1]?.id as number;
      const res = await rawGet(stack, `/api/v1/purchase/orders?format=csv&fields=${FIELDS}${dialect ? `&csv_dialect=${dialect}` : ''}`, {});
      expect(res.status).toBe(200);
      // Only the records of the oracle: the rows up to its last id.
      const text = res.body.toString('utf8');
      const lines = text.split('\r\n');
      const kept = lines.slice(0, 1 + lines.slice(1).findIndex((line) => line.startsWith(`${last}${dialect === 'excel-semicolon' ? ';' : ','}`)) + 1);
      return Buffer.from(`${kept.join('\r\n')}\r\n`, 'utf8');
    };

    it.each([
      ['excel', 44, 1033],
      ['excel-semicolon', 59, 1036],
    ])('csv_dialect=%s: a BOM, then every text, amount and date-time as the JSON list holds it (separator %i, language %i)', async (dialect, separator, locale) => {
      const bytes = await exportBytes(dialect);
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      // The character set left to the file (0: detected); special numbers (dates) detected, as Excel does.
      const sheet = openInSpreadsheet(bytes, { separator, charset: 0, detectSpecialNumbers: true, locale });
      const [header, ...rows] = sheet;
      expect(header?.map((cell) => cell.text)).toEqual(COLUMNS);
      expect(rows.length).toBe(expected.length);
      rows.forEach((row, index) => {
        const record = expected[index] as ApiRecord;
        const cell = (name: string) => row[COLUMNS.indexOf(name)];
        expect(cell('id')?.value).toBe(record.id);
        expect(cell('reference')?.text).toBe(record['reference']);
        expect(cell('vendor_reference')?.text).toBe(record['vendor_reference'] ?? '');
        expect(cell('state')?.text).toBe(record['state']);
        expect([cell('amount_total')?.type, cell('amount_total')?.value]).toEqual(['float', record['amount_total']]);
        // A date-time cell: the spreadsheet holds it as a date, at the very second of the JSON list (UTC).
        expect([cell('date_order')?.type, `${cell('date_order')?.dateValue}Z`]).toEqual(['date', record['date_order']]);
      });
    });

    it('the default dialect opened the same way: no BOM, and its ISO 8601 date-times stay texts (what the Excel dialect is for)', async () => {
      const bytes = await exportBytes('');
      expect(bytes[0]).toBe(0x69);
      const [, ...rows] = openInSpreadsheet(bytes, { separator: 44, charset: 0, detectSpecialNumbers: true });
      const dates = rows.map((row) => row[COLUMNS.indexOf('date_order')]);
      expect(dates.map((cell) => [cell?.type, cell?.text])).toEqual(expected.map((record) => ['string', record['date_order']]));
    });
  });
});
