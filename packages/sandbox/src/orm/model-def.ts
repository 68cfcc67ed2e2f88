/**
 * @module Declarative model definitions of the sandbox ERP.
 *
 * A model here plays the part of an Odoo model class: a table of stored fields, a few
 * computed ones, an `_order` and a `_rec_name`. The store, the domain compiler, `fields_get`
 * and the demo-data seeder all read these definitions; nothing model-specific is written
 * anywhere else in the sandbox.
 */
import type { SearchDisplayName } from './display-name-search';

import type { OdooVersion } from './types';

/** Odoo field types the sandbox implements. */
export type FieldType =
  | 'char'
  | 'text'
  | 'html'
  | 'integer'
  | 'float'
  | 'monetary'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'selection'
  | 'many2one'
  | 'one2many'
  | 'many2many'
  | 'json';

/**
 * How the seeder invents a value for a stored field. Every hint is deterministic given the
 * seed. Omitted: a generic value from the field's type and name.
 */
export type DemoHint =
  /** One of these values, cycled so that each occurs. */
  | { readonly pick: readonly (string | number | boolean)[] }
  /** Integer in [min, max]. */
  | { readonly int: readonly [number, number] }
  /** Float in [min, max], rounded to `digits` (default 2); a third element is the digits too. */
  | { readonly float: readonly [number, number] | readonly [number, number, number]; readonly digits?: number }
  /** Date (or datetime) between reference date + from days and + to days. */
  | { readonly days: readonly [number, number] }
  /** Date or datetime after another date/datetime field of the same row, by [min, max] hours. */
  | { readonly after: string; readonly hours: readonly [number, number] }
  /** A sequence reference: `PO` gives `PO00001`, `PO00002`, ... */
  | { readonly seq: string }
  /** A named generator: see `sandbox/seed/generators.ts`. */
  | { readonly gen: DemoGenerator }
  /** Copy the value of another stored field of the same row (optionally through its many2one). */
  | { readonly copy: string }
  /** Always this value. */
  | { readonly value: string | number | boolean | null }
  /** many2many: the ids linked to each row, by row (the first list to id 1); rows after the last link nothing. */
  | { readonly links: readonly (readonly number[])[] };

export type DemoGenerator =
  | 'person' // a fictitious person name, some non-ASCII
  | 'company' // a fictitious organisation name
  | 'email' // derived from the row's name when there is one, at example.test
  | 'phone' // +000 fictitious number
  | 'plate' // licence plate
  | 'vin' // 17-char vehicle identification number
  | 'serial' // hardware serial number
  | 'code' // short upper-case code, unique per model
  | 'title' // a short subject line
  | 'sentence' // a sentence of free text
  | 'city' // a city name
  | 'street' // a street address
  | 'latitude'
  | 'longitude'
  | 'distribution'; // an analytic distribution {"<account id>": percent}

export interface FieldDef {
  readonly type: FieldType;
  /** Label, as `fields_get` reports it in `string`. Default: derived from the name. */
  readonly string?: string;
  /** Tooltip, as `fields_get` reports it in `help` (omitted when absent, like Odoo). */
  readonly help?: string;
  /** Char `size` (deprecated in Odoo, still on `res.currency.name`): values compared in a domain are cut to it. */
  readonly size?: number;
  /** Comodel of a relational field. */
  readonly relation?: string;
  /** one2many: the many2one field of the comodel that points back. */
  readonly inverse?: string;
  /** selection: `[key, label]` pairs, keys as stored. */
  readonly selection?: readonly (readonly [string, string])[];
  readonly required?: boolean;
  /**
   * How earlier Odoo versions declare the field where `fields_get` tells it otherwise than the
   * attributes above (which are 19's): each entry holds up to and including its `until` version, the
   * first that holds wins. `fields_get` and the flags derived from them only; the data is the same.
   */
  readonly declaredUntil?: readonly EarlierDeclaration[];
  /** What `fields_get` reports in `readonly` (Odoo's `readonly=True`); default: computed fields. */
  readonly readonly?: boolean;
  /**
   * Computed field: an SQL expression over the row's columns (`t."col"`), evaluated when read,
   * as Odoo computes non-stored fields. `:now` is the request time (`YYYY-MM-DD HH:MM:SS`, UTC) and
   * `:today` its date. Such a field is not stored and not sortable; it is searchable unless
   * `searchable` says otherwise.
   */
  readonly compute?: string;
  /**
   * Computed field: false when Odoo's field has no `search` method. `fields_get` then reports it
   * not searchable, and a domain on it fails as in Odoo (19: ValueError; 17/18 ignore the leaf).
   */
  readonly searchable?: false;
  /**
   * Odoo declares the field `related` to this path (`partner_id.name`), not stored. The sandbox
   * keeps the value in a column of its own (seeded, or mirrored from the live ERP), so reads,
   * searches and orders give what the path gives; `fields_get` reports it as Odoo does: not stored,
   * searchable, sortable through the path (17: only when `inherited`).
   */
  readonly related?: string;
  /** The related field is one `_inherits` delegates to a parent model (Odoo's `inherited`). */
  readonly inherited?: true;
  /**
   * Reading this field needs read right on that model (Odoo reads it to compute the value): a
   * user without it gets an AccessError for the whole call, like real Odoo.
   */
  readonly requires?: string;
  /** Numeric fields: digits after the point when read. */
  readonly digits?: number;
  /** Seeder hint. */
  readonly demo?: DemoHint;
  /** Share of rows left empty (NULL) by the seeder, 0..1. Default 0 for required fields, else 0.05. */
  readonly empty?: number;
  /**
   * Required field that was not when the demo data was made: the seeder still draws the empty
   * share it had then, so that every other value stays as it was, and fills the
   * rows that draw would have left empty from a random stream of their own.
   */
  readonly emptyBeforeRequired?: number;
  /**
   * Draws the field's demo values from a stream of its own instead of the model's: a field added to
   * a model later then leaves every other demo value as it was (tests pin many of them).
   */
  readonly ownDemoStream?: boolean;
  /**
   * Odoo's `aggregator` (17: `group_operator`) where it is not the type's (`sum` for numbers, none
   * for `sequence`): `false` for none. `read_group` aggregates a plain field name with it.
   */
  readonly aggregator?: string | false;
  /** `aggregator` of the versions whose declaration differs. */
  readonly aggregatorByVersion?: Readonly<Partial<Record<OdooVersion, string | false>>>;
  /**
   * Odoo's `group_expand`: a grouped read by this field (`read_group`, lazy; 19's
   * `formatted_read_group` with `read_group_expand` in the context) also returns the groups without
   * records: every selection value, or every comodel record the caller may search.
   */
  readonly groupExpand?: 'selection' | 'records';
  /**
   * Odoo declares the field from this version on. The sandbox has it in every version (the data is
   * the same); what only that version does with it (a grouped read's `__fold`) waits for it.
   */
  readonly since?: OdooVersion;
  /** The expand method sorts the records with the order 17 hands it (reversed for `<field> desc`). */
  readonly groupExpandUsesOrder?: true;
  /** Share of rows whose boolean is true (boolean fields only). Default 0.5; `active` 0.9. */
  readonly truthy?: number;
  /**
   * Datetime fields: Odoo stores this field's values with fractions of a second, as it does for a
   * value written from Python's `datetime.now()` (demo data, code) rather than typed by a user; the
   * seeder adds microseconds, which reads never answer (`create_date` and `write_date` always have them).
   */
  readonly fractions?: boolean;
}

/** What an earlier Odoo declares otherwise (see `FieldDef.declaredUntil`). */
export interface EarlierDeclaration {
  /** The last version declaring it so. */
  readonly until: OdooVersion;
  /** selection: every `[key, label]` pair as that version declares it (values it has that 19 dropped, other labels). */
  readonly selection?: readonly (readonly [string, string])[];
  readonly required?: boolean;
  readonly readonly?: boolean;
  /**
   * `true`: a related field that version stores (`store=True`), sortable as a column; `false`: a
   * company-dependent field 17 keeps in `ir.property`, not stored and not sortable (still searchable).
   */
  readonly store?: boolean;
}

/**
 * 17's overrides of `_name_search` (a many2one compared to a name searches its comodel with it):
 * - `ilike-always`: the `nameSearch` fields `ilike` the name whatever the operator, every record
 *   for a blank name with `ilike` (fleet.vehicle.model);
 * - `empty-matches-all`: an empty name matches every record whatever the operator (product.product).
 */
export type NameSearch17 = 'ilike-always' | 'empty-matches-all';

export interface ModelDef {
  /** Technical name, e.g. `fleet.vehicle`. */
  readonly name: string;
  /** `_description`. */
  readonly description: string;
  /** `_order`; default `id`. */
  readonly order?: string;
  /** `_order` of the Odoo versions whose differs (`modelOrder`). */
  readonly orderByVersion?: Readonly<Partial<Record<OdooVersion, string>>>;
  /** `_rec_name`: the field that gives `display_name`; default `name`. */
  readonly recName?: string;
  /**
   * `display_name` as an SQL expression when it is not a plain field (e.g. a code and a name).
   */
  readonly displayName?: string;
  /**
   * `_rec_names_search`: the fields (or paths) a search by name looks in, OR-ed, where Odoo's name
   * search is not a search on the display name (`brand/model` is found by `model` or by `brand`,
   * never by the whole text). Default: the display name.
   */
  readonly nameSearch?: readonly string[];
  /**
   * Odoo's `_search_display_name` where it is more than `nameSearch` (a variant is found by its
   * template's name or its code, never by the attribute values its display name shows): used for
   * conditions on the display name, relational fields compared to strings among them.
   */
  readonly searchDisplayName?: SearchDisplayName;
  /** Odoo 17's `_name_search` override of the model, where it departs from the generic one. */
  readonly nameSearch17?: NameSearch17;
  readonly fields: Readonly<Record<string, FieldDef>>;
  /** Rows seeded by default. */
  readonly demoRows: number;
}
