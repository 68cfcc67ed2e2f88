/** @module The catalogue as written in YAML (after schema validation), before normalisation. */

export type RawErpSource =
  | string
  | { field: string; computed?: boolean }
  | { many2one: string; comodel: string }
  | { related: [string, string]; comodel: string }
  | { x2many: string; comodel: string; first?: boolean }
  | { distribution: string }
  | { distribution_accounts: string; comodel: string }
  | { gateway: 'url' };

export interface RawField {
  type: 'integer' | 'string' | 'number' | 'boolean' | 'array';
  format?: 'date' | 'date-time';
  items?: 'string' | 'integer';
  enum?: string[];
  nullable?: boolean;
  description: string;
  personal?: boolean;
  deprecated?: boolean;
  sortable?: boolean;
  erp: RawErpSource;
}

export interface RawFilter {
  op: '=' | 'ilike' | '>=' | '<=' | 'in';
  field?: string;
  erp?: string;
  type?: 'integer' | 'number' | 'string' | 'boolean' | 'date' | 'date-time' | 'enum' | 'integer-list';
  values?: string[];
  description?: string;
  deprecated?: boolean;
}

interface RawScopeTerm {
  erp: string;
  op: '=' | '!=' | 'in';
  value: boolean | number | string | (boolean | number | string)[];
}

/** Seconds (catalogue.schema.json, `cache`). */
export interface RawCache {
  ttl?: number;
  stale_while_revalidate?: number;
  watch?: boolean;
}

/** The resource's `aggregate` (catalogue.schema.json): none, or the fields that may be grouped by and measured. */
type RawAggregate = false | { dimensions?: string[]; measures?: string[] };

/** A relation to another resource (catalogue.schema.json, `relations`): exactly one of `to_many`, `to_one`. */
export interface RawRelation {
  to_many?: string;
  to_one?: string;
  via: string;
  description?: string;
}

export interface RawResource {
  title: string;
  description: string;
  model: string;
  default_order: string;
  order_only?: string[];
  scope?: RawScopeTerm[];
  deprecated?: boolean;
  cache?: RawCache;
  aggregate?: RawAggregate;
  fields: Record<string, RawField>;
  filters?: Record<string, RawFilter>;
  relations?: Record<string, RawRelation>;
}

export interface RawDomain {
  domain: string;
  title: string;
  description: string;
  cache?: RawCache;
  resources: Record<string, RawResource>;
}
