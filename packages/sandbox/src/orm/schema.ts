/**
 * @module DDL of the sandbox store, derived from the registry: one table per model, one relation
 * table per many2many field, the security tables, and the indexes Odoo creates (odoo-indexes.ts;
 * created after bulk loading, which is much faster than maintaining them row by row).
 */
import type { Database } from '../store/database';
import { quoteIdent } from '../store/naming';
import { odooIndexes } from './odoo-indexes';
import type { FieldInfo, Registry } from './registry';
import type { OdooVersion } from './types';

/** Columns of `res_users` that are no model field: the user's preferences for `context_get`. */
export const USER_PREFERENCE_COLUMNS = ['tz', 'lang'] as const;

export function createTables(db: Database, registry: Registry): void {
  const statements: string[] = [];
  for (const model of registry.models.values()) {
    const columns = model.columns.map((f) => (f.name === 'id' ? '"id" INTEGER PRIMARY KEY' : `${quoteIdent(f.name)} ${columnType(f)}`));
    if (model.name === 'res.users') {
      for (const name of USER_PREFERENCE_COLUMNS) if (!model.fields.has(name)) columns.push(`${quoteIdent(name)} TEXT`);
    }
    statements.push(`CREATE TABLE ${quoteIdent(model.table)} (${columns.join(', ')});`);
    for (const field of model.fields.values()) {
      if (field.relationTable) {
        statements.push(`CREATE TABLE ${quoteIdent(field.relationTable)} ("a" INTEGER NOT NULL, "b" INTEGER NOT NULL);`);
      }
    }
  }
  statements.push(...SECURITY_TABLES);
  db.exec(statements.join('\n'));
}

const SECURITY_TABLES = [
  `CREATE TABLE "res_groups" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "category" TEXT, "xml_id" TEXT NOT NULL UNIQUE);`,
  `CREATE TABLE "res_groups_users_rel" ("gid" INTEGER NOT NULL, "uid" INTEGER NOT NULL, PRIMARY KEY ("gid", "uid"));`,
  `CREATE INDEX "res_groups_users_rel_uid" ON "res_groups_users_rel" ("uid");`,
  `CREATE TABLE "ir_model_access" ("id" INTEGER PRIMARY KEY, "name" TEXT, "model" TEXT NOT NULL, "group_id" INTEGER,
     "perm_read" INTEGER NOT NULL DEFAULT 0, "perm_write" INTEGER NOT NULL DEFAULT 0,
     "perm_create" INTEGER NOT NULL DEFAULT 0, "perm_unlink" INTEGER NOT NULL DEFAULT 0);`,
  `CREATE INDEX "ir_model_access_model" ON "ir_model_access" ("model");`,
];

function columnType(field: FieldInfo): string {
  switch (field.type) {
    case 'integer':
    case 'many2one':
    case 'boolean':
      return 'INTEGER';
    case 'float':
    case 'monetary':
      return 'REAL';
    default:
      return 'TEXT';
  }
}

/**
 * Odoo's indexes of `version` as SQLite DDL (odoo-indexes.ts): each under Odoo's name, on the tables
 * and columns this registry has; and the pair of every many2many relation table. A plain b-tree on a
 * column that may be NULL also gets `<name>__nulls` on `(col IS NULL, col)`: PostgreSQL's b-tree
 * serves `ORDER BY col` with its NULL placement, while the sandbox orders a nullable column by that
 * pair (order.ts) and SQLite can read such an order only from an index of the same expressions.
 * That is the same index in SQLite's terms, not one more: the queries it makes cheap are the same.
 */
function indexStatements(registry: Registry, version: OdooVersion): Map<string, string> {
  const statements = new Map<string, string>();
  const byTable = new Map([...registry.models.values()].map((model) => [model.table, model]));
  for (const index of odooIndexes(version)) {
    const model = byTable.get(index.table);
    const fields = index.columns.map((name) => model?.fields.get(name));
    if (!model || fields.some((field) => !field?.store)) continue;
    const on = `ON ${quoteIdent(index.table)}`;
    const columns = index.columns.map(quoteIdent).join(', ');
    const [column, field] = [quoteIdent(index.columns[0] as string), fields[0] as FieldInfo];
    if (index.isSet) statements.set(index.name, `CREATE INDEX ${quoteIdent(index.name)} ${on} ((${column} IS NOT NULL)) WHERE ${column} IS NOT NULL;`);
    else if (index.notNull) statements.set(index.name, `CREATE INDEX ${quoteIdent(index.name)} ${on} (${column}) WHERE ${column} IS NOT NULL;`);
    else statements.set(index.name, `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ${quoteIdent(index.name)} ${on} (${columns});`);
    if (!index.unique && !index.notNull && !index.isSet && fields.length === 1 && !field.required && field.type !== 'boolean') {
      const name = `${index.name}__nulls`;
      statements.set(name, `CREATE INDEX ${quoteIdent(name)} ${on} (${column} IS NULL, ${column});`);
    }
  }
  for (const model of registry.models.values()) {
    for (const field of model.fields.values()) {
      if (!field.relationTable) continue;
      const rel = quoteIdent(field.relationTable);
      statements.set(`${field.relationTable}_pkey`, `CREATE UNIQUE INDEX ${quoteIdent(`${field.relationTable}_pkey`)} ON ${rel} ("a", "b");`);
      statements.set(`${field.relationTable}_b_a_idx`, `CREATE INDEX ${quoteIdent(`${field.relationTable}_b_a_idx`)} ON ${rel} ("b", "a");`);
    }
  }
  return statements;
}

/** Creates the indexes of `version` (after bulk loading: building them once is much faster than maintaining them). */
export function createIndexes(db: Database, registry: Registry, version: OdooVersion): void {
  db.exec([...indexStatements(registry, version).values()].join('\n'));
}

/**
 * Makes the indexes of a database those of `version` (the database is made once, then served as
 * 17, 18 or 19): drops the model indexes that version does not have, creates those it lacks. The
 * security tables' indexes (`res_groups_users_rel_uid`, ...) are the sandbox's own and stay.
 */
export function syncIndexes(db: Database, registry: Registry, version: OdooVersion): void {
  const wanted = indexStatements(registry, version);
  const tables = new Set([...registry.models.values()].flatMap((model) => [model.table, ...[...model.fields.values()].flatMap((f) => (f.relationTable ? [f.relationTable] : []))]));
  const present = db.prepare(`SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`).all() as { name: string; tbl_name: string }[];
  const statements: string[] = [];
  for (const { name, tbl_name } of present) if (tables.has(tbl_name) && !wanted.has(name)) statements.push(`DROP INDEX ${quoteIdent(name)};`);
  const have = new Set(present.map((index) => index.name));
  for (const [name, statement] of wanted) if (!have.has(name)) statements.push(statement);
  if (statements.length) db.exec(statements.join('\n'));
}
