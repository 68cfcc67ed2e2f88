/**
 * Typed exports: every resource of the catalogue exported as Parquet and loaded by DuckDB with the
 * recipe of docs/exports-for-bi.md (read from the guide, so the recipe tested is the one published),
 * then compared with the JSON list record by record, field by field: 0 wrong values, and every
 * column of the type its field has (INTEGER, DOUBLE, BOOLEAN, VARCHAR, DATE, TIMESTAMP WITH TIME ZONE,
 * lists). The values are read back from DuckDB through SQL of their own type (epoch for times, days
 * for dates, JSON for lists), so that DuckDB's own formatting decides nothing. Then the change feed's
 * Parquet (a `_removed` column, every other column optional), and the CSV that the same recipe
 * mis-reads when types are detected (the issue's `"no"` read as false): the check can fail.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import type { FieldSpec, ResourceSpec } from '@ops-data-gateway/gateway/runtime/resource-spec';
import { asBuffer, asText, duckDbType, parquetReadBack, parquetValueAsJson } from '../support/export-loaders';
import { ErpWriter } from '../support/erp-writes';
import { startStack, type Stack } from '../support/stack';
import { everyRecord } from '../support/paging-walk';

type ApiRecord = { id: number; [field: string]: unknown };

/** Small pages, so that every export of more than 61 records spans several row groups. */
const PAGE_SIZE = 61;
const GUIDE = join(__dirname, '..', '..', 'docs', 'exports-for-bi.md');
/** The file name the guide's recipe reads. */
const RECIPE_FILE = 'stock-pickings.parquet';
/** Vehicles 1 to 3 get these: texts made of digits (leading zeros or not), which a loader detecting types may make numbers. */
const TRICKY_VINS = ['0012345', '98765', '42'];

/** The guide's DuckDB recipe: its first ```sql block after the "### DuckDB" heading. */
function duckDbRecipe(): string {
  const guide = readFileSync(GUIDE, 'utf8');
  const section = guide.slice(guide.indexOf('### DuckDB'));
  const recipe = /```sql\n([\s\S]*?)```/.exec(section)?.[1];
  if (!recipe?.includes(RECIPE_FILE)) throw new Error(`${GUIDE}: no DuckDB recipe reading '${RECIPE_FILE}'`);
  // Its first statement loads the file; the ones after query it.
  return recipe.split(';')[0] as string;
}

describe('typed exports (Parquet) loaded by DuckDB with the published recipe', () => {
  let stack: Stack;
  let dir: string;
  let instance: DuckDBInstance;
  let duck: DuckDBConnection;
  beforeAll(async () => {
    stack = await startStack({ env: { EXPORT_PAGE_SIZE: String(PAGE_SIZE) } });
    // Texts a type detection gets wrong: digits (the issue's `vin`).
    const erp = new ErpWriter(stack.dbPath);
    for (const [i, vin] of TRICKY_VINS.entries()) erp.write('fleet.vehicle', i + 1, { vin_sn: vin });
    erp.close();
    dir = mkdtempSync(join(tmpdir(), 'odg-typed-'));
    instance = await DuckDBInstance.create(':memory:');
    duck = await instance.connect();
  });
  afterAll(async () => {
    duck?.closeSync();
    instance?.closeSync();
    rmSync(dir, { recursive: true, force: true });
    await stack?.close();
  });

  /** Every record of the JSON list, by the since_id cursor: the oracle. */
  const jsonList = (path: string) => everyRecord((url) => stack.get(url), path);

  /** Downloads an export as the guide does, under the name its Content-Disposition gives. */
  const download = async (query: string): Promise<{ file: string; headers: Record<string, string> }> => {
    const res = await stack.get(query).buffer(true).parse(asBuffer);
    expect(res.status).toBe(200);
    const name = /filename="([^"]+)"/.exec(res.headers['content-disposition'] as string)?.[1] as string;
    const file = join(dir, name);
    writeFileSync(file, res.body as Buffer);
    return { file, headers: res.headers as Record<string, string> };
  };

  /** The recipe, run on `file` into a table of its own; what DuckDB made of it, in id order. */
  const load = async (file: string, resource: ResourceSpec, table: string, extra: readonly FieldSpec[] = []): Promise<{ types: Record<string, string>; rows: ApiRecord[] }> => {
    const recipe = duckDbRecipe()
      .replace(RECIPE_FILE, file)
      .replace(/CREATE TABLE \w+/, `CREATE OR REPLACE TABLE ${table}`);
    await duck.run(recipe);
    const described = await duck.runAndReadAll(`SELECT column_name, data_type FROM information_schema.columns WHERE table_name = '${table}' ORDER BY ordinal_position`);
    const types = Object.fromEntries(described.getRows().map(([name, type]) => [String(name), String(type)]));
    const fields = [...resource.fields, ...extra];
    const read = await duck.runAndReadAll(`SELECT ${fields.map(parquetReadBack).join(', ')} FROM ${table} ORDER BY id`);
    const rows = read.getRows().map((row) => Object.fromEntries(fields.map((field, i) => [field.name, parquetValueAsJson(field, row[i] ?? null)])) as ApiRecord);
    return { types, rows };
  };

  it.each(RESOURCES.map((resource) => [resource.path, resource] as const))(
    '%s: the Parquet export loads with every column typed and every value the JSON list holds',
    async (path, resource) => {
      const expected = await jsonList(path);
      // Every resource of the demo data has records: a file of none would prove nothing.
      expect(expected.length).toBeGreaterThan(0);
      const { file, headers } = await download(`/api/v1/${path}/export?format=parquet`);
      expect([headers['content-type'], headers['x-total-count'], headers['content-encoding']]).toEqual(['application/vnd.apache.parquet', String(expected.length), undefined]);
      const { types, rows } = await load(file, resource, `t_${path.replace(/\W/g, '_')}`);
      expect(types).toEqual(Object.fromEntries(resource.fields.map((field) => [field.name, duckDbType(field)])));
      // 0 wrong values: every record, every field (the JSON list's field order is the file's column order).
      expect(rows).toEqual(expected);
    },
  );

  it('keeps texts as texts where a CSV loses them to type detection: digits, and "no" (the issue\'s vin and invoice_status)', async () => {
    const vehicles = RESOURCES.find((r) => r.path === 'fleet/vehicles') as ResourceSpec;
    const { rows } = await load((await download('/api/v1/fleet/vehicles/export?format=parquet')).file, vehicles, 'tricky');
    expect(rows.filter((row) => row.id <= TRICKY_VINS.length).map((row) => row['vin'])).toEqual(TRICKY_VINS);
    const orders = RESOURCES.find((r) => r.path === 'purchase/orders') as ResourceSpec;
    const loaded = await load((await download('/api/v1/purchase/orders/export?format=parquet')).file, orders, 'orders');
    expect(loaded.types['invoice_status']).toBe('VARCHAR');
    expect(loaded.rows.some((row) => row['invoice_status'] === 'no')).toBe(true);
    // The same rows as CSV, types detected (the recipe the README had): DuckDB makes `"no"` false and digits a number.
    const csvRows = async (path: string, keep: (line: string) => boolean): Promise<string> => {
      const lines = ((await stack.get(`/api/v1/${path}`).buffer(true).parse(asText)).body as string).split('\r\n');
      const file = join(dir, `${path.replace(/\W/g, '-')}.csv`);
      writeFileSync(file, `${[lines[0], ...lines.slice(1).filter((line) => line && keep(line))].join('\r\n')}\r\n`);
      return file;
    };
    const vins = await csvRows('fleet/vehicles?format=csv&csv_formulas=raw&fields=id,vin', (line) => TRICKY_VINS.slice(1).some((vin) => line.endsWith(`,${vin}`)));
    const statuses = await csvRows('purchase/orders?format=csv&csv_formulas=raw&fields=id,invoice_status', (line) => line.endsWith(',no'));
    const typeOf = async (file: string, column: string) =>
      String((await duck.runAndReadAll(`SELECT typeof(${column}) FROM read_csv('${file}', header = true, allow_quoted_nulls = false) LIMIT 1`)).getRows()[0]?.[0]);
    expect([await typeOf(vins, 'vin'), await typeOf(statuses, 'invoice_status')]).toEqual(['BIGINT', 'BOOLEAN']);
  });

  it('the change feed as Parquet: a _removed column, the removed records as their id alone', async () => {
    const resource = RESOURCES.find((r) => r.path === 'fleet/vehicles') as ResourceSpec;
    const feed: ApiRecord[] = [];
    const res = await stack.get('/api/v1/fleet/vehicles?format=ndjson&changed_since=2000-01-01T00:00:00Z').buffer(true).parse(asText);
    for (const line of (res.body as string).split('\n').filter(Boolean)) feed.push(JSON.parse(line) as ApiRecord);
    expect(feed.some((row) => row['_removed'] === true)).toBe(true);
    const { file, headers } = await download('/api/v1/fleet/vehicles/export?format=parquet&changed_since=2000-01-01T00:00:00Z');
    expect(headers['x-total-count']).toBeUndefined();
    const removed = { name: '_removed', type: 'boolean', nullable: false, personal: false, deprecated: false, source: { kind: 'url' } } as const satisfies FieldSpec;
    const { types, rows } = await load(file, resource, 'feed', [removed]);
    expect(types['_removed']).toBe('BOOLEAN');
    // A removed record is its id alone: every other column null.
    const complete = (row: ApiRecord) => Object.fromEntries([...resource.fields, removed].map((field) => [field.name, row[field.name] ?? null]));
    expect(rows).toEqual([...feed].sort((a, b) => a.id - b.id).map(complete));
  });
});
