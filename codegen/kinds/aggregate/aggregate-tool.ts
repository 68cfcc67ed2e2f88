/**
 * @module The aggregate route as one MCP tool, `aggregate`: counts and measures of any resource by
 * group, in one call. Its description stays short (tools/list is sent to every agent and charged to
 * the memory budget): each resource's dimensions and measures are in describe_resource.
 */
import { READ_ONLY, type ToolDefinition } from '../../emit/mcp-tool-parts';
import type { CatalogueModel } from '../../model/catalogue-model';
import { AGGREGATE_LIMITS, GRANULARITY_NAMES } from './aggregate-limits';

export function aggregateTool(model: CatalogueModel): ToolDefinition {
  const granularity = GRANULARITY_NAMES.join('|');
  const without = model.domains.flatMap((d) => d.resources.filter((r) => !r.aggregate).map((r) => r.path));
  return {
    name: 'aggregate',
    title: 'Count by group',
    description: `Counts and measures by group in one ERP call (purchase/orders, group_by [state], measures [amount_total:sum]); describe_resource lists dimensions and measures${
      without.length ? ` (none: ${without.join(', ')})` : ''
    }. Dates: field:${granularity}, UTC.`,
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['resource'],
      properties: {
        resource: { type: 'string' },
        group_by: { type: 'array', items: { type: 'string' }, maxItems: AGGREGATE_LIMITS.dimensionsMax },
        measures: { type: 'array', items: { type: 'string' }, maxItems: AGGREGATE_LIMITS.measuresMax },
        filters: { type: 'object' },
        order: { type: 'string', description: "'count desc'" },
        limit: { type: 'integer', minimum: 1, maximum: AGGREGATE_LIMITS.limitMax },
        offset: { type: 'integer', minimum: 0, description: 'meta.next_offset' },
      },
    },
    outputSchema: {
      type: 'object',
      required: ['resource', 'data', 'meta'],
      properties: {
        resource: { type: 'string' },
        data: { type: 'array', items: { type: 'object' } },
        meta: { type: 'object' },
      },
    },
    annotations: { title: 'Count by group', ...READ_ONLY },
  };
}
