/**
 * @module What an aggregate request asks, read from its query string: the dimensions to group by
 * (`group_by`), what to compute per group (`measures`), the order and page of the groups, the
 * resource's named filters, and the format. Every name is checked against the resource's aggregate
 * spec (generated from the catalogue): nothing the client sends reaches the ERP as a field name that
 * the catalogue does not hold.
 */
import { badRequest, invalidValue } from '../../../errors';
import type { FilterTerm } from '../../../query/domain';
import type { CsvFormulas, ListFormat, QueryParser, RawQuery } from '../../../query/parse-query';
import { GRANULARITIES, type Aggregator, type DimensionSpec, type Granularity, type MeasureSpec, type ResourceSpec } from '../../../resource-spec';

/** The bounds the generator documents (codegen/kinds/aggregate/aggregate-limits.ts: a test holds them equal). */
export const AGGREGATE_LIMITS = Object.freeze({ limitDefault: 100, limitMax: 1000, dimensionsMax: 4, measuresMax: 16 });
const INT32_MAX = 2147483647;

/** A dimension as asked: `state`, `date_order:month`. */
export interface AskedDimension {
  readonly spelling: string;
  readonly dimension: DimensionSpec;
  readonly granularity?: Granularity;
}

/** A measure as asked: `amount_total:sum`. */
export interface AskedMeasure {
  readonly spelling: string;
  readonly measure: MeasureSpec;
  readonly aggregator: Aggregator;
}

/** An order term: a dimension, a measure or the count, as asked. */
interface OrderTerm {
  readonly key: string;
  readonly direction: 'asc' | 'desc';
}

export interface AggregateQuery {
  readonly dimensions: readonly AskedDimension[];
  readonly measures: readonly AskedMeasure[];
  readonly order: readonly OrderTerm[];
  readonly limit: number;
  readonly offset: number;
  readonly filters: readonly FilterTerm[];
  readonly deprecated: readonly string[];
  readonly format: Exclude<ListFormat, 'parquet'>;
  readonly csvFormulas: CsvFormulas;
}

const names = (items: readonly { name: string }[]) => items.map((item) => item.name).join(', ') || 'none';

/** The list of a comma-separated parameter, refusing empty items and repeats. */
function items(parameter: string, text: string): string[] {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.some((part) => part === '')) throw badRequest(`${parameter} must name its items comma-separated, with no empty item.`);
  const repeated = parts.find((part, i) => parts.indexOf(part) !== i);
  if (repeated) throw badRequest(`${parameter} names '${repeated}' twice.`);
  return parts;
}

function parseDimension(spec: ResourceSpec, spelling: string): AskedDimension {
  const [name = '', granularity, ...rest] = spelling.split(':');
  const dimensions = spec.aggregate?.dimensions ?? [];
  const dimension = dimensions.find((d) => d.name === name);
  if (!dimension) throw badRequest(`Cannot group by '${name}': the dimensions of ${spec.path} are ${names(dimensions)}.`);
  const dated = dimension.kind === 'date' || dimension.kind === 'date-time';
  if (!dated) {
    if (granularity !== undefined) throw invalidValue(`'${spelling}': only a date or date-time dimension takes a granularity; group by '${name}'.`);
    return { spelling, dimension };
  }
  if (granularity === undefined) throw invalidValue(`'${name}' is a ${dimension.kind}: group by it with a granularity, ${GRANULARITIES.map((g) => `${name}:${g}`).join(', ')}.`);
  if (rest.length || !(GRANULARITIES as readonly string[]).includes(granularity))
    throw invalidValue(`'${spelling}': the granularity of a ${dimension.kind} is one of ${GRANULARITIES.join(', ')}.`);
  return { spelling, dimension, granularity: granularity as Granularity };
}

function parseMeasure(spec: ResourceSpec, spelling: string): AskedMeasure | undefined {
  if (spelling === 'count') return undefined;
  const [name = '', aggregator, ...rest] = spelling.split(':');
  const measures = spec.aggregate?.measures ?? [];
  const measure = measures.find((m) => m.name === name);
  const offered = measures.flatMap((m) => m.aggregators.map((a) => `${m.name}:${a}`));
  const known = `the measures of ${spec.path} are count${offered.length ? `, ${offered.join(', ')}` : ''}`;
  if (!measure) {
    if (spec.fields.some((f) => f.name === name)) throw invalidValue(`'${name}' cannot be measured: ${known}.`);
    throw badRequest(`Unknown measure '${spelling}': ${known}.`);
  }
  if (aggregator === undefined || rest.length || !(measure.aggregators as readonly string[]).includes(aggregator))
    throw invalidValue(`'${spelling}': ${name} is measured with ${measure.aggregators.map((a) => `${name}:${a}`).join(', ')}.`);
  return { spelling, measure, aggregator: aggregator as Aggregator };
}

function parseOrder(text: string, dimensions: readonly AskedDimension[], measures: readonly AskedMeasure[]): OrderTerm[] {
  const keys = new Set(['count', ...dimensions.map((d) => d.spelling), ...measures.map((m) => m.spelling)]);
  const seen = new Set<string>();
  return text.split(',').map((term) => {
    const m = /^\s*([A-Za-z0-9_:]+)(?:\s+(asc|desc))?\s*$/i.exec(term);
    if (!m) throw badRequest(`Invalid order '${text}': use a dimension or measure as asked, or count, with asc or desc, comma-separated.`);
    const key = m[1] as string;
    if (!keys.has(key)) throw badRequest(`Cannot order by '${key}': order by what is asked, ${[...keys].join(', ')}.`);
    // The ERP orders an average or a minimum over the values set; the answer's count unset numbers as 0 (grouped-read.ts).
    if (/:(avg|min)$/.test(key)) throw badRequest(`Cannot order by '${key}': order by count, a dimension, or a sum, maximum or distinct count.`);
    if (seen.has(key)) throw badRequest(`order names '${key}' twice.`);
    seen.add(key);
    return { key, direction: (m[2] ?? 'asc').toLowerCase() as 'asc' | 'desc' };
  });
}

function boundedInteger(name: string, text: string, min: number, max: number, why = ''): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min || value > max) throw invalidValue(`${name} must be an integer from ${min} to ${max}${why}.`);
  return value;
}

/** Reads an aggregate query whose keys are known; `format` is what `format` or `Accept` asks for. */
export function parseAggregateQuery(spec: ResourceSpec, parser: QueryParser, query: RawQuery, format: Exclude<ListFormat, 'parquet'>): AggregateQuery {
  parser.checkShape('aggregate', query);
  const groupBy = query['group_by'] as string | undefined;
  const dimensions = groupBy === undefined || groupBy.trim() === '' ? [] : items('group_by', groupBy).map((spelling) => parseDimension(spec, spelling));
  if (dimensions.length > AGGREGATE_LIMITS.dimensionsMax) throw invalidValue(`group_by takes at most ${AGGREGATE_LIMITS.dimensionsMax} dimensions.`);
  const grouped = new Set<string>();
  for (const { dimension } of dimensions) {
    if (grouped.has(dimension.erp)) throw badRequest(`group_by names '${dimension.name}' twice (once per dimension, one granularity).`);
    grouped.add(dimension.erp);
  }
  const measureSpellings = items('measures', (query['measures'] as string | undefined) ?? 'count');
  if (measureSpellings.length > AGGREGATE_LIMITS.measuresMax) throw invalidValue(`measures takes at most ${AGGREGATE_LIMITS.measuresMax} items.`);
  const measures = measureSpellings.map((spelling) => parseMeasure(spec, spelling)).filter((m): m is AskedMeasure => m !== undefined);
  const order = query['order'] === undefined ? [] : parseOrder(query['order'] as string, dimensions, measures);
  const limit =
    query['limit'] === undefined
      ? AGGREGATE_LIMITS.limitDefault
      : boundedInteger('limit', query['limit'] as string, 1, AGGREGATE_LIMITS.limitMax, ' (groups per answer: page through more with offset and meta.next_offset)');
  const offset = query['offset'] === undefined ? 0 : boundedInteger('offset', query['offset'] as string, 0, INT32_MAX);
  if (query['csv_formulas'] !== undefined && format !== 'csv') throw badRequest('csv_formulas applies to CSV answers only (format=csv, or Accept: text/csv).');
  const deprecated: string[] = [];
  const filters = parser.parseFilters(query, deprecated);
  return { dimensions, measures, order, limit, offset, filters, deprecated, format, csvFormulas: query['csv_formulas'] === 'raw' ? 'raw' : 'escaped' };
}
