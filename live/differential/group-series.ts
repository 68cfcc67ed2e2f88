/**
 * @module The grouped reads of the differential series: `read_group` (every version) and
 * `formatted_read_group` (19) on every common model, grouped by a selection, a many2one, a boolean,
 * a date and a datetime field (every granularity, in UTC and in two other time zones, and 18's
 * number granularities), with counts, sums, averages, minimums, maximums and distinct counts of its
 * numbers (NULL ones among them), orders on groups and aggregates, limits, lazy and eager groupings,
 * empty results, and every error class a grouped read has.
 *
 * Groups that tie under the order asked are compared as sets within each run of equal keys (the
 * order of PostgreSQL's ties is unspecified); everything else is compared as answered.
 */
import { modelOrder, type FieldInfo } from '@ops-data-gateway/sandbox/orm/registry';
import type { OdooVersion } from '@ops-data-gateway/sandbox/orm/types';
import { canonical } from './compare';
import type { NullNumbers } from './mirror';
import type { CommonModel } from './schema';
import { tieKeyOf, type SeriesCall, type SeriesInput } from './series';
import type { ExecuteCall } from './wire';

type Add = (call: ExecuteCall, extra?: Partial<SeriesCall>) => void;

type Group = Record<string, unknown>;

const ARCHIVED = { active_test: false };
const NUMERIC = new Set(['integer', 'float', 'monetary']);
const DATE_GRANULARITIES = ['day', 'week', 'month', 'quarter', 'year'];
const DATETIME_GRANULARITIES = ['hour', ...DATE_GRANULARITIES];

function exec(model: string, method: string, kwargs: Record<string, unknown>, extra: Partial<ExecuteCall> = {}): ExecuteCall {
  return { kind: 'execute', model, method, kwargs, ...extra };
}

/** Groupable on both sides: a column here and a stored field there. */
function groupable(model: CommonModel, field: FieldInfo): boolean {
  return field.name !== 'id' && field.store && field.compute === undefined && model.live[field.name]?.store !== false;
}

/**
 * A projection keeping the order of the groups but not the order within a run of groups whose
 * `key` is equal (ties of the order asked, which PostgreSQL returns in any order).
 */
export function tiesBy(key: (group: Group) => string): (value: unknown) => unknown {
  return (value) => {
    if (!Array.isArray(value)) return value;
    const out: unknown[] = [];
    let run: unknown[] = [];
    let runKey: string | undefined;
    const flush = () => {
      out.push(...run.sort((a, b) => (canonical(a) < canonical(b) ? -1 : canonical(a) > canonical(b) ? 1 : 0)));
      run = [];
    };
    for (const item of value) {
      const k = item && typeof item === 'object' ? key(item as Group) : canonical(item);
      if (k !== runKey) flush();
      runKey = k;
      run.push(item);
    }
    flush();
    return out;
  };
}

/** Ties of a groupby value: a many2one through its comodel's order (from the mirrored records), else the value. */
function groupKey(input: SeriesInput, field: FieldInfo, key: string): (group: Group) => string {
  if (field.type !== 'many2one') return (group) => canonical(group[key]);
  const comodel = input.schema.models.get(field.relation!);
  if (!comodel) return (group) => canonical(group[key]);
  const order = modelOrder(comodel.sandbox, input.major as OdooVersion);
  const tie = tieKeyOf(input.snapshot, comodel.name, order);
  return (group) => {
    const value = group[key];
    return Array.isArray(value) ? tie(value[0]) : 'false';
  };
}

/** The numbers to aggregate: those with NULL rows first, then the others (at most two). */
function measures(model: CommonModel, nulls: NullNumbers | undefined): FieldInfo[] {
  const numbers = model.fields.filter((f) => NUMERIC.has(f.type) && groupable(model, f) && f.name !== 'sequence');
  const withNulls = nulls?.get(model.name);
  return [...numbers.filter((f) => withNulls?.has(f.name)), ...numbers.filter((f) => !withNulls?.has(f.name))].slice(0, 2);
}

function firstOfType(model: CommonModel, type: string, avoid: readonly string[] = []): FieldInfo | undefined {
  const fields = model.fields.filter((f) => f.type === type && groupable(model, f));
  return fields.find((f) => !avoid.includes(f.name)) ?? fields[0];
}

/** The grouped reads of the series, over every transport of the version. */
export function buildGroupSeries(input: SeriesInput): SeriesCall[] {
  const out: SeriesCall[] = [];
  const add: Add = (call, extra = {}) => out.push({ call, transports: extra.transports ?? input.transports, ...extra });
  const models = [...input.schema.models.values()];
  const rich = models.filter((m) => RICH.includes(m.name) || m.fields.some((f) => f.def?.groupExpand) || (input.nulls?.get(m.name)?.size ?? 0) > 0);
  if (!rich.length) {
    const first = models.find((m) => firstOfType(m, 'selection') ?? firstOfType(m, 'many2one'));
    if (first) rich.push(first);
  }
  for (const model of models) modelGroupCalls(model, input, add, rich.includes(model));
  groupErrorCalls(input, add);
  return out;
}

/**
 * The models every grouping is tried on (with the ones whose groups expand and those with NULL
 * numbers); each other common model gets a few groupings (its first dimension, a month, a week).
 */
const RICH = ['purchase.order', 'purchase.order.line', 'fleet.vehicle', 'fleet.vehicle.log.services', 'event.event', 'event.registration', 'stock.picking', 'product.product'];

function modelGroupCalls(model: CommonModel, input: SeriesInput, add: Add, full: boolean): void {
  const name = model.name;
  const formatted = input.major >= 19;
  const numbers = measures(model, input.nulls);
  const m = numbers[0];
  const selection = firstOfType(model, 'selection');
  const many2one = firstOfType(model, 'many2one', ['create_uid', 'write_uid', 'company_id', 'currency_id']);
  const boolean = firstOfType(model, 'boolean', ['active']);
  const date = firstOfType(model, 'date');
  const datetime = firstOfType(model, 'datetime', ['create_date', 'write_date']);
  const aggregateFields = [
    ...numbers.map((f) => f.name),
    ...(m ? [`${m.name}_avg:avg(${m.name})`, `${m.name}_min:min(${m.name})`, `${m.name}_max:max(${m.name})`, `${m.name}_n:count(${m.name})`] : []),
    ...(many2one ? [`${many2one.name}_distinct:count_distinct(${many2one.name})`] : []),
  ];
  const aggregates = [
    '__count',
    ...numbers.map((f) => `${f.name}:sum`),
    ...(m ? [`${m.name}:avg`, `${m.name}:min`, `${m.name}:max`, `${m.name}:count`] : []),
    ...(many2one ? [`${many2one.name}:count_distinct`, `${many2one.name}:max`] : []),
    ...(date ? [`${date.name}:min`, `${date.name}:max`] : []),
  ];
  const readGroup = (groupby: string[], extra: Record<string, unknown> = {}, call: Partial<SeriesCall> = {}) =>
    add(exec(name, 'read_group', { domain: [], fields: aggregateFields, groupby, ...extra }), call);
  const formattedGroup = (groupby: string[], extra: Record<string, unknown> = {}, call: Partial<SeriesCall> = {}) => {
    if (formatted) add(exec(name, 'formatted_read_group', { domain: [], groupby, aggregates, ...extra }), call);
  };

  if (!full) {
    readGroup([]);
    const dimension = selection ?? many2one ?? boolean;
    if (dimension) {
      readGroup([dimension.name], {}, { project: tiesBy(groupKey(input, dimension, dimension.name)) });
      formattedGroup([dimension.name], {}, { project: tiesBy(groupKey(input, dimension, dimension.name)) });
    }
    const temporal = datetime ?? date;
    if (temporal) {
      readGroup([`${temporal.name}:month`]);
      formattedGroup([`${temporal.name}:week`]);
    }
    return;
  }
  // No groupby: one group of everything, archived rows in or out.
  readGroup([]);
  readGroup([], { context: ARCHIVED });
  formattedGroup([]);
  // An empty result: false by its form (`in []`), and false only in the database.
  readGroup([], { domain: [['id', 'in', []]] });
  readGroup([], { domain: [['id', '=', -1]] });
  if (selection) {
    readGroup([selection.name], { domain: [['id', 'in', []]] });
    formattedGroup([selection.name], { domain: [['id', '=', -1]] });
  }

  for (const field of [selection, many2one, boolean]) {
    if (!field) continue;
    const order = { project: tiesBy(groupKey(input, field, field.name)) };
    const formattedOrder = { project: tiesBy(groupKey(input, field, field.name)) };
    readGroup([field.name], {}, order);
    readGroup([field.name], { context: ARCHIVED }, order);
    readGroup([field.name], { lazy: false }, order);
    formattedGroup([field.name], {}, formattedOrder);
    formattedGroup([field.name], { context: { read_group_expand: true } }, formattedOrder);
    readGroup([field.name], { orderby: `${field.name} desc` }, order);
    readGroup([field.name], { limit: 2, offset: 1 }, order);
    formattedGroup([field.name], { order: `${field.name} desc`, limit: 3 }, formattedOrder);
    if (m) {
      readGroup([field.name], { orderby: `${m.name} desc` }, { project: tiesBy((g) => canonical(g[m.name])) });
      formattedGroup([field.name], { order: `${m.name}:sum desc, __count` }, { project: tiesBy((g) => canonical([g[`${m.name}:sum`], g['__count']])) });
      if (formatted) add(exec(name, 'formatted_read_group', { domain: [], groupby: [field.name], aggregates: ['__count'], having: [[`${m.name}:sum`, '>', 0]] }), formattedOrder);
    }
    readGroup([field.name], { lazy: false, orderby: '__count desc' }, { project: tiesBy((g) => canonical(g['__count'])) });
    readGroup([field.name], { domain: [[field.name, '!=', false]] }, order);
  }

  for (const [field, granularities] of [
    [date, DATE_GRANULARITIES],
    [datetime, DATETIME_GRANULARITIES],
  ] as const) {
    if (!field) continue;
    readGroup([field.name]);
    for (const granularity of granularities) {
      readGroup([`${field.name}:${granularity}`]);
      formattedGroup([`${field.name}:${granularity}`]);
    }
    readGroup([`${field.name}:month`], { orderby: `${field.name} desc` });
    if (input.major >= 18) {
      const parts = field.type === 'date' ? ['year_number', 'day_of_month'] : ['quarter_number', 'month_number', 'iso_week_number', 'day_of_week', 'day_of_year'];
      for (const part of parts) readGroup([`${field.name}:${part}`]);
      formattedGroup([`${field.name}:${parts[0]}`]);
    }
    if (field.type === 'datetime') {
      // Buckets in the context's time zone (never the user's), an unknown zone as UTC.
      for (const tz of ['Europe/Brussels', 'America/New_York']) {
        for (const granularity of ['hour', 'day', 'week']) readGroup([`${field.name}:${granularity}`], { context: { tz } });
        formattedGroup([`${field.name}:month`], { context: { tz } });
        formattedGroup([`${field.name}:day`], { context: { tz } });
      }
      readGroup([`${field.name}:day`], { context: { tz: 'UTC' } });
      readGroup([`${field.name}:day`], { context: { tz: 'Not/AZone' } });
      if (input.major >= 18) readGroup([`${field.name}:hour_number`], { context: { tz: 'Asia/Kolkata' } });
    }
    if (selection) {
      const key = (g: Group) => canonical([g[selection.name], g[`${field.name}:month`]]);
      readGroup([selection.name, `${field.name}:month`], { lazy: false }, { project: tiesBy(key) });
      readGroup([selection.name, `${field.name}:month`]);
      formattedGroup([`${field.name}:quarter`, selection.name], { limit: 5 });
    }
  }
  // Fields whose groups expand (every stage, every state): in order, reversed, on no record, paged.
  for (const field of model.fields.filter((f) => f.def?.groupExpand && groupable(model, f))) {
    readGroup([field.name]);
    readGroup([field.name], { orderby: `${field.name} desc` });
    readGroup([field.name], { domain: [['id', 'in', []]] });
    readGroup([field.name], { context: ARCHIVED, limit: 2 });
    formattedGroup([field.name], { context: { read_group_expand: true }, order: `${field.name} desc` });
    formattedGroup([field.name], { context: { read_group_expand: true }, limit: 2 });
  }
  // 19: a many2one's own fields (its creator, its creation month).
  if (many2one && formatted) {
    formattedGroup([`${many2one.name}.create_uid`]);
    formattedGroup([`${many2one.name}.create_date:month`, selection?.name ?? 'id'].filter((g) => g !== 'id'));
  }
  // A many2many: a record counts in the group of each of its values (and in none without any).
  const many2many = model.fields.find((f) => f.type === 'many2many' && f.relationTable !== undefined && model.live[f.name]?.store !== false);
  if (many2many) {
    readGroup([many2many.name], {}, { project: tiesBy((g) => canonical(g[many2many.name])) });
    formattedGroup([many2many.name]);
  }
  if (many2one && selection) {
    readGroup([many2one.name, selection.name], { lazy: false, orderby: `${many2one.name} desc, ${selection.name}` });
    formattedGroup([many2one.name, selection.name], { order: `${many2one.name}, ${selection.name} desc` });
  }
}

/** Every error class of a grouped read, on one model with a selection, a number and a date. */
function groupErrorCalls(input: SeriesInput, add: Add): void {
  const model =
    input.schema.models.get('purchase.order') ??
    [...input.schema.models.values()].find((m) => firstOfType(m, 'selection') && measures(m, undefined).length && firstOfType(m, 'date'));
  if (!model) return;
  const name = model.name;
  const selection = firstOfType(model, 'selection')!.name;
  const number = measures(model, input.nulls)[0]?.name ?? 'id';
  const date = (firstOfType(model, 'datetime', ['create_date', 'write_date']) ?? firstOfType(model, 'date'))!.name;
  const char = firstOfType(model, 'char')?.name ?? 'display_name';
  const boolean = firstOfType(model, 'boolean')?.name;
  const computed = model.fields.find((f) => f.compute !== undefined && NUMERIC.has(f.type))?.name ?? 'display_name';
  const many2one = firstOfType(model, 'many2one', ['create_uid', 'write_uid', 'company_id', 'currency_id'])?.name;
  const readGroup = (kwargs: Record<string, unknown>, extra: Partial<ExecuteCall> = {}) =>
    add(exec(name, 'read_group', { domain: [], fields: [number], groupby: [selection], ...kwargs }, extra));
  const formattedGroup = (kwargs: Record<string, unknown>, extra: Partial<ExecuteCall> = {}) => {
    if (input.major >= 19) add(exec(name, 'formatted_read_group', { domain: [], groupby: [selection], aggregates: ['__count'], ...kwargs }, extra));
  };

  readGroup({ groupby: ['no_such_field'] });
  readGroup({ groupby: [`${selection}:month`] });
  readGroup({ groupby: [`${date}:decade`] });
  readGroup({ groupby: [`${date}:year_number`] });
  readGroup({ groupby: [`${selection}.name`] });
  readGroup({ groupby: ['display_name'] });
  readGroup({ groupby: [computed] });
  readGroup({ groupby: ['bad spec!'] });
  readGroup({ fields: [`${char}:sum`] });
  readGroup({ fields: [`${date}:avg`] });
  if (boolean) readGroup({ fields: [`${boolean}:max`] });
  readGroup({ fields: [`${number}:median`] });
  readGroup({ fields: ['no_such_field:sum'] });
  readGroup({ fields: ['no_such_field'] });
  readGroup({ fields: [`${computed}:sum`] });
  readGroup({ fields: [computed, 'display_name', char] });
  readGroup({ fields: [''] });
  if (many2one) {
    // Arrays of values in id order, NULL ones as null (19: distinct and sorted, records as ids).
    const records = [...(input.snapshot.get(name)?.values() ?? [])];
    const sparse = model.fields.find((f) => f.type === 'char' && groupable(model, f) && records.some((r) => r[f.name] === false))?.name ?? char;
    readGroup({ fields: [`ids:array_agg(${many2one})`, `refs:array_agg(${sparse})`] });
    formattedGroup({ aggregates: [`${many2one}:array_agg`, `${many2one}:recordset`, `${many2one}:array_agg_distinct`, `${sparse}:array_agg`] });
  }
  readGroup({ orderby: 'no_such_field desc' });
  readGroup({ orderby: `${selection};` });
  readGroup({ orderby: `${selection} asc desc` });
  readGroup({ orderby: `${number}:sum desc` });
  readGroup({ domain: [['no_such_field', '=', 1]] });
  readGroup({ domain: ['|', ['id', '=', 1]] });
  readGroup({ groupby: selection });
  readGroup({ limit: -1 });
  add(exec(name, 'read_group', { domain: [], fields: [number] }));
  add(exec(name, '_read_group', { domain: [], groupby: [selection], aggregates: ['__count'] }));
  if (input.major < 19) add(exec(name, 'formatted_read_group', { domain: [], groupby: [selection] }));
  formattedGroup({ groupby: [date] });
  formattedGroup({ aggregates: [number] });
  formattedGroup({ aggregates: [`${number}:sum_currency`] });
  formattedGroup({ having: [['__count', 'like', 1]] });
  formattedGroup({ having: [['__count', '>', 1]] });
  formattedGroup({ having: ['|', ['__count', '>', 3], '!', [`${number}:sum`, '<', 10000]] });
  formattedGroup({ having: [['__count', 'in', [1, 4]]] });
  formattedGroup({ order: `${number}:sum desc, no_such_field` });
  formattedGroup({ groupby: [`${date}:day`], order: `${date}:day desc`, limit: 2 });
  formattedGroup({ groupby: [`${date}:day`], context: { fill_temporal: false } });
  if (many2one) {
    formattedGroup({ groupby: [`${many2one}.no_such_field`] });
    formattedGroup({ groupby: [`${selection}.name`] });
  }
  // Access: a user without read right on the model, and one reading a model he may not read.
  if (input.keys.has('noRead')) readGroup({}, { as: 'noRead', key: 'noRead' });
  if (input.keys.has('valid') && input.schema.models.has('fleet.vehicle.odometer')) {
    add(exec('fleet.vehicle.odometer', 'read_group', { domain: [], fields: ['value'], groupby: ['vehicle_id'] }, { as: 'api', key: 'valid' }));
    if (input.major >= 19) {
      add(exec('fleet.vehicle.odometer', 'formatted_read_group', { domain: [], groupby: ['vehicle_id'], aggregates: ['__count'] }, { as: 'api', key: 'valid' }));
    }
  }
  if (input.keys.has('valid') && input.schema.models.has('fleet.vehicle')) {
    add(exec('fleet.vehicle', 'read_group', { domain: [], fields: [], groupby: ['state_id'] }, { as: 'api', key: 'valid' }));
  }
}
