/**
 * The sandbox's indexes are Odoo's, and nothing more (issue 31): for each version, the indexes of a
 * sandbox database served as that version equal those of the live Odoo's `pg_indexes` (committed in
 * fixtures/odoo-indexes-*.txt, with the query that read them) on the tables the sandbox imitates,
 * kept where SQLite can have them: b-tree indexes whose columns the sandbox's table has. Each is
 * translated here from PostgreSQL's text on its own (not from the sandbox's list), so a change of
 * either side, or a column added to a model that Odoo indexes, fails this test.
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { loadRegistry } from '../src/models';
import type { OdooVersion } from '../src/orm/types';
import { initDatabase, openOrm } from '../src/seed/init';

/** Indexes Odoo has on columns the sandbox has, in a form SQLite cannot have, and why. */
const NOT_IMITABLE: Readonly<Record<string, string>> = {
  gin: "a trigram GIN index (index='trigram'): SQLite has none; an ilike on such a column scans the sandbox's table",
  res_partner_phone_partial_tgm: 'an index of regexp_replace(phone), a PostgreSQL function SQLite does not have',
  res_partner_mobile_partial_tgm: 'an index of regexp_replace(mobile), a PostgreSQL function SQLite does not have',
};

interface PgIndex {
  readonly table: string;
  readonly name: string;
  /** The index as SQLite DDL, or why it cannot be one. */
  readonly sqlite: string | { readonly skipped: string };
}

const registry = loadRegistry();
const models = new Map([...registry.models.values()].map((model) => [model.table, model]));
const q = (name: string) => `"${name}"`;

/** The dump of a live Odoo's pg_indexes, translated to what the sandbox must have. */
function fromDump(version: OdooVersion): PgIndex[] {
  const lines = readFileSync(join(__dirname, 'fixtures', `odoo-indexes-${version}.txt`), 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#'));
  expect(lines.length).toBeGreaterThan(100);
  return lines.map((line): PgIndex => {
    const [table, name, def] = line.split('|') as [string, string, string];
    const m = /^CREATE (UNIQUE )?INDEX \S+ ON public\.(\w+) USING (\w+) \((.*?)\)(?: WHERE \((.*)\))?$/.exec(def);
    if (!m || m[2] !== table) throw new Error(`unexpected pg_indexes line: ${line}`);
    const [, unique, , method, body, where] = m as unknown as [string, string | undefined, string, string, string, string | undefined];
    const model = models.get(table);
    if (!model) return { table, name, sqlite: { skipped: 'a table the sandbox does not imitate' } };
    if (name === `${table}_pkey`) return { table, name, sqlite: { skipped: 'the primary key: the rowid' } };
    if (method !== 'btree') return { table, name, sqlite: { skipped: NOT_IMITABLE[method] as string } };
    const has = (column: string) => model.fields.get(column)?.store === true;
    const plain = /^\w+(, \w+)*$/.test(body) ? body.split(', ') : undefined;
    const isSet = /^\(\((\w+) IS NOT NULL\)\)$/.exec(body)?.[1];
    const columns = plain ?? (isSet ? [isSet] : [...body.matchAll(/\((\w+)\)::text/g)].map((c) => c[1] as string));
    if (columns.some((column) => !has(column))) return { table, name, sqlite: { skipped: 'a column the sandbox does not have' } };
    if (NOT_IMITABLE[name]) return { table, name, sqlite: { skipped: NOT_IMITABLE[name] } };
    const partial = where === undefined ? '' : /^(\w+) IS NOT NULL$/.exec(where) ? ` WHERE ${q(where.split(' ')[0] as string)} IS NOT NULL` : undefined;
    if (partial === undefined || !columns.length || (!plain && !isSet)) throw new Error(`an index of a form this test does not know: ${line}`);
    const on = isSet ? `((${q(isSet)} IS NOT NULL))` : `(${columns.map(q).join(', ')})`;
    return { table, name, sqlite: `CREATE ${unique ? 'UNIQUE ' : ''}INDEX ${q(name)} ON ${q(table)} ${on}${partial}` };
  });
}

describe('sandbox indexes against a live Odoo', () => {
  const dir = mkdtempSync(join(tmpdir(), 'odg-indexes-'));
  const path = join(dir, 'demo.db');
  beforeAll(() => initDatabase({ path }));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The sandbox's indexes on model and relation tables once served as `version` (the order index pairs apart). */
  const sandboxIndexes = (version: OdooVersion) => {
    openOrm({ path, version }).close();
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      return db.prepare(`SELECT name, tbl_name AS "table", sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name`).all() as {
        name: string;
        table: string;
        sql: string;
      }[];
    } finally {
      db.close();
    }
  };

  it.each([17, 18, 19] as const)('Odoo %i: every index Odoo has that SQLite can have, and no other', (version) => {
    const expected = fromDump(version);
    const kept = expected.filter((index) => typeof index.sqlite === 'string');
    const relationTables = new Set([...registry.models.values()].flatMap((model) => [...model.fields.values()].flatMap((f) => (f.relationTable ? [f.relationTable] : []))));
    const actual = sandboxIndexes(version).filter((index) => models.has(index.table) || relationTables.has(index.table));
    const byName = new Map(actual.map((index) => [index.name, index]));

    // Odoo's indexes, under their names, as PostgreSQL defines them.
    expect(kept.map((index) => [index.name, byName.get(index.name)?.sql])).toEqual(kept.map((index) => [index.name, index.sqlite]));
    // The `IS NULL` pair of a plain index on a column that may be NULL (the sandbox's ORDER BY form of it), and only those.
    const pairs = kept.filter((index) => {
      const m = /^CREATE INDEX "\w+" ON "(\w+)" \("(\w+)"\)$/.exec(index.sqlite as string);
      const field = m && models.get(m[1] as string)?.fields.get(m[2] as string);
      return field && !field.required && field.type !== 'boolean';
    });
    expect(actual.filter((index) => index.name.endsWith('__nulls')).map((index) => index.sql)).toEqual(
      pairs
        .map((index) => {
          const [, table, column] = /ON "(\w+)" \("(\w+)"\)/.exec(index.sqlite as string) as unknown as [string, string, string];
          return `CREATE INDEX "${index.name}__nulls" ON "${table}" ("${column}" IS NULL, "${column}")`;
        })
        .sort(),
    );
    // Every many2many relation table: Odoo's primary key (a, b) and its (b, a) index.
    for (const table of relationTables) {
      expect(actual.filter((index) => index.table === table).map((index) => index.sql)).toEqual([
        `CREATE INDEX "${table}_b_a_idx" ON "${table}" ("b", "a")`,
        `CREATE UNIQUE INDEX "${table}_pkey" ON "${table}" ("a", "b")`,
      ]);
    }
    // Nothing else: no index Odoo does not create (none on write_date or create_date in particular).
    const known = new Set([
      ...kept.map((index) => index.name),
      ...pairs.map((index) => `${index.name}__nulls`),
      ...[...relationTables].flatMap((t) => [`${t}_pkey`, `${t}_b_a_idx`]),
    ]);
    expect(actual.filter((index) => !known.has(index.name)).map((index) => index.sql)).toEqual([]);
    expect(actual.filter((index) => /"(write_date|create_date)"/.test(index.sql))).toEqual([]);
  });

  it("keeps stock_picking to Odoo 19's twelve indexes, of which the sandbox can have the b-trees on its columns", () => {
    const picking = fromDump(19).filter((index) => index.table === 'stock_picking');
    expect(picking).toHaveLength(12);
    expect(picking.filter((index) => typeof index.sqlite === 'string').map((index) => index.name)).toEqual([
      'stock_picking__company_id_index',
      'stock_picking__partner_id_index',
      'stock_picking__picking_type_id_index',
      'stock_picking__scheduled_date_index',
      'stock_picking__state_index',
      'stock_picking_name_uniq',
    ]);
  });
});
