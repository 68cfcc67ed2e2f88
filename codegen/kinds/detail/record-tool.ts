/** @module The detail route as an MCP tool: `get_record`, one record of any resource by its id. */
import type { CatalogueModel } from '../../model/catalogue-model';
import { LIMITS } from '../../model/catalogue-model';
import { ANY_RECORD, EXPAND_ARGUMENT, FIELDS_TEXT, READ_ONLY, resourceArgument, type ToolDefinition } from '../../emit/mcp-tool-parts';

export function recordTool(model: CatalogueModel): ToolDefinition {
  const resourceArg = resourceArgument(model);
  return {
    name: 'get_record',
    title: 'Get one record',
    description: 'One record of a resource by its id (not_found when it does not exist or is outside the resource scope).',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['resource', 'id'],
      properties: {
        resource: resourceArg,
        id: { type: 'integer', minimum: 1, maximum: LIMITS.int32Max },
        fields: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true, description: FIELDS_TEXT },
        expand: EXPAND_ARGUMENT,
      },
    },
    outputSchema: {
      type: 'object',
      required: ['resource', 'data'],
      properties: { resource: { type: 'string' }, data: ANY_RECORD, meta: { type: 'object' } },
    },
    annotations: READ_ONLY,
  };
}
