/**
 * @module What Odoo says a field is, derived as Odoo's `Field` derives it from its declaration
 * (`_description_store`, `_description_searchable`, `_description_sortable`): `fields_get`
 * reports these flags, and the domain and order compilers refuse what they refuse. The sandbox's
 * own storage (a column for every plain or related field) is another matter: `FieldInfo.store`.
 */
import type { EarlierDeclaration } from './model-def';
import type { FieldInfo } from './registry';
import type { OdooVersion } from './types';
import { ormTraits } from './version-traits';

const X2MANY = new Set(['one2many', 'many2many']);

/** What `version` declares otherwise than 19 for this field, if anything (`FieldDef.declaredUntil`). */
function earlierDeclaration(version: OdooVersion, field: FieldInfo): EarlierDeclaration | undefined {
  return field.def?.declaredUntil?.find((declared) => version <= declared.until);
}

/** Odoo's `store`: false for computed and related fields, true otherwise (x2many included), unless the version declares it otherwise. */
export function odooStore(version: OdooVersion, field: FieldInfo): boolean {
  const declared = earlierDeclaration(version, field)?.store;
  if (declared !== undefined) return declared;
  if (field.compute !== undefined || field.related !== undefined) return false;
  return field.store || X2MANY.has(field.type);
}

/** `required`, as the version declares it. */
export function isRequired(version: OdooVersion, field: FieldInfo): boolean {
  return earlierDeclaration(version, field)?.required ?? field.required;
}

/** `readonly`, as the version declares it. */
export function isReadonly(version: OdooVersion, field: FieldInfo): boolean {
  return earlierDeclaration(version, field)?.readonly ?? field.readonly;
}

/** The selection's `[key, label]` pairs, as the version declares them. */
export function selectionOf(version: OdooVersion, field: FieldInfo): readonly (readonly [string, string])[] {
  return earlierDeclaration(version, field)?.selection ?? field.selection ?? [];
}

/**
 * `store or search`: a related field searches through its path, a computed one needs a search
 * method (17 has none on `display_name`; 18 added `_search_display_name`).
 */
export function isSearchable(version: OdooVersion, field: FieldInfo): boolean {
  if (field.searchable !== undefined) return field.searchable;
  return ormTraits(version).displayNameSearchable || field.name !== 'display_name';
}

/**
 * Stored columns sort; a related field sorts through its path in 18/19, in 17 only when it is
 * inherited (`_inherits`); computed and x2many fields do not. A version that stores a related field
 * sorts on its column; 17's company-dependent fields (`ir.property`) do not sort.
 */
export function isSortable(version: OdooVersion, field: FieldInfo): boolean {
  if (field.sortable !== undefined) return field.sortable;
  const stored = earlierDeclaration(version, field)?.store;
  if (stored !== undefined) return stored;
  if (field.related !== undefined) return ormTraits(version).relatedFieldsSortable || field.inherited === true;
  return field.store && !X2MANY.has(field.type);
}

/**
 * 18/19 `groupable` (`_description_groupable`): whether a grouped read can group by the field, i.e.
 * a stored column (a related field through its path), or a stored many2many through its relation
 * table; not a computed field, nor a one2many.
 */
export function isGroupable(version: OdooVersion, field: FieldInfo): boolean {
  if (field.type === 'many2many') return field.compute === undefined && field.relationTable !== undefined;
  return field.type !== 'one2many' && isSortable(version, field);
}

/**
 * The field's `aggregator` (17: `group_operator`): the definition's, else `sum` for numbers (not
 * `id`, nor an integer named `sequence`). `read_group` aggregates a plain field name with it.
 */
export function defaultAggregator(version: OdooVersion, field: FieldInfo): string | undefined {
  const declared = field.def?.aggregatorByVersion?.[version] ?? field.def?.aggregator;
  if (declared !== undefined) return declared || undefined;
  if (field.name === 'id' || field.name === 'sequence') return undefined;
  return field.type === 'integer' || field.type === 'float' || field.type === 'monetary' ? 'sum' : undefined;
}
