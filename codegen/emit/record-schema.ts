/**
 * @module JSON Schema of a resource's records: what every response's `data` holds. Shared by the
 * OpenAPI document (as a component) and by the tests that validate responses.
 */
import type { FieldModel, ResourceModel } from '../model/catalogue-model';

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

/**
 * Every field is listed; only `id` is required, because `fields=` returns a subset (the full set is
 * what a request without `fields` gets).
 */
export function recordSchema(resource: ResourceModel): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const field of resource.fields) properties[field.name] = fieldSchema(field);
  return {
    type: 'object',
    title: resource.title,
    description: resource.description,
    additionalProperties: false,
    required: ['id'],
    properties,
  };
}
