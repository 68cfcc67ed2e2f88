/**
 * How the filter suites try a named filter on data they do not know in advance: the exposed field a
 * filter acts on, a query value that a sample record satisfies, and the check every returned value
 * must then pass; or a harmless example value for a filter on a field that is not exposed.
 */
import type { FieldSpec, FilterSpec, ResourceSpec } from '@ops-data-gateway/gateway/runtime/resource-spec';

/** The exposed field a filter acts on, if any. */
export function exposedField(resource: ResourceSpec, filter: FilterSpec): FieldSpec | undefined {
  return resource.fields.find((field) => {
    const s = field.source;
    if (s.kind === 'field') return s.erp === filter.erp;
    if (s.kind === 'many2one') return s.take === 'id' && s.erp === filter.erp;
    if (s.kind === 'related') return `${s.erp}.${s.comodelField}` === filter.erp && field.type !== 'integer';
    return false;
  });
}

export const EXAMPLE: Readonly<Record<FilterSpec['type'], (filter: FilterSpec) => string>> = {
  integer: () => '1',
  number: () => '0',
  string: () => 'a',
  boolean: () => 'true',
  date: () => '2026-01-31',
  'date-time': () => '2026-01-31',
  enum: (filter) => filter.values?.[0] ?? '',
  'integer-list': () => '1,2,3',
};

/** A query value that the sample satisfies, and the check every returned value must pass. */
export function probe(filter: FilterSpec, field: FieldSpec, sample: unknown): [string, (value: unknown) => boolean] | undefined {
  if (sample === null || sample === undefined) return undefined;
  switch (filter.op) {
    case '=':
      return [String(sample), (value) => value === sample];
    case 'ilike': {
      const text = String(sample);
      const part = text.length > 4 ? text.slice(1, 4) : text;
      return [part.toUpperCase(), (value) => typeof value === 'string' && value.toLowerCase().includes(part.toLowerCase())];
    }
    case '>=':
    case '<=': {
      const sign = filter.op === '>=' ? 1 : -1;
      if (field.type === 'string') {
        const day = String(sample).slice(0, 10);
        const bound = field.format === 'date-time' ? `${day}T${filter.op === '>=' ? '00:00:00' : '23:59:59'}Z` : day;
        return [day, (value) => typeof value === 'string' && sign * value.localeCompare(bound) >= 0];
      }
      return [String(sample), (value) => typeof value === 'number' && sign * (value - (sample as number)) >= 0];
    }
    default:
      return undefined;
  }
}
