/**
 * @module An example record per resource, built from the catalogue alone (field types, formats, enum
 * values, where a value comes from), for the docs page and llms.txt. The values are plausible shapes,
 * not data: a test checks every example answer against the OpenAPI document.
 */
import type { FieldModel, ResourceModel } from '../model/catalogue-model';

export const EXAMPLE_ID = 42;

function exampleString(field: FieldModel, resource: ResourceModel): string {
  if (field.enum?.length) return field.enum[0] as string;
  if (field.format === 'date') return '2026-01-31';
  if (field.format === 'date-time') return '2026-01-31T08:00:00Z';
  switch (field.source.kind) {
    case 'url':
      return `https://erp.example.org/web#id=${EXAMPLE_ID}&model=${resource.model}&view_type=form`;
    case 'distribution':
      return '{"12":60.0,"15":40.0}';
    default:
      break;
  }
  if (/email/.test(field.name)) return 'someone@example.org';
  if (/phone|mobile/.test(field.name)) return '+1 555 0100';
  if (field.name === 'currency') return 'EUR';
  return `Example ${field.name.replace(/_/g, ' ')}`;
}

function exampleValue(field: FieldModel, resource: ResourceModel): unknown {
  if (field.source.kind === 'id') return EXAMPLE_ID;
  switch (field.type) {
    case 'integer':
      return field.name.endsWith('_id') ? 7 : 3;
    case 'number':
      return 1250.5;
    case 'boolean':
      return true;
    case 'array':
      if (field.items === 'integer') return [7, 9];
      return field.source.kind === 'distribution_accounts' ? ['Example account'] : [`Example ${field.name.replace(/_/g, ' ')} 1`, `Example ${field.name.replace(/_/g, ' ')} 2`];
    default:
      return exampleString(field, resource);
  }
}

/** One record with every field of the resource, in answer order. */
export function exampleRecord(resource: ResourceModel): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const field of resource.fields) record[field.name] = exampleValue(field, resource);
  return record;
}

/** What the list route answers for a page of one record (with the count). */
export function exampleListAnswer(resource: ResourceModel): { data: Record<string, unknown>[]; meta: { total: number } } {
  return { data: [exampleRecord(resource)], meta: { total: 1 } };
}
