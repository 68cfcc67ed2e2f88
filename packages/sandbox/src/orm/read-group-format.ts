/**
 * @module The public grouped reads on top of `_read_group` (read-group.ts): `read_group` (17, 18;
 * deprecated but served in 19), whose compatibility layer turns `fields` into aggregates, keeps one
 * groupby when `lazy`, fills the groups a field expands to and formats each group with
 * `__domain`, `__range`, `__context`, `<field>_count`; and 19's `formatted_read_group` (the web
 * module), which answers each groupby and aggregate under its own spec with `__extra_domain`.
 *
 * Sources: odoo/models.py `read_group`, `_read_group_fill_results`, `_read_group_format_result`
 * (17; 18's ormapping/models.py; 19's odoo/orm/models.py) and addons/web/models/models.py
 * `formatted_read_group`, `_web_read_group_expand`, `_web_read_group_format` (19).
 */
import { quoteIdent } from '../store/naming';
import { andAll19, and19, andDomains17, domain19, listDomain19, TRUE_19, type Domain19, type DomainList } from './domain-list';
import { attributeError, typeError, valueError } from './errors';
import { bucketOf, type TimeGranularity } from './group-labels';
import { defaultAggregator } from './field-flags';
import { pyRepr, pyTruthy } from './python';
import { describeGroupby, emptyValue, parseGroupSpec, readGroupRows, type GroupContext, type GroupbyInfo, type GroupRow } from './read-group';
import { computedSql } from './domain';
import { parseDomain } from './domain-parse';
import { modelOrder, type FieldInfo, type ModelInfo } from './registry';
import { compileOrder } from './order';
import { param, raw, sql } from './sql';
import { ormTraits } from './version-traits';
import type { OdooVersion } from './types';

export interface ReadGroupArgs {
  readonly domain: unknown;
  readonly fields: unknown;
  readonly groupby: unknown;
  readonly offset: number;
  readonly limit: number | null;
  readonly orderby: unknown;
  readonly lazy: boolean;
  /** The call's context (`read_group_expand`, `tz`). */
  readonly context: Readonly<Record<string, unknown>>;
}

export interface FormattedReadGroupArgs {
  readonly domain: unknown;
  readonly groupby: unknown;
  readonly aggregates: unknown;
  readonly having: unknown;
  readonly offset: number;
  readonly limit: number | null;
  readonly order: unknown;
  readonly context: Readonly<Record<string, unknown>>;
}

/** `regex_field_agg` (`name`, `name:agg`, `name:agg(field)`), matched at the start like `re.match`. */
const FIELD_AGG = /^([\p{L}\p{N}_]+)(?::([\p{L}\p{N}_]+)(?:\(([\p{L}\p{N}_]+)\))?)?/u;

/** Python iterates a string character by character, and refuses to iterate a number or None. */
function pyIterable(value: unknown, what: string): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return [...value];
  if (value !== null && typeof value === 'object') return Object.keys(value);
  throw typeError(`'${pyTypeName(value)}' object is not ${what}`);
}

function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return typeof value === 'string' ? 'str' : 'dict';
}

/** `read_group(domain, fields, groupby, offset, limit, orderby, lazy)`. */
export function readGroup(ctx: GroupContext, model: ModelInfo, args: ReadGroupArgs): Record<string, unknown>[] {
  const { version } = ctx;
  const traits = ormTraits(version);
  const groupby = (typeof args.groupby === 'string' ? [args.groupby] : pyIterable(args.groupby, 'subscriptable')) as unknown[];
  const lazyGroupby = args.lazy ? groupby.slice(0, 1) : groupby;

  // Key in the answer → the explicit spec given to _read_group.
  const annotatedGroupby = new Map<string, string>();
  for (const spec of lazyGroupby) {
    const { fname, path, func } = parseGroupSpec(version, spec);
    const field = model.fields.get(fname);
    if (!field) throw valueError(`Invalid field ${pyRepr(fname)} on model ${pyRepr(model.name)}`);
    if (path !== undefined) throw valueError(`Property name ${pyRepr(path)} has to be used on a property field.`);
    annotatedGroupby.set(spec as string, field.type === 'date' || field.type === 'datetime' ? `${fname}:${func ?? 'month'}` : (spec as string));
  }
  const countKey = args.lazy && lazyGroupby.length === 1 ? `${String(lazyGroupby[0]).split(':')[0]}_count` : '__count';
  const annotatedAggregates = new Map<string, string>([[countKey, '__count']]);
  for (const spec of pyIterable(args.fields, 'iterable')) {
    if (spec === '__count') continue;
    if (typeof spec !== 'string') throw typeError(`expected string or bytes-like object, got '${pyTypeName(spec)}'`);
    const m = FIELD_AGG.exec(spec);
    if (!m) throw valueError(`Invalid field specification ${pyRepr(spec)}.`);
    const [, name, func, fname] = m as unknown as [string, string, string | undefined, string | undefined];
    if (fname) {
      annotatedAggregates.set(name, `${fname}:${func}`);
      continue;
    }
    if (func) {
      annotatedAggregates.set(name, `${name}:${func}`);
      continue;
    }
    const field = model.fields.get(name);
    if (!field) throw valueError(`Invalid field ${pyRepr(name)} on model ${pyRepr(model.name)}`);
    const aggregator = defaultAggregator(version, field);
    const stored = field.compute === undefined && field.type !== 'one2many' && field.type !== 'many2many';
    if (stored && aggregator && !annotatedGroupby.has(spec)) annotatedAggregates.set(name, `${name}:${aggregator}`);
  }

  let orderby: string;
  if (pyTruthy(args.orderby)) {
    if (typeof args.orderby !== 'string') throw attributeError(`'${pyTypeName(args.orderby)}' object has no attribute 'split'`);
    const renames = [...[...annotatedGroupby].reverse(), ...annotatedAggregates];
    orderby = args.orderby
      .split(',')
      .map((part) => {
        const term = part.trim();
        for (const [key, annotated] of renames) {
          const name = key.split(':')[0]!;
          if (term.startsWith(`${name} `) || term === name) return term.split(name).join(annotated);
        }
        return term;
      })
      .join(',');
  } else {
    orderby = [...annotatedGroupby.values()].join(',');
  }

  if (traits.readGroupParsesDomainFirst) parseDomain(args.domain, version);
  const result = readGroupRows(ctx, model, {
    domain: args.domain,
    groupby: [...annotatedGroupby.values()],
    aggregates: [...annotatedAggregates.values()],
    offset: args.offset,
    limit: args.limit,
    order: orderby,
  });
  const infos = [...annotatedGroupby.values()].map((spec) => describeGroupby(ctx.registry, version, model, spec));
  const keys = [...annotatedGroupby.keys(), ...annotatedAggregates.keys()];
  let rows = result.rows.map((row) => Object.fromEntries(keys.map((key, i) => [key, row[i]]))) as Record<string, unknown>[];

  if (lazyGroupby.length && args.lazy) {
    rows = fillResults(ctx, infos[0]!, String(lazyGroupby[0]), annotatedAggregates, rows, orderby, args.context);
  }
  const domain = (args.domain ?? []) as DomainList;
  for (const row of rows) {
    row['__domain'] = traits.readGroupDomains === 'Domain' ? domain19(domain) : domain;
    if (lazyGroupby.length < groupby.length) row['__context'] = { group_by: groupby.slice(lazyGroupby.length) };
  }
  formatResult(ctx, model, rows, lazyGroupby.map(String), infos);
  return rows;
}

/**
 * `_read_group_fill_results`: the groups of a field's `group_expand` (every stage, every state)
 * that have no record, with empty aggregates, in the expanded order; `__fold` from the comodel.
 */
function fillResults(
  ctx: GroupContext,
  info: GroupbyInfo,
  key: string,
  aggregates: ReadonlyMap<string, string>,
  rows: Record<string, unknown>[],
  order: string,
  context: Readonly<Record<string, unknown>>,
): Record<string, unknown>[] {
  const expand = info.field.def?.groupExpand;
  if (!expand) return rows;
  const values = expandValues(ctx, info.field, context, order === `${key} desc`);
  const byKey = new Map(rows.map((r) => [r[key], r]));
  const empty = Object.fromEntries([...aggregates].map(([name, spec]) => [name, emptyValue(spec, ctx.version)]));
  const result = new Map<unknown, Record<string, unknown>>();
  for (const value of values) {
    const existing = byKey.get(value);
    byKey.delete(value);
    result.set(value, existing ?? { ...empty, [key]: value });
  }
  for (const [value, row] of byKey) result.set(value, row);
  if (info.kind === 'record' && info.field.relation) {
    const comodel = ctx.registry.require(info.field.relation);
    if (hasFold(ctx.version, comodel)) {
      const ids = [...result.keys()].filter((k): k is number => typeof k === 'number');
      const folds = new Map(
        ctx.statements
          .all<{ id: number; fold: number | null }>(
            sql`SELECT "id", "fold" FROM ${raw(quoteIdent(comodel.table))} WHERE "id" IN (SELECT value FROM json_each(${param(JSON.stringify(ids))}))`,
          )
          .map((r) => [r.id, r.fold === 1]),
      );
      for (const [value, row] of result) row['__fold'] = folds.get(value as number) ?? false;
    }
  }
  return [...result.values()];
}

/** The values a field's `group_expand` gives: every selection key, or every comodel record the user may search. */
function expandValues(ctx: GroupContext, field: FieldInfo, context: Readonly<Record<string, unknown>>, descending: boolean): unknown[] {
  const expand = field.def!.groupExpand!;
  if (expand === 'selection') {
    const keys = (field.selection ?? []).map(([key]) => key);
    return descending ? keys.reverse() : keys;
  }
  const comodel = ctx.registry.require(field.relation!);
  ctx.access.check(ctx.uid, comodel.name, 'read');
  // 17 hands the comodel's order (reversed for `<field> desc`) to the expand method, which may use it.
  const reverse = descending && ormTraits(ctx.version).groupExpandGetsOrder && field.def!.groupExpandUsesOrder === true;
  const order = compileOrder(ctx.registry, ctx.version, comodel, reverse ? reverseOrder(modelOrder(comodel, ctx.version)) : null);
  const activeTest = Object.hasOwn(context, 'active_test') ? pyTruthy(context['active_test']) : true;
  const active = comodel.hasActive && activeTest ? raw(' AND t."active" = 1') : raw('');
  const orderBy = raw(order.orderBy ? ` ORDER BY ${order.orderBy}` : '');
  return ctx.statements.all<{ id: number }>(sql`SELECT t."id" AS "id" FROM ${raw(quoteIdent(comodel.table))} t ${raw(order.joins)} WHERE 1${active}${orderBy}`).map((r) => r.id);
}

/** The comodel has Odoo's `_fold_name` field (`fold`) in that version. */
function hasFold(version: OdooVersion, comodel: ModelInfo): boolean {
  const fold = comodel.fields.get('fold');
  return fold !== undefined && (fold.def?.since ?? 17) <= version;
}

/** `tools.reverse_order`. */
function reverseOrder(order: string): string {
  return order
    .split(',')
    .map((part) => {
      const [name, direction] = part.trim().split(/\s+/);
      return `${name} ${direction?.toLowerCase() === 'desc' ? 'asc' : 'desc'}`;
    })
    .join(', ');
}

/** Display names of records, as the superuser reads them (`value.sudo().display_name`). */
function displayNames(ctx: GroupContext, model: ModelInfo, ids: readonly number[]): Map<number, string | false> {
  const names = new Map<number, string | false>();
  if (!ids.length) return names;
  const query = sql`SELECT t."id" AS "id", (${computedSql(model.displayNameSql, ctx.domain.now)}) AS "name" FROM ${raw(quoteIdent(model.table))} t WHERE t."id" IN (SELECT value FROM json_each(${param(JSON.stringify([...new Set(ids)]))}))`;
  for (const row of ctx.statements.all<{ id: number; name: string | null }>(query)) names.set(row.id, row.name === null ? false : String(row.name));
  return names;
}

function recordModel(ctx: GroupContext, model: ModelInfo, info: GroupbyInfo): ModelInfo {
  return info.field.relation ? ctx.registry.require(info.field.relation) : model;
}

/** `row.setdefault('__range', {})`. */
function rangeOf(row: Record<string, unknown>): Record<string, unknown> {
  if (!row['__range']) row['__range'] = {};
  return row['__range'] as Record<string, unknown>;
}

/** `_read_group_format_result`: records as `[id, name]`, date buckets as labels with `__range`, each group's `__domain`. */
function formatResult(ctx: GroupContext, model: ModelInfo, rows: Record<string, unknown>[], groups: readonly string[], infos: readonly GroupbyInfo[]): void {
  const traits = ormTraits(ctx.version);
  groups.forEach((group, index) => {
    const info = infos[index]!;
    const field = info.field;
    const name = field.name;
    const names =
      info.kind === 'record'
        ? displayNames(
            ctx,
            recordModel(ctx, model, info),
            rows.map((r) => r[group]).filter((v): v is number => typeof v === 'number'),
          )
        : undefined;
    const others = rows.map((r) => r[group]).filter((v): v is number => typeof v === 'number');
    for (const row of rows) {
      let value = row[group];
      if (names) {
        row[group] = typeof value === 'number' ? [value, names.get(value) ?? false] : false;
      }
      let additional: DomainList;
      if (!pyTruthy(value) && field.type === 'many2many') {
        additional = traits.emptyMany2manyGroupDomain === 'not any' ? [[name, 'not any', []]] : [[name, 'not in', others]];
      } else {
        additional = [[name, '=', value]];
      }
      if (info.kind === 'time') {
        if (typeof value === 'string') {
          const granularity = info.granularity as TimeGranularity;
          if (granularity === 'hour' && field.type === 'date') throw attributeError("'datetime.date' object has no attribute 'hour'");
          const bucket = bucketOf(value, granularity, field.type as 'date' | 'datetime', ctx.contextTz);
          row[group] = bucket.label;
          rangeOf(row)[group] = { from: bucket.from, to: bucket.to };
          additional = ['&', [name, '>=', bucket.from], [name, '<', bucket.to]];
          value = bucket.label;
        } else {
          rangeOf(row)[group] = false;
        }
      } else if (info.kind === 'number') {
        additional = [[`${name}.${info.granularity}`, '=', value]];
      }
      row['__domain'] =
        traits.readGroupDomains === 'Domain'
          ? and19(row['__domain'] as Domain19, domain19(additional))
          : andDomains17([
              { domain: row['__domain'] as DomainList, built: false },
              { domain: additional, built: true },
            ]);
    }
  });
  if (traits.readGroupDomains === 'Domain') for (const row of rows) row['__domain'] = listDomain19(row['__domain'] as Domain19);
}

/** `formatted_read_group(domain, groupby, aggregates, having, offset, limit, order)` (19). */
export function formattedReadGroup(ctx: GroupContext, model: ModelInfo, args: FormattedReadGroupArgs): Record<string, unknown>[] {
  const groupby = pyIterable(args.groupby, 'iterable') as string[];
  const aggregates = (pyIterable(args.aggregates, 'iterable') as unknown[]).map((spec) => {
    if (typeof spec !== 'string') throw attributeError(`'${pyTypeName(spec)}' object has no attribute 'replace'`);
    return spec.split(':recordset').join(':array_agg');
  });
  const order = pyTruthy(args.order) ? String(args.order) : groupby.join(', ');
  const result = readGroupRows(ctx, model, {
    domain: args.domain,
    groupby,
    aggregates,
    having: args.having,
    offset: args.offset,
    limit: args.limit,
    order,
  });
  let rows: GroupRow[] = [...result.rows];
  const expandField = expandedField(model, groupby, args.context);
  let fold: Map<unknown, boolean> | undefined;
  if (expandField && !args.offset && (args.limit === null || rows.length < args.limit)) {
    const expanded = expandGroups(ctx, expandField, rows, aggregates, order, groupby[0]!, args.context);
    if (args.limit === null || expanded.length < args.limit) rows = expanded;
  }
  if (expandField?.relation) {
    const comodel = ctx.registry.require(expandField.relation);
    if (comodel.fields.has('fold'))
      fold = folds(
        ctx,
        comodel,
        rows.map((r) => r[0]),
      );
  }
  return formatGroups(
    ctx,
    model,
    groupby.map((spec) => describeGroupby(ctx.registry, ctx.version, model, spec)),
    aggregates,
    rows,
    fold,
  );
}

/** `_web_read_group_field_expand`: one groupby, `read_group_expand` in the context, a field that expands. */
function expandedField(model: ModelInfo, groupby: readonly string[], context: Readonly<Record<string, unknown>>): FieldInfo | undefined {
  if (groupby.length !== 1 || !pyTruthy(context['read_group_expand']) || groupby[0]!.includes('.')) return undefined;
  const field = model.fields.get(groupby[0]!.split(':')[0]!);
  return field?.def?.groupExpand ? field : undefined;
}

function expandGroups(
  ctx: GroupContext,
  field: FieldInfo,
  rows: readonly GroupRow[],
  aggregates: readonly string[],
  order: string,
  spec: string,
  context: Readonly<Record<string, unknown>>,
): GroupRow[] {
  let values = expandValues(ctx, field, context, false);
  if (order.toLowerCase().includes(`${spec} desc`)) values = [...values].reverse();
  const empty = aggregates.map((a) => emptyValue(a, ctx.version));
  const result = new Map<unknown, unknown[]>(values.map((v) => [v, empty]));
  for (const [value, ...rest] of rows) result.set(value, rest);
  return [...result].map(([value, rest]) => [value, ...rest]);
}

function folds(ctx: GroupContext, comodel: ModelInfo, ids: readonly unknown[]): Map<unknown, boolean> {
  const numbers = ids.filter((v): v is number => typeof v === 'number');
  const rows = ctx.statements.all<{ id: number; fold: number | null }>(
    sql`SELECT "id", "fold" FROM ${raw(quoteIdent(comodel.table))} WHERE "id" IN (SELECT value FROM json_each(${param(JSON.stringify(numbers))}))`,
  );
  return new Map(rows.map((r) => [r.id, r.fold === 1]));
}

/** `_web_read_group_format`: each groupby value formatted with its `__extra_domain` part, then the aggregates. */
function formatGroups(
  ctx: GroupContext,
  model: ModelInfo,
  infos: readonly GroupbyInfo[],
  aggregates: readonly string[],
  rows: readonly GroupRow[],
  fold: Map<unknown, boolean> | undefined,
): Record<string, unknown>[] {
  const result = rows.map(() => ({}) as Record<string, unknown>);
  const extra = rows.map(() => [] as Domain19[]);
  infos.forEach((info, index) => {
    const field = info.field;
    const name = field.name;
    const values = rows.map((r) => r[index]);
    const names =
      info.kind === 'record'
        ? displayNames(
            ctx,
            recordModel(ctx, model, info),
            values.filter((v): v is number => typeof v === 'number'),
          )
        : undefined;
    values.forEach((value, i) => {
      let formatted: unknown = value;
      let domain: DomainList = [[name, '=', value]];
      if (info.kind === 'record') {
        if (typeof value === 'number') formatted = [value, names!.get(value) ?? false];
        else {
          formatted = false;
          if (field.type === 'many2many') domain = [[name, 'not any', []]];
          else domain = [[name, '=', false]];
        }
      } else if (info.kind === 'time' && typeof value === 'string') {
        const granularity = info.granularity as TimeGranularity;
        if (granularity === 'hour' && field.type === 'date') throw attributeError("'datetime.date' object has no attribute 'hour'");
        const bucket = bucketOf(value, granularity, field.type as 'date' | 'datetime', ctx.contextTz);
        formatted = [bucket.from, bucket.label];
        domain = ['&', [name, '>=', bucket.from], [name, '<', bucket.to]];
      } else if (info.kind === 'number') {
        domain = [[`${name}.${info.granularity}`, '=', value]];
      }
      // A dotted groupby: each many2one followed wraps the condition (`formatter_follow_many2one`).
      for (const via of [...(info.through ?? [])].reverse()) {
        domain = pyTruthy(formatted) ? [[via, 'any', domain]] : ['|', [via, 'not any', []], [via, 'any', domain]];
      }
      result[i]![info.spec] = formatted;
      extra[i]!.push(domain19(domain));
      if (fold && index === 0) result[i]!['__fold'] = fold.get(value) ?? false;
    });
  });
  rows.forEach((row, i) => {
    result[i]!['__extra_domain'] = listDomain19(infos.length ? andAll19(extra[i]!) : TRUE_19);
    aggregates.forEach((spec, j) => {
      result[i]![spec] = row[infos.length + j];
    });
  });
  return result;
}
