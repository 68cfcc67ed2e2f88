/**
 * @module JSON Schema of a resource's records: what every response's `data` holds. Shared by the
 * OpenAPI document (as a component) and by the tests that validate responses.
 */
import type { FieldModel, RelationModel, ResourceModel } from '../model/catalogue-model';
import { recordTypeName } from '../model/names';

/** The schema of one field's value, OpenAPI 3.1 / JSON Schema 2020-12 style (null as a type). */
function fieldSchema(field: FieldModel): Record<string, unknown> {
  const base: Record<string, unknown> = {};
  if (field.type === 'array') {
    base['type'] = 'array';
    base['items'] = { type: field.items };
  } else {
    base['type'] = field.nullable ? [field.type, 'null'] : field.type;
  }
  if (field.format) base['format'] = field.format;
  if (field.enum) base['enum'] = field.nullable ? [...field.enum, null] : [...field.enum];
  base['description'] = field.description;
  if (field.deprecated) base['deprecated'] = true;
  if (field.personal) base['x-personal-data'] = true;
  return base;
}

/** The related record as the OpenAPI document's component of the related resource's records. */
function componentOf(relation: RelationModel): Record<string, unknown> {
  const [domain, name] = relation.target.split('/') as [string, string];
  return { $ref: `#/components/schemas/${recordTypeName(domain, name)}` };
}

/**
 * A relation's value in an expanded record (`expand=<name>`), marked `x-relation` (its kind): the related records (at most the bound
 * per record; `meta.expanded` names the records it cut), or the related record (`null` without a
 * link, or outside the related resource's scope); `null` when the account cannot read the related
 * model (named in `meta.unreadable_fields`).
 */
function relationSchema(relation: RelationModel, related: (relation: RelationModel) => Record<string, unknown>): Record<string, unknown> {
  const description = `${relation.description} Present only with \`expand=${relation.name}\`; \`null\` when the API account cannot read ${relation.target} (named in \`meta.unreadable_fields\`).`;
  if (relation.kind === 'to_many')
    return {
      type: ['array', 'null'],
      items: related(relation),
      'x-relation': relation.kind,
      description: `${description} At most the bound per record: \`meta.expanded.${relation.name}\` names the records it cut.`,
    };
  return {
    anyOf: [related(relation), { type: 'null' }],
    'x-relation': relation.kind,
    description: `${description} Also \`null\` when the link is empty or points outside ${relation.target}.`,
  };
}

/**
 * Every field is listed; only `id` is required, because `fields=` returns a subset (the full set is
 * what a request without `fields` gets). Each relation is a property too, present only when expanded;
 * `related` gives the related record's schema (the OpenAPI component by default).
 */
export function recordSchema(resource: ResourceModel, related: (relation: RelationModel) => Record<string, unknown> = componentOf): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const field of resource.fields) properties[field.name] = fieldSchema(field);
  for (const relation of resource.relations) properties[relation.name] = relationSchema(relation, related);
  return {
    type: 'object',
    title: resource.title,
    description: resource.description,
    additionalProperties: false,
    required: ['id'],
    properties,
  };
}
