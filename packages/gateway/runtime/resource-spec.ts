/**
 * @module The shape of what the generator emits for each resource, and what the runtime serves
 * from. `generated/resources/<domain>.ts` holds one frozen `ResourceSpec` per resource; the runtime
 * holds no resource-specific knowledge of its own.
 */
import type { RouteKind } from './route-kinds';

type ApiType = 'integer' | 'string' | 'number' | 'boolean' | 'array';
type StringFormat = 'date' | 'date-time';

/** Where a field's value comes from in the ERP. */
export type FieldSource =
  | { readonly kind: 'id' }
  /** A field of the model; `computed` ones are computed by the ERP when read (never sortable). */
  | { readonly kind: 'field'; readonly erp: string; readonly computed: boolean }
  /** A many2one of the model: its id or its display name. */
  | { readonly kind: 'many2one'; readonly erp: string; readonly comodel: string; readonly take: 'id' | 'name' }
  /** A field of the record a many2one points to, read in one batched call per relation. */
  | { readonly kind: 'related'; readonly erp: string; readonly comodel: string; readonly comodelField: string }
  /** A one2many/many2many: ids, display names, or the first display name. */
  | { readonly kind: 'x2many'; readonly erp: string; readonly comodel: string; readonly take: 'ids' | 'names' | 'first' }
  /** An analytic distribution serialised as compact JSON text (decision D7). */
  | { readonly kind: 'distribution'; readonly erp: string }
  /** The names of the analytic accounts keyed in a distribution (decision D6). */
  | { readonly kind: 'distribution_accounts'; readonly erp: string; readonly comodel: string }
  /** The link to the record in the ERP interface, built by the gateway (decision D9). */
  | { readonly kind: 'url' };

/** A field of the API; `Name` is the union of a resource's field names in generated specs. */
export interface FieldSpec<Name extends string = string> {
  readonly name: Name;
  readonly type: ApiType;
  readonly format?: StringFormat;
  readonly items?: 'string' | 'integer';
  readonly enum?: readonly string[];
  readonly nullable: boolean;
  readonly personal: boolean;
  readonly deprecated: boolean;
  readonly source: FieldSource;
}

type FilterOp = '=' | 'ilike' | '>=' | '<=' | 'in';
/**
 * Value type of a filter. `date` filters act on an ERP date field, `date-time` ones on a datetime
 * field; both accept a date or an ISO 8601 date-time (decision D15 says how each is read).
 */
export type FilterType = 'integer' | 'number' | 'string' | 'boolean' | 'date' | 'date-time' | 'enum' | 'integer-list';

export interface FilterSpec {
  readonly name: string;
  readonly op: FilterOp;
  /** ERP field path the domain term applies to. */
  readonly erp: string;
  readonly type: FilterType;
  /** Allowed values of an enum filter. */
  readonly values?: readonly string[];
  readonly deprecated: boolean;
}

/**
 * A relation to another resource, asked with `expand=<name>`: `to_many`, the target's records whose
 * many2one `link` points to this record (read in one `search_read` per page, `link in [ids]`);
 * `to_one`, the target's record this record's many2one `link` points to (one `search_read` per page,
 * `id in [ids]`). Both ends are checked by the generator.
 */
export interface RelationSpec {
  readonly name: string;
  readonly kind: 'to_many' | 'to_one';
  /** The related resource's path, `purchase/order-lines`. */
  readonly target: string;
  /** The ERP many2one holding the link: on the target's model (`to_many`) or on this resource's (`to_one`). */
  readonly link: string;
  /** The API field holding the link: the target's (`to_many`), this resource's (`to_one`). */
  readonly via: string;
  /** `to_many`: the target's `=` filter on `via`, with which a client pages the related records. */
  readonly filter?: string;
}

type ScopeValue = boolean | number | string | readonly (boolean | number | string)[];

export interface ScopeTerm {
  readonly erp: string;
  readonly op: '=' | '!=' | 'in';
  readonly value: ScopeValue;
}

/** How a date or date-time dimension is cut into buckets. */
export type Granularity = 'day' | 'week' | 'month' | 'quarter' | 'year';
export const GRANULARITIES: readonly Granularity[] = ['day', 'week', 'month', 'quarter', 'year'];

/**
 * A field the aggregate route may group by, and how its group value is answered:
 * - `value`: the stored value as the list gives it (a selection's key, a text, a number);
 * - `boolean`: true or false (the ERP counts an unset boolean as false);
 * - `many2one_name` / `many2one_id`: the related record's name or id, as the list gives it (the name's
 *   dimension also answers the id under `<name>:id`);
 * - `date` / `date-time`: a bucket of a granularity, answered as an ISO label with its `[from, to)` range.
 */
export interface DimensionSpec {
  readonly name: string;
  /** The ERP field grouped by, on the resource's model. */
  readonly erp: string;
  readonly kind: 'value' | 'boolean' | 'many2one_name' | 'many2one_id' | 'date' | 'date-time';
  readonly personal: boolean;
}

/** What a measure of a field may be: sums, averages, extremes of a number; distinct values of a relation. */
export type Aggregator = 'sum' | 'avg' | 'min' | 'max' | 'count_distinct';

export interface MeasureSpec {
  readonly name: string;
  readonly erp: string;
  readonly aggregators: readonly Aggregator[];
}

/** What the aggregate route of a resource may group by and measure (the catalogue's `aggregate`, or what its fields' types allow). */
export interface AggregateSpec {
  readonly dimensions: readonly DimensionSpec[];
  readonly measures: readonly MeasureSpec[];
}

/**
 * JSON Schema of the raw query string of each kind's route (strings and repeated keys), for ajv:
 * `listQuerySchema`, `detailQuerySchema`, one per kind of route-kinds.ts.
 */
export type QuerySchemas = { readonly [K in RouteKind as `${K}QuerySchema`]: object };

/**
 * A resource as the runtime serves it. Generated specs are typed by the generated record type
 * (`RecordSpec<FleetVehiclesRecord>`): their field names are checked against it, and the mapper
 * gives records of that type, so code naming a field the catalogue renamed fails the type check.
 * Both parameters are covariant, so every generated spec is a plain `ResourceSpec`.
 */
export interface ResourceSpec<Name extends string = string, R extends object = object> extends QuerySchemas {
  /** Type only, never present: the record type the spec's mapper gives. */
  readonly recordType?: R;
  /** `fleet/vehicles`. */
  readonly path: string;
  readonly domain: string;
  readonly name: string;
  readonly model: string;
  /** ERP order string used when the client gives none (`id` is appended by the runtime). */
  readonly defaultOrder: string;
  readonly scope: readonly ScopeTerm[];
  readonly fields: readonly FieldSpec<Name>[];
  readonly filters: readonly FilterSpec[];
  /** Relations a client may expand (`expand=`), by name order. */
  readonly relations: readonly RelationSpec[];
  /** API field name → ERP field name, for the fields usable in `order`. */
  readonly sortable: Readonly<Record<string, string>>;
  readonly deprecated: boolean;
  /** Its aggregate route's dimensions and measures; absent when the catalogue says `aggregate: false`. */
  readonly aggregate?: AggregateSpec;
  /**
   * The catalogue's `cache` (the resource's keys over its domain's), in seconds; absent when neither
   * says: the settings' defaults apply (runtime/cache/cache-policy.ts).
   */
  readonly cache?: { readonly ttlSeconds?: number; readonly staleSeconds?: number; readonly watch?: boolean };
}

/** The spec of a resource whose records have the generated type `R`. */
export type RecordSpec<R extends object> = ResourceSpec<keyof R & string, R>;
