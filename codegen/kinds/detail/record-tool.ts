/** @module The detail route as an MCP tool: `get_record`, one record of any resource by its id. */
import type { CatalogueModel } from '../../model/catalogue-model';
import { LIMITS } from '../../model/catalogue-model';
import { DATA_CALL_TEXT, FIELDS_TEXT, READ_ONLY, resourceArgument, resourcePaths, type ToolDefinition, UNREADABLE_FIELDS } from '../../emit/mcp-tool-parts';

export function recordTool(model: CatalogueModel): ToolDefinition {
  const paths = resourcePaths(model);
  const resourceArg = resourceArgument(model);
  const anyRecord = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } };
  return {
    name: 'get_record',
    title: 'Get one record',
    description: `One record of a resource by its id (not_found when it does not exist or is outside the resource scope). ${DATA_CALL_TEXT}`,
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['resource', 'id'],
      properties: {
        resource: resourceArg,
        id: { type: 'integer', minimum: 1, maximum: LIMITS.int32Max },
        fields: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true, description: FIELDS_TEXT },
      },
    },
    outputSchema: {
      type: 'object',
      required: ['resource', 'data'],
      properties: {
        resource: { type: 'string', enum: paths },
        data: anyRecord,
        meta: { type: 'object', properties: { personal_fields_omitted: { type: 'array', items: { type: 'string' } }, unreadable_fields: UNREADABLE_FIELDS } },
      },
    },
    annotations: { title: 'Get one record', ...READ_ONLY },
  };
}
