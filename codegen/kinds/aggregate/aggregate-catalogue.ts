/**
 * @module What the aggregate route of a resource may group by and measure, derived from its fields'
 * types unless the catalogue's `aggregate` lists them (catalogue.schema.json says the rules), and the
 * checks of that key. The one place the rules live: the validator reports with them, the model is
 * built with them.
 *
 * - Dimensions by default: selections (a string with `enum`), booleans, dates and date-times stored on
 *   the model, and many2ones (their name or id, as the field gives it). Personal fields never, unless
 *   listed. Listed, a stored text or integer is a dimension too (its value as the list gives it).
 * - Measures by default: stored numbers (`sum`, `avg`, `min`, `max`) but `id`; many2ones
 *   (`count_distinct`: how many distinct related records). Personal fields never, unless listed.
 * Computed, related and x2many fields are never either: the ERP cannot group or aggregate what it does
 * not store on the model.
 */
import type { Aggregator, AggregateSpec, DimensionSpec, MeasureSpec } from '../../../packages/gateway/runtime/resource-spec';
import type { RawField, RawResource } from '../../model/raw';

type Path = readonly (string | number)[];
type Report = (path: Path, message: string, options?: { readonly atKey?: boolean; readonly allowed?: string | undefined }) => void;

const NUMBER_AGGREGATORS: readonly Aggregator[] = ['sum', 'avg', 'min', 'max'];

/** The ERP field a field is stored in on the model itself, and whether it is a many2one; undefined when it has none. */
function storedOf(field: RawField): { erp: string; many2one: boolean } | undefined {
  const erp = field.erp;
  if (erp === 'id') return undefined;
  if (typeof erp === 'string') return { erp, many2one: false };
  if ('field' in erp) return erp.computed ? undefined : { erp: erp.field, many2one: false };
  if ('many2one' in erp) return { erp: erp.many2one, many2one: true };
  return undefined;
}

/** How a field is grouped by, or why it cannot be; `listed`: the catalogue names it (texts and integers then qualify). */
function dimensionOf(name: string, field: RawField, listed: boolean): DimensionSpec | string {
  const stored = storedOf(field);
  if (!stored) return 'only fields stored on the model itself (plain, or a many2one) can be grouped by';
  const personal = field.personal ?? false;
  const spec = (kind: DimensionSpec['kind']): DimensionSpec => ({ name, erp: stored.erp, kind, personal });
  if (stored.many2one) return spec(field.type === 'integer' ? 'many2one_id' : 'many2one_name');
  if (field.type === 'boolean') return spec('boolean');
  if (field.type === 'string' && field.format) return spec(field.format);
  if (field.type === 'string' && field.enum) return spec('value');
  if ((field.type === 'string' || field.type === 'integer') && listed) return spec('value');
  if (field.type === 'number') return 'a decimal number cannot be grouped by (measure it instead)';
  if (field.type === 'array') return 'an array cannot be grouped by';
  return 'a text or an integer is a dimension only when listed';
}

/** What a field can be measured with, or why it cannot be. */
function measureOf(name: string, field: RawField): MeasureSpec | string {
  const stored = storedOf(field);
  if (!stored) return 'only fields stored on the model itself (plain, or a many2one) can be measured';
  if (stored.many2one) return { name, erp: stored.erp, aggregators: ['count_distinct'] };
  if (field.type === 'integer' || field.type === 'number') return { name, erp: stored.erp, aggregators: NUMBER_AGGREGATORS };
  return 'only numbers (sum, avg, min, max) and many2ones (count_distinct) can be measured';
}

/** The checks `catalogue.schema.json` cannot say: listed names are fields, and each can be what it is listed as. */
export function checkAggregate(resource: RawResource, at: Path, report: Report): void {
  const aggregate = resource.aggregate;
  if (!aggregate) return;
  for (const [key, check] of [
    ['dimensions', (name: string, field: RawField) => dimensionOf(name, field, true)],
    ['measures', measureOf],
  ] as const) {
    const allowed = Object.entries(resource.fields)
      .filter(([name, field]) => typeof check(name, field) !== 'string')
      .map(([name]) => name)
      .join(', ');
    (aggregate[key] ?? []).forEach((name, i) => {
      const field = resource.fields[name];
      const found = field ? check(name, field) : 'it is not a field of this resource';
      if (typeof found === 'string') report([...at, 'aggregate', key, i], `aggregate.${key} lists '${name}': ${found}`, { allowed: allowed || 'none' });
    });
  }
}

/** The resource's aggregate spec (after validation), in field order; undefined with `aggregate: false`. */
export function buildAggregate(resource: RawResource): AggregateSpec | undefined {
  const aggregate = resource.aggregate;
  if (aggregate === false) return undefined;
  const dimensions: DimensionSpec[] = [];
  const measures: MeasureSpec[] = [];
  for (const [name, field] of Object.entries(resource.fields)) {
    const dimensionListed = aggregate?.dimensions?.includes(name);
    if (aggregate?.dimensions ? dimensionListed : !field.personal) {
      const dimension = dimensionOf(name, field, dimensionListed ?? false);
      if (typeof dimension !== 'string') dimensions.push(dimension);
    }
    if (aggregate?.measures ? aggregate.measures.includes(name) : !field.personal) {
      const measure = measureOf(name, field);
      if (typeof measure !== 'string') measures.push(measure);
    }
  }
  return { dimensions, measures };
}
