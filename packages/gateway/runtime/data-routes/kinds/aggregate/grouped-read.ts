/**
 * @module The one ERP call of an aggregate answer, per version, and its groups as the API gives them.
 *
 * Odoo 19 and later: `formatted_read_group(domain, groupby, aggregates, offset, limit, order)`, each
 * value keyed by its spec (`state`, `date_order:month` as `[from, label]`, `amount_total:sum`,
 * `__count`). Odoo 17 and 18: `read_group(domain, fields, groupby, offset, limit, orderby, lazy=False)`,
 * a measure under the name given in `name:agg(field)`, a date bucket as a label with its range in
 * `__range`. Both take the context of every call (`tz: UTC`): date-time buckets are UTC days, weeks,
 * months (Odoo cuts them in the context's time zone only, never the user's preference), and weeks
 * start on Sunday (`en_US`, Odoo's calendar). docs/odoo-grouped-reads.md has the wire format.
 *
 * The groups asked are one more than the page, to know whether more follow; the order always ends with
 * every dimension asked, so that pages follow one order.
 */
import { ErpUnavailable } from '../../../erp/erp-error';
import { compileDomain } from '../../../query/domain';
import type { ErpRow } from '../../../records';
import type { Granularity, ResourceSpec } from '../../../resource-spec';
import type { AggregateQuery, AskedDimension, AskedMeasure } from './aggregate-query';

/** The first Odoo version whose `web` module serves `formatted_read_group` (and deprecates `read_group`). */
const FORMATTED_SINCE = 19;

export interface GroupedRead {
  readonly method: 'read_group' | 'formatted_read_group';
  readonly kwargs: Record<string, unknown>;
}

/** The ERP's spec of a dimension: its field, with the granularity of a date. */
const groupbyOf = ({ dimension, granularity }: AskedDimension): string => (granularity ? `${dimension.erp}:${granularity}` : dimension.erp);

/**
 * The ERP aggregates a measure needs. Odoo reads a number it holds no value for as 0, and the list
 * shows that 0; its grouped reads leave such values out (`avg` of 0, 10 and an unset value is 5, not
 * 3.33). So that a measure is what a consumer computes from the list's values, a number's measure
 * asks with it how many values are set (`field:count`): the unset ones count as 0 in the average (the
 * sum over the group's records), the minimum and the maximum, as they do in the list.
 */
function erpAggregatesOf({ measure, aggregator }: AskedMeasure): string[] {
  if (aggregator === 'count_distinct') return [`${measure.erp}:count_distinct`];
  const set = `${measure.erp}:count`;
  return aggregator === 'avg' ? [`${measure.erp}:sum`, set] : [`${measure.erp}:${aggregator}`, set];
}

/** Every ERP aggregate the query needs, each once, in order. */
function erpAggregates(query: AggregateQuery): string[] {
  return [...new Set(query.measures.flatMap(erpAggregatesOf))];
}

/** The name `read_group` (17, 18) answers an aggregate under: `gw_m0:sum(amount_total)` → `gw_m0`. */
const aliasOf = (index: number): string => `gw_m${index}`;

/** The order sent: the terms asked in the ERP's spelling, then every dimension not yet in it, ascending. */
function erpOrder(query: AggregateQuery): string {
  const bySpelling = new Map<string, string>([['count', '__count']]);
  for (const asked of query.dimensions) bySpelling.set(asked.spelling, groupbyOf(asked));
  // A sum or maximum of no set value is NULL to the ERP and 0 in the answer: it sorts where a 0 sorts
  // (NULLS FIRST ascending, LAST descending), as the list sorts its numbers. aggregate-query.ts refuses
  // to order by an average or a minimum, which the ERP cannot order as the answer gives them.
  for (const asked of query.measures) bySpelling.set(asked.spelling, `${asked.measure.erp}:${asked.aggregator}${asked.aggregator === 'count_distinct' ? '' : ' %'}`);
  const terms = query.order.map(({ key, direction }) => {
    const term = bySpelling.get(key) as string;
    return term.endsWith(' %') ? `${term.slice(0, -2)} ${direction} ${direction === 'asc' ? 'nulls first' : 'nulls last'}` : `${term} ${direction}`;
  });
  const ordered = new Set(query.order.map(({ key }) => key));
  for (const asked of query.dimensions) if (!ordered.has(asked.spelling)) terms.push(`${groupbyOf(asked)} asc`);
  return terms.join(', ');
}

export function groupedRead(major: number, resource: ResourceSpec, query: AggregateQuery): GroupedRead {
  const domain = compileDomain(resource, query.filters);
  const groupby = query.dimensions.map(groupbyOf);
  const order = erpOrder(query);
  const page = { offset: query.offset, limit: query.limit + 1 };
  const aggregates = erpAggregates(query);
  if (major >= FORMATTED_SINCE)
    return {
      method: 'formatted_read_group',
      kwargs: { domain, groupby, aggregates: ['__count', ...aggregates], ...page, ...(order ? { order } : {}) },
    };
  return {
    method: 'read_group',
    kwargs: {
      domain,
      fields: aggregates.map((spec, i) => {
        const [field, aggregator] = spec.split(':');
        return `${aliasOf(i)}:${aggregator as string}(${field as string})`;
      }),
      groupby,
      ...page,
      ...(order ? { orderby: order } : {}),
      lazy: false,
    },
  };
}

export type Group = Record<string, unknown>;

/** The groups of the page (at most `limit`), and whether more follow. */
export function toGroups(major: number, query: AggregateQuery, rows: readonly ErpRow[]): { groups: Group[]; more: boolean } {
  const more = rows.length > query.limit;
  const aggregates = erpAggregates(query);
  const groups = rows.slice(0, query.limit).map((row) => {
    const group: Group = {};
    for (const asked of query.dimensions) Object.assign(group, dimensionValue(major, asked, row));
    const count = countOf(row['__count']);
    group['count'] = count;
    const aggregateValue = (spec: string): number | null => {
      const value = row[major >= FORMATTED_SINCE ? spec : aliasOf(aggregates.indexOf(spec))];
      if (typeof value === 'number') return value;
      if (value === false || value === null || value === undefined) return null;
      throw new ErpUnavailable(`the ERP answered an aggregate (${spec}) that is not a number`);
    };
    for (const asked of query.measures) group[asked.spelling] = measureValue(asked, count, aggregateValue);
    return group;
  });
  return { groups, more };
}

function countOf(value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  throw new ErpUnavailable('the ERP answered a grouped read without a count per group');
}

/**
 * A measure over the group's records as the list gives their values: an unset number is 0. A group
 * of no record (the one group of an empty resource) has no sum, average or extreme: `null`.
 */
function measureValue(asked: AskedMeasure, count: number, aggregateValue: (spec: string) => number | null): number | null {
  const { erp } = asked.measure;
  if (asked.aggregator === 'count_distinct') return aggregateValue(`${erp}:count_distinct`) ?? 0;
  if (count === 0) return null;
  const unset = (aggregateValue(`${erp}:count`) ?? 0) < count;
  switch (asked.aggregator) {
    case 'sum':
      return aggregateValue(`${erp}:sum`) ?? 0;
    case 'avg':
      return (aggregateValue(`${erp}:sum`) ?? 0) / count;
    case 'min':
      return unset ? Math.min(aggregateValue(`${erp}:min`) ?? 0, 0) : aggregateValue(`${erp}:min`);
    case 'max':
      return unset ? Math.max(aggregateValue(`${erp}:max`) ?? 0, 0) : aggregateValue(`${erp}:max`);
  }
}

/** A group's keys for one dimension: its value, and the id of a many2one or the range of a date bucket. */
function dimensionValue(major: number, asked: AskedDimension, row: ErpRow): Group {
  const key = groupbyOf(asked);
  const value = row[key];
  const { spelling, dimension } = asked;
  switch (dimension.kind) {
    case 'boolean':
      return { [spelling]: value === true };
    case 'many2one_name':
      return Array.isArray(value) ? { [spelling]: value[1] || null, [`${spelling}:id`]: value[0] ?? null } : { [spelling]: null, [`${spelling}:id`]: null };
    case 'many2one_id':
      return { [spelling]: Array.isArray(value) ? (value[0] ?? null) : null };
    case 'value':
      return { [spelling]: value === false || value === undefined ? null : value };
    case 'date':
    case 'date-time': {
      const range = row['__range'] as Record<string, { from?: unknown } | false> | undefined;
      const from = major >= FORMATTED_SINCE ? (Array.isArray(value) ? value[0] : undefined) : range?.[key] ? (range[key] as { from?: unknown }).from : undefined;
      if (typeof from !== 'string') return { [spelling]: null, [`${spelling}:from`]: null, [`${spelling}:to`]: null };
      return bucket(spelling, dimension.kind, asked.granularity as Granularity, from);
    }
  }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const isoDate = (d: Date) => `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const isoDateTime = (d: Date) => `${isoDate(d)}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}Z`;

/** A bucket's ISO label and `[from, to)` range, from the ERP's first instant of it (UTC: the context's time zone). */
function bucket(spelling: string, kind: 'date' | 'date-time', granularity: Granularity, erpFrom: string): Group {
  const start = new Date(`${erpFrom.slice(0, 10)}T${erpFrom.length > 10 ? erpFrom.slice(11, 19) : '00:00:00'}Z`);
  if (Number.isNaN(start.getTime())) throw new ErpUnavailable(`the ERP answered a date bucket that is not a date: ${erpFrom.slice(0, 32)}`);
  const end = new Date(start);
  if (granularity === 'day') end.setUTCDate(end.getUTCDate() + 1);
  else if (granularity === 'week') end.setUTCDate(end.getUTCDate() + 7);
  else end.setUTCMonth(end.getUTCMonth() + (granularity === 'month' ? 1 : granularity === 'quarter' ? 3 : 12));
  const year = pad(start.getUTCFullYear(), 4);
  const label =
    granularity === 'year'
      ? year
      : granularity === 'quarter'
        ? `${year}-Q${Math.floor(start.getUTCMonth() / 3) + 1}`
        : granularity === 'month'
          ? `${year}-${pad(start.getUTCMonth() + 1)}`
          : isoDate(start);
  const write = kind === 'date' ? isoDate : isoDateTime;
  return { [spelling]: label, [`${spelling}:from`]: write(start), [`${spelling}:to`]: write(end) };
}
