/**
 * @module Reading records: one SELECT for the rows (stored and computed fields alike), then one
 * query per comodel for many2one display names and one per x2many field, and the value encoding
 * of reference section 8.2 (`false` for empty values, `0` for empty numbers, `[id, name]`...).
 */
import type { Sql, SqlParam, StatementCache } from '../store/statements';
import { column, quoteIdent } from '../store/naming';
import type { AccessControl } from './access';
import { computedSql } from './domain';
import { valueError } from './errors';
import { compileOrder, type CompiledOrder } from './order';
import { pyRepr } from './python';
import type { FieldInfo, ModelInfo, Registry } from './registry';
import { join, param, raw, sql } from './sql';
import { OdooException, type OdooVersion } from './types';
import { ormTraits } from './version-traits';

export interface ReadContext {
  readonly registry: Registry;
  readonly version: OdooVersion;
  readonly access: AccessControl;
  readonly uid: number;
  readonly statements: StatementCache;
  readonly now: Date;
}

/** Which rows: given ids (result in their order, missing ones dropped unless only `id` is read) or a search. */
export type RowSource =
  | { readonly kind: 'ids'; readonly ids: readonly number[] }
  | {
      readonly kind: 'search';
      readonly where: Sql;
      readonly order: CompiledOrder;
      readonly limit: number | null;
      readonly offset: number;
    };

export interface ReadOptions {
  /** `load='_classic_read'`: many2one as `[id, display_name]`, else bare ids. */
  readonly displayNames: boolean;
  /** x2many values leave archived comodel rows out unless the context says `active_test: false`. */
  readonly x2manyActiveTest: boolean;
}

export type RecordValues = Record<string, unknown>;

/**
 * The field names a read returns: every field when omitted or empty, else the given names, each
 * of which must exist (`ValueError` "Invalid field 'x' on model 'y'", 19: "… on 'y'").
 */
export function resolveFieldNames(version: OdooVersion, model: ModelInfo, fields: unknown): string[] {
  if (fields === null || fields === undefined || fields === false || (Array.isArray(fields) && !fields.length)) {
    return [...model.fields.keys()];
  }
  // Python iterates a string character by character: `fields='name'` asks for 'n', 'a'...
  const names: unknown[] = typeof fields === 'string' ? [...fields] : Array.isArray(fields) ? fields : [fields];
  for (const name of names) {
    if (typeof name !== 'string' || !model.fields.has(name)) {
      throw valueError(ormTraits(version).invalidReadFieldMessage(pyRepr(name), pyRepr(model.name)));
    }
  }
  return names as string[];
}

export function readRecords(ctx: ReadContext, model: ModelInfo, fieldNames: readonly string[], source: RowSource, options: ReadOptions): RecordValues[] {
  const fields = unique(fieldNames).map((name) => model.fields.get(name)!);
  // Odoo's `_read_format` drops a record only when reading one of its fields raises MissingError,
  // and `record.id` never does: reading nothing but `id` returns every id asked, missing or not.
  if (source.kind === 'ids' && fields.every((field) => field.name === 'id')) return source.ids.map((id) => ({ id }));
  const rows = selectRows(ctx, model, fields, source);
  if (!rows.length) return [];

  // Computing a field may need read right on another model: the whole call fails without it.
  for (const field of fields) if (field.requires) ctx.access.check(ctx.uid, field.requires, 'read');

  const x2many = new Map<string, Map<number, number[]>>();
  for (const field of fields) {
    if (field.type === 'one2many' || field.type === 'many2many') {
      x2many.set(field.name, readX2many(ctx, model, field, rows, options.x2manyActiveTest));
    }
  }
  const names = options.displayNames ? readDisplayNames(ctx, fields, rows) : undefined;

  const byId = new Map(rows.map((row) => [row['id'] as number, row]));
  const ordered = source.kind === 'ids' ? source.ids.filter((id) => byId.has(id)).map((id) => byId.get(id)!) : rows;
  return ordered.map((row) => {
    const values: RecordValues = { id: row['id'] };
    for (const field of fields) {
      if (field.name === 'id') continue;
      values[field.name] = formatValue(field, row[field.name] ?? null, row['id'] as number, x2many, names);
    }
    return values;
  });
}

/** One SELECT: stored columns and computed expressions, with the search's order and page. */
function selectRows(ctx: ReadContext, model: ModelInfo, fields: readonly FieldInfo[], source: RowSource): Record<string, SqlParam>[] {
  const select: Sql[] = [raw(`${column('t', 'id')} AS "id"`)];
  for (const field of fields) {
    if (field.name === 'id' || field.type === 'one2many' || field.type === 'many2many') continue;
    const expr = field.compute !== undefined ? sql`(${computedSql(field.compute, ctx.now)})` : raw(column('t', field.name));
    select.push(sql`${expr} AS ${raw(quoteIdent(field.name))}`);
  }
  const from = raw(quoteIdent(model.table));
  let query: Sql;
  if (source.kind === 'ids') {
    if (!source.ids.length) return [];
    query = sql`SELECT ${join(select, ', ')} FROM ${from} t WHERE t."id" IN (SELECT value FROM json_each(${param(JSON.stringify(unique(source.ids)))}))`;
  } else {
    const orderBy = source.order.orderBy ? raw(` ORDER BY ${source.order.orderBy}`) : raw('');
    query = sql`SELECT ${join(select, ', ')} FROM ${from} t ${raw(source.order.joins)} WHERE ${source.where}${orderBy} LIMIT ${param(source.limit ?? -1)} OFFSET ${param(source.offset)}`;
  }
  return ctx.statements.all(query);
}

/** Display names of every many2one value, one query per comodel, read as superuser (no ACL). */
function readDisplayNames(ctx: ReadContext, fields: readonly FieldInfo[], rows: readonly Record<string, SqlParam>[]): Map<string, Map<number, unknown>> {
  const idsByComodel = new Map<string, Set<number>>();
  for (const field of fields) {
    if (field.type !== 'many2one') continue;
    let ids = idsByComodel.get(field.relation!);
    if (!ids) {
      ids = new Set();
      idsByComodel.set(field.relation!, ids);
    }
    for (const row of rows) {
      const id = row[field.name];
      if (typeof id === 'number') ids.add(id);
    }
  }
  const names = new Map<string, Map<number, unknown>>();
  for (const [comodelName, ids] of idsByComodel) {
    const comodel = ctx.registry.require(comodelName);
    const byId = new Map<number, unknown>();
    if (ids.size) {
      const query = sql`SELECT t."id" AS "id", (${computedSql(comodel.displayNameSql, ctx.now)}) AS "name" FROM ${raw(quoteIdent(comodel.table))} t WHERE t."id" IN (SELECT value FROM json_each(${param(JSON.stringify([...ids]))}))`;
      for (const row of ctx.statements.all<{ id: number; name: SqlParam }>(query)) byId.set(row.id, row.name);
    }
    names.set(comodelName, byId);
  }
  return names;
}

/**
 * x2many values: the comodel rows linked to each record, in the comodel's `_order`, archived ones
 * left out (Odoo computes them with a comodel search). Needs read right on the comodel.
 */
function readX2many(ctx: ReadContext, model: ModelInfo, field: FieldInfo, rows: readonly Record<string, SqlParam>[], activeTest: boolean): Map<number, number[]> {
  const comodel = ctx.registry.require(field.relation!);
  try {
    ctx.access.check(ctx.uid, comodel.name, 'read');
  } catch (error) {
    if (ormTraits(ctx.version).x2manyReadErrorNamesField && error instanceof OdooException) {
      throw new OdooException(error.exceptionName, `Failed to read field ${model.name}.${field.name}\n${error.message}`);
    }
    throw error;
  }
  const order = compileOrder(ctx.registry, ctx.version, comodel, null);
  const ids = param(JSON.stringify(rows.map((r) => r['id'])));
  const active = activeTest && comodel.hasActive ? raw(' AND t."active" = 1') : raw('');
  const orderBy = raw(order.orderBy ? ` ORDER BY ${order.orderBy}` : '');
  const query =
    field.type === 'one2many'
      ? sql`SELECT ${raw(column('t', field.inverse!))} AS "k", t."id" AS "v" FROM ${raw(quoteIdent(comodel.table))} t ${raw(order.joins)} WHERE ${raw(column('t', field.inverse!))} IN (SELECT value FROM json_each(${ids}))${active}${orderBy}`
      : sql`SELECT r."a" AS "k", t."id" AS "v" FROM ${raw(quoteIdent(field.relationTable!))} r JOIN ${raw(quoteIdent(comodel.table))} t ON t."id" = r."b" ${raw(order.joins)} WHERE r."a" IN (SELECT value FROM json_each(${ids}))${active}${orderBy}`;
  const linked = new Map<number, number[]>();
  for (const { k, v } of ctx.statements.all<{ k: number; v: number }>(query)) {
    let list = linked.get(k);
    if (!list) {
      list = [];
      linked.set(k, list);
    }
    if (!list.includes(v)) list.push(v);
  }
  return linked;
}

/** Section 8.2: a stored or computed value as Odoo's `convert_to_read` returns it. */
function formatValue(
  field: FieldInfo,
  value: SqlParam,
  id: number,
  x2many: ReadonlyMap<string, ReadonlyMap<number, number[]>>,
  names: ReadonlyMap<string, ReadonlyMap<number, unknown>> | undefined,
): unknown {
  switch (field.type) {
    case 'one2many':
    case 'many2many':
      return x2many.get(field.name)?.get(id) ?? [];
    case 'many2one': {
      if (value === null) return false;
      if (!names) return value;
      const name = names.get(field.relation!)?.get(value as number);
      return [value, name === null || name === undefined ? false : String(name)];
    }
    case 'integer':
      return value === null ? 0 : Math.trunc(Number(value));
    case 'float':
      return value === null ? 0 : roundTo(Number(value), field.digits);
    case 'monetary':
      return value === null ? 0 : roundTo(Number(value), field.digits ?? 2);
    case 'boolean':
      return value !== null && value !== 0 && value !== '0';
    case 'json':
      return value === null ? false : JSON.parse(String(value));
    case 'datetime':
      // `Datetime.to_string`: the stored fractions of a second are never answered.
      return value === null ? false : String(value).slice(0, 19);
    default:
      return value === null ? false : String(value);
  }
}

/** `float_round`: half away from zero, exact on decimal representations (1.005 → 1.01). */
function roundTo(value: number, digits: number | undefined): number {
  if (digits === undefined || !Number.isFinite(value)) return value;
  const sign = value < 0 ? -1 : 1;
  const abs = Math.abs(value);
  const rounded = String(abs).includes('e') ? Math.round(abs * 10 ** digits) / 10 ** digits : Number(`${Math.round(Number(`${abs}e${digits}`))}e-${digits}`);
  return sign * rounded || 0;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
