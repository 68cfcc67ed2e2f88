/**
 * @module Maps ERP rows to API records, a pure step after the calls (no I/O here).
 *
 * The ERP's encodings (Odoo's `read` format) and what becomes of them:
 * - `false` stands for "empty" in every type but boolean: it becomes `null` (booleans stay false);
 * - a many2one is `[id, display_name]` or `false`: the id or the name is taken;
 * - an x2many is an id list: ids, or the display names read in one batched call;
 * - datetimes are `YYYY-MM-DD HH:MM:SS` in UTC: they become ISO 8601 ending in `Z`;
 * - an analytic distribution is an object `{"12": 60.0}` (keys may join several ids: "12,15"):
 *   compact JSON text for `analytic_distribution` (D7), account names for `analytic_accounts` (D6);
 * - selections keep their key, as a string even when numeric-looking (D8).
 * Each resource gets a mapper compiled once from its field list.
 */
import type { FieldSpec, ResourceSpec } from './resource-spec';

export type ErpRow = Readonly<Record<string, unknown>>;
export type ApiRecord = Record<string, unknown>;

/** Values read from comodels, keyed by `relationKey(field)`, then by comodel record id. */
export type RelatedValues = ReadonlyMap<string, ReadonlyMap<number, unknown>>;

/** Key under which the values a field needs from its comodel are gathered. */
export function relationKey(field: FieldSpec): string | undefined {
  const source = field.source;
  switch (source.kind) {
    case 'related':
      return `${source.erp}>${source.comodel}.${source.comodelField}`;
    case 'x2many':
      return source.take === 'ids' ? undefined : `${source.comodel}.display_name`;
    case 'distribution_accounts':
      return `${source.comodel}.display_name`;
    default:
      return undefined;
  }
}

type FieldMapper = (row: ErpRow, related: RelatedValues) => unknown;

export interface MapperOptions {
  /** The ERP link of a record (D9). */
  readonly urlFor: (model: string, id: number) => string;
  /** Fields to answer `null` for (the account cannot read where their value comes from). */
  readonly unreadable?: ReadonlySet<string>;
}

/**
 * The mapper of `fields` of `resource`: records of the resource's generated record type, holding
 * the fields asked for (all of them unless `fields=` chose a subset, hence `Partial`).
 */
export function compileMapper<Name extends string, R extends object>(
  resource: ResourceSpec<Name, R>,
  fields: readonly FieldSpec<Name>[],
  options: MapperOptions,
): (row: ErpRow, related: RelatedValues) => Partial<R> {
  const mappers: [string, FieldMapper][] = fields.map((field) => [
    field.name,
    options.unreadable?.has(field.name) ? () => null : fieldMapper(resource as ResourceSpec, field, options),
  ]);
  return (row, related) => {
    const record: ApiRecord = {};
    for (const [name, map] of mappers) record[name] = map(row, related);
    return record as Partial<R>;
  };
}

function fieldMapper(resource: ResourceSpec, field: FieldSpec, options: MapperOptions): FieldMapper {
  const source = field.source;
  switch (source.kind) {
    case 'id':
      return (row) => row['id'];
    case 'url':
      return (row) => options.urlFor(resource.model, row['id'] as number);
    case 'field': {
      const erp = source.erp;
      return (row) => scalar(field, row[erp]);
    }
    case 'many2one': {
      const erp = source.erp;
      const index = source.take === 'id' ? 0 : 1;
      return (row) => {
        const value = row[erp];
        // A related record without a name reads as [id, false]: its name is null like any empty value.
        return Array.isArray(value) ? value[index] || null : typeof value === 'number' && index === 0 ? value : null;
      };
    }
    case 'related': {
      const erp = source.erp;
      const key = relationKey(field) as string;
      return (row, related) => {
        const target = row[erp];
        const id = Array.isArray(target) ? (target[0] as number) : typeof target === 'number' ? target : undefined;
        if (id === undefined) return null;
        const value = related.get(key)?.get(id);
        if (Array.isArray(value)) return field.type === 'integer' ? (value[0] ?? null) : value[1] || null;
        return value === undefined ? null : scalar(field, value);
      };
    }
    case 'x2many': {
      const erp = source.erp;
      if (source.take === 'ids') return (row) => (Array.isArray(row[erp]) ? [...(row[erp] as number[])] : []);
      const key = relationKey(field) as string;
      const names = (row: ErpRow, related: RelatedValues) => {
        const ids = Array.isArray(row[erp]) ? (row[erp] as number[]) : [];
        const known = related.get(key);
        return ids.map((id) => known?.get(id)).filter((name): name is string => typeof name === 'string');
      };
      return source.take === 'first' ? (row, related) => names(row, related)[0] ?? null : names;
    }
    case 'distribution': {
      const erp = source.erp;
      return (row) => serialiseDistribution(row[erp]);
    }
    case 'distribution_accounts': {
      const erp = source.erp;
      const key = relationKey(field) as string;
      return (row, related) => {
        const known = related.get(key);
        const names = distributionAccountIds(row[erp]).map((id) => known?.get(id));
        return [...new Set(names.filter((name): name is string => typeof name === 'string'))];
      };
    }
  }
}

/** A plain ERP value as the API type says. */
function scalar(field: FieldSpec, value: unknown): unknown {
  if (field.type === 'boolean') return value === true;
  if (value === false || value === null || value === undefined) return null;
  if (field.type === 'string') {
    if (typeof value !== 'string') return Array.isArray(value) ? (value[1] ?? null) : String(value);
    if (field.format === 'date-time') return isoDateTime(value);
    if (field.format === 'date') return value.slice(0, 10);
    return value;
  }
  if (field.type === 'integer' && Array.isArray(value)) return value[0] ?? null;
  return value;
}

/** `2026-01-31 08:30:00` (UTC) → `2026-01-31T08:30:00Z`; a date alone gets midnight. */
function isoDateTime(value: string): string {
  if (value.length === 10) return `${value}T00:00:00Z`;
  return `${value.slice(0, 10)}T${value.slice(11, 19)}Z`;
}

/** Account ids keyed in a distribution (a key may join several: "12,15"). */
export function distributionAccountIds(value: unknown): number[] {
  if (!value || typeof value !== 'object') return [];
  const ids: number[] = [];
  for (const key of Object.keys(value)) for (const part of key.split(',')) if (/^\d+$/.test(part.trim())) ids.push(Number(part));
  return ids;
}

/** Compact JSON with percentages written as floats (`{"12":60.0,"15":40.0}`, D7); null when empty. */
export function serialiseDistribution(value: unknown): string | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return null;
  const body = entries.map(([key, share]) => `${JSON.stringify(key)}:${typeof share === 'number' && Number.isInteger(share) ? `${share}.0` : JSON.stringify(share)}`);
  return `{${body.join(',')}}`;
}
