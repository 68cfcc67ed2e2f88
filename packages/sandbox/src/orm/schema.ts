/**
 * @module DDL of the sandbox store, derived from the registry: one table per model, one relation
 * table per many2many field, the security tables, and the indexes (created after bulk loading,
 * which is much faster than maintaining them row by row).
 */
import type { Database } from '../store/database';
import { quoteIdent } from '../store/naming';
import { orderTerms } from './order';
import { parseOrder } from './order-grammar';
import type { FieldInfo, ModelInfo, Registry } from './registry';

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

const INDEXED_TYPES = new Set(['date', 'datetime', 'selection', 'many2one']);
const SORTED_BY_NULL_PAIR = new Set(['date', 'datetime']);
const nullPair = (name: string) => `${quoteIdent(name)} IS NULL, ${quoteIdent(name)}`;

/**
 * Indexes: every date, datetime, selection and many2one column (nullable dates also as the pair
 * the order compiler sorts them by); each column of `_order`; the
 * whole `_order` as one index of the very expressions the order compiler emits (so a default
 * ordered page is read from the index instead of sorting the table); many2many pairs; logins.
 * In a model with `active`, a selection or many2one index also holds `active`: a grouped count of
 * the active rows (what a search counts by default) then reads the index alone.
 */
export function createIndexes(db: Database, registry: Registry): void {
  const statements: string[] = [];
  for (const model of registry.models.values()) {
    const indexed = new Set<string>();
    const index = (name: string, expressions: string) =>
      statements.push(`CREATE INDEX IF NOT EXISTS ${quoteIdent(`${model.table}__${name}`)} ON ${quoteIdent(model.table)} (${expressions});`);
    for (const field of model.columns) {
      if (INDEXED_TYPES.has(field.type)) {
        const withActive = model.hasActive && field.name !== 'active' && (field.type === 'selection' || field.type === 'many2one');
        index(field.name, withActive ? `${quoteIdent(field.name)}, "active"` : quoteIdent(field.name));
        indexed.add(field.name);
      }
      // A nullable date is ordered as `col IS NULL, col` (PostgreSQL's NULL placement, see
      // orderTerms): without an index of that pair, a page sorted by date sorts the whole table.
      if (SORTED_BY_NULL_PAIR.has(field.type) && !field.required) index(`${field.name}__nulls`, nullPair(field.name));
    }
    for (const term of parseOrder(model.order, 19) ?? []) {
      if (term.field !== 'id' && !indexed.has(term.field)) {
        index(term.field, quoteIdent(term.field));
        indexed.add(term.field);
      }
    }
    const orderIndex = orderIndexExpressions(model);
    if (orderIndex) index('order', orderIndex);
    for (const field of model.fields.values()) {
      if (!field.relationTable) continue;
      const rel = quoteIdent(field.relationTable);
      statements.push(`CREATE INDEX IF NOT EXISTS ${quoteIdent(`${field.relationTable}_ab`)} ON ${rel} ("a", "b");`);
      statements.push(`CREATE INDEX IF NOT EXISTS ${quoteIdent(`${field.relationTable}_b`)} ON ${rel} ("b");`);
    }
  }
  statements.push(`CREATE UNIQUE INDEX IF NOT EXISTS "res_users__login_unique" ON "res_users" ("login");`);
  db.exec(statements.join('\n'));
}

/**
 * The default order as index expressions, when it is made of plain columns (a many2one ordered
 * through its comodel cannot be indexed). Mirrors `orderTerms` without the table alias.
 */
function orderIndexExpressions(model: ModelInfo): string | undefined {
  const terms = parseOrder(model.order, 19);
  if (!terms || terms.length < 1) return undefined;
  const keys: string[] = [];
  for (const term of terms) {
    const field = model.fields.get(term.field);
    if (!field?.store || field.type === 'many2one' || term.property) return undefined;
    const expr = field.type === 'boolean' ? `COALESCE(${quoteIdent(field.name)}, 0)` : quoteIdent(field.name);
    const nullable = field.type !== 'boolean' && field.name !== 'id' && !field.required;
    keys.push(...orderTerms(expr, term.direction ?? 'ASC', term.nulls, nullable));
  }
  if (keys.length === 1 && terms[0]?.field === 'id') return undefined;
  return keys.join(', ');
}
