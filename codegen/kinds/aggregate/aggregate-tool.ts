/**
 * @module The aggregate route as one MCP tool, `aggregate`: counts and measures of any resource by
 * group, in one call. Its description stays short (tools/list is sent to every agent and charged to
 * the memory budget): each resource's dimensions and measures are in describe_resource.
 */
import { DATA_CALL_TEXT, READ_ONLY, type ToolDefinition } from '../../emit/mcp-tool-parts';
import type { CatalogueModel } from '../../model/catalogue-model';
import { AGGREGATE_LIMITS, GRANULARITY_NAMES } from './aggregate-limits';

export function aggregateTool(model: CatalogueModel): ToolDefinition {
  const paths = model.domains.flatMap((d) => d.resources.filter((r) => r.aggregate).map((r) => r.path));
  const granularity = GRANULARITY_NAMES.join('|');
  return {
    name: 'aggregate',
    title: 'Count and sum by group',
    description: `Counts (and sums, averages, min, max, distinct counts) of a resource's records by group, computed by the ERP in one call: e.g. resource purchase/orders, group_by [state], measures [amount_total:sum]. describe_resource lists each resource's aggregate dimensions and measures. Filters as in the query tools. Date buckets: field:${granularity}, cut in UTC. ${DATA_CALL_TEXT}`,
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['resource'],
      properties: {
        resource: { type: 'string', enum: paths, description: "As '<domain>/<resource>'." },
        group_by: {
          type: 'array',
          items: { type: 'string', pattern: `^[a-z_][a-z0-9_]*(:(${granularity}))?$` },
          maxItems: AGGREGATE_LIMITS.dimensionsMax,
          uniqueItems: true,
          description: 'Dimensions (a date with its granularity). Omit for one group of everything.',
        },
        measures: {
          type: 'array',
          items: { type: 'string', pattern: '^(count|[a-z_][a-z0-9_]*:(sum|avg|min|max|count_distinct))$' },
          minItems: 1,
          maxItems: AGGREGATE_LIMITS.measuresMax,
          uniqueItems: true,
          description: "'field:aggregator' items; count is always answered.",
        },
        filters: { type: 'object', description: "The resource's named filters." },
        order: { type: 'string', description: "e.g. 'count desc' or 'amount_total:sum desc'." },
        limit: { type: 'integer', minimum: 1, maximum: AGGREGATE_LIMITS.limitMax, description: `Groups per page (default ${AGGREGATE_LIMITS.limitDefault}).` },
        offset: { type: 'integer', minimum: 0, description: 'meta.next_offset of the previous page.' },
      },
    },
    outputSchema: {
      type: 'object',
      required: ['resource', 'data', 'meta'],
      properties: {
        resource: { type: 'string', enum: paths },
        data: { type: 'array', items: { type: 'object', required: ['count'], properties: { count: { type: 'integer' } } } },
        meta: { type: 'object', required: ['next_offset'], properties: { next_offset: { type: ['integer', 'null'] } } },
      },
    },
    annotations: { title: 'Count and sum by group', ...READ_ONLY },
  };
}
