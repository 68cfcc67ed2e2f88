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

/** A bound to send to a date-time filter, and whether a value the client sees must then match. */
export interface DatetimeBound {
  readonly value: string;
  readonly holds: (value: unknown) => boolean;
}

/**
 * Bounds of a date-time filter (`*_after`, `*_before`) that records sit on exactly: for each of
 * `count` values the client sees (spread over the distinct ones, the last included), the value itself
 * (to the second: every record shown at it matches, whatever fraction of a second the ERP keeps), its
 * day alone (D15: the whole day), and the value with half a second (through it: the records shown at
 * its second; from it: only later ones). A record is judged by the value it is shown with, which
 * is what a client filters on.
 */
export function datetimeBounds(filter: FilterSpec, shown: readonly unknown[], count = 2): DatetimeBound[] {
  const distinct = [...new Set(shown.filter((v): v is string => typeof v === 'string'))].sort();
  if (distinct.length === 0) return [];
  const picks = new Set(Array.from({ length: count }, (_, i) => distinct[Math.floor(((i + 1) * (distinct.length - 1)) / count)] as string));
  const through = filter.op === '<=';
  const bounds: DatetimeBound[] = [];
  for (const at of picks) {
    const day = at.slice(0, 10);
    const half = at.replace(/Z$/, '.5Z');
    const inDay = (v: string) => (through ? v.slice(0, 10) <= day : v.slice(0, 10) >= day);
    bounds.push(
      { value: at, holds: (v) => typeof v === 'string' && (through ? v <= at : v >= at) },
      { value: day, holds: (v) => typeof v === 'string' && inDay(v) },
      { value: half, holds: (v) => typeof v === 'string' && (through ? v <= at : v > at) },
    );
  }
  return bounds;
}
