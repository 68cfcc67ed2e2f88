/**
 * @module `fields_get`: each field's description as `Field.get_description` builds it (attributes
 * sorted by name, `None` values left out, `attributes=[]` giving `{}` per field).
 */
import { defaultAggregator, isGroupable, isReadonly, isRequired, isSearchable, isSortable, odooStore, selectionOf } from './field-flags';
import type { FieldInfo, ModelInfo } from './registry';
import type { OdooVersion } from './types';
import { ormTraits } from './version-traits';

export type FieldDescription = Record<string, unknown>;

export function fieldsGet(version: OdooVersion, model: ModelInfo, allfields: unknown, attributes: unknown): Record<string, FieldDescription> {
  const wanted = Array.isArray(allfields) && allfields.length ? new Set(allfields) : undefined;
  // `attributes is not None`: an empty list selects nothing (section 8.4).
  const keep = attributes === null || attributes === undefined || attributes === false ? undefined : new Set(Array.isArray(attributes) ? attributes : [attributes]);
  const result: Record<string, FieldDescription> = {};
  for (const field of model.fields.values()) {
    if (wanted && !wanted.has(field.name)) continue;
    const description = describe(version, field);
    result[field.name] = Object.fromEntries(
      Object.keys(description)
        .sort()
        .filter((key) => !keep || keep.has(key))
        .map((key) => [key, description[key]]),
    );
  }
  return result;
}

function describe(version: OdooVersion, field: FieldInfo): FieldDescription {
  const traits = ormTraits(version);
  const d: FieldDescription = {
    change_default: false,
    company_dependent: false,
    depends: [],
    exportable: true,
    manual: false,
    name: field.name,
    readonly: isReadonly(version, field),
    required: isRequired(version, field),
    searchable: isSearchable(version, field),
    sortable: isSortable(version, field),
    store: odooStore(version, field),
    string: field.string,
    type: field.type,
  };
  if (traits.groupableAttribute) d['groupable'] = isGroupable(version, field);
  // 18/19 `_description_aggregator`: none for a field a grouped read cannot aggregate (not stored).
  const aggregator = defaultAggregator(version, field);
  if (aggregator && (traits.aggregatorAttribute === 'group_operator' || isGroupable(version, field))) d['aggregator'] = aggregator;
  if (field.help !== undefined) d['help'] = field.help;
  switch (field.type) {
    case 'char':
      Object.assign(d, { translate: false, trim: true });
      if (field.size !== undefined) d['size'] = field.size;
      break;
    case 'text':
      Object.assign(d, { translate: false });
      break;
    case 'html':
      Object.assign(d, { translate: false, sanitize: true });
      break;
    case 'float':
      if (field.digits !== undefined) d['digits'] = [16, field.digits];
      break;
    case 'monetary':
      Object.assign(d, { currency_field: 'currency_id' });
      break;
    case 'selection':
      d['selection'] = selectionOf(version, field).map(([key, label]) => [key, label]);
      break;
    case 'many2one':
    case 'many2many':
      Object.assign(d, { relation: field.relation, context: {}, domain: [] });
      break;
    case 'one2many':
      Object.assign(d, { relation: field.relation, relation_field: field.inverse, context: {}, domain: [] });
      break;
  }
  if (traits.aggregatorAttribute === 'group_operator' && 'aggregator' in d) {
    d['group_operator'] = d['aggregator'];
    delete d['aggregator'];
  }
  for (const key of Object.keys(d)) if (d[key] === undefined) delete d[key];
  return d;
}
