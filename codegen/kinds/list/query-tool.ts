/**
 * @module The list route as MCP tools: one query tool per domain (`query_fleet`, ...), naming its
 * domain's resources (emit/mcp-tools.ts says why per domain). Lean, since every client puts
 * `tools/list` in every prompt: each resource's fields, filters with their value types and sort keys
 * are `describe_resource`'s answer, not repeated in the schema. Never a raw domain: `filters` takes
 * the resource's named filters only (the runtime refuses another name), whose values the API's own
 * query parser judges.
 */
import type { DomainModel } from '../../model/catalogue-model';
import { LIMITS } from '../../model/catalogue-model';
import { ANY_RECORD, EXPAND_ARGUMENT, FIELDS_TEXT, READ_ONLY, type ToolDefinition } from '../../emit/mcp-tool-parts';

/** `query_fleet`: the query tool of a domain. */
export const queryToolName = (domain: string): string => `query_${domain}`;

/** The query tool of a domain: a page of records of one of its resources, with its named filters. */
export function queryTool(domain: DomainModel): ToolDefinition {
  const names = domain.resources.map((r) => r.name);
  return {
    name: queryToolName(domain.domain),
    title: `Query ${domain.title}`,
    description: `Records of one ${domain.title} resource (${domain.description.replace(/\.$/, '')}), with named filters, ANDed.`,
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['resource'],
      properties: {
        resource: { type: 'string', enum: names },
        filters: { type: 'object', description: "{name: value} of the resource's filters." },
        fields: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true, description: FIELDS_TEXT },
        order: { type: 'string', description: "'field desc', comma-separated; not with since_id." },
        limit: { type: 'integer', minimum: LIMITS.limitMin, maximum: LIMITS.limitMax, description: `Default ${LIMITS.limitDefault}.` },
        since_id: { type: 'integer', minimum: LIMITS.sinceIdMin, maximum: LIMITS.int32Max, description: '0, then meta.next_since_id until null.' },
        total: { type: 'boolean', description: 'false: no meta.total (cheaper).' },
        expand: EXPAND_ARGUMENT,
      },
    },
    outputSchema: {
      type: 'object',
      required: ['resource', 'data', 'meta'],
      properties: { resource: { type: 'string' }, data: { type: 'array', items: ANY_RECORD }, meta: { type: 'object' } },
    },
    annotations: READ_ONLY,
  };
}
