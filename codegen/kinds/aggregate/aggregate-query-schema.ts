/** @module The aggregate route's raw query string as ajv checks it: its own keys and the resource's named filters, as on its list. */
import { banner } from '../../banner';
import { listQuerySchema } from '../../emit/query-schema';
import type { ResourceModel } from '../../model/catalogue-model';

export function aggregateQuerySchema(resource: ResourceModel): object {
  const list = listQuerySchema(resource) as { properties: Record<string, object> };
  const properties: Record<string, object> = {
    group_by: { type: 'string', maxLength: 512 },
    measures: { type: 'string', minLength: 1, maxLength: 1024 },
    order: { type: 'string', minLength: 1, maxLength: 256 },
    limit: { type: 'string', pattern: '^[0-9]+$', maxLength: 64 },
    offset: { type: 'string', pattern: '^[0-9]+$', maxLength: 64 },
    format: { type: 'string', enum: ['json', 'csv', 'ndjson'] },
    csv_formulas: { type: 'string', enum: ['escaped', 'raw'] },
  };
  for (const filter of resource.filters) properties[filter.name] = list.properties[filter.name] as object;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `urn:ops-data-gateway:${resource.path}:aggregate-query`,
    $comment: banner(resource.file),
    type: 'object',
    additionalProperties: false,
    properties,
  };
}
