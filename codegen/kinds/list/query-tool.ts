/**
 * @module The list route as MCP tools: one query tool per domain (`query_fleet`, ...), each naming
 * only its domain's resources, their named filters (typed, with the enum values) and their fields
 * (emit/mcp-tools.ts says why per domain). Never a raw domain: the only filters are the catalogue's,
 * checked again by the API's own query parser.
 */
import type { DomainModel, FilterModel, ResourceModel } from '../../model/catalogue-model';
import { LIMITS } from '../../model/catalogue-model';
import { filterNote } from '../../emit/describe';
import { DATA_CALL_TEXT, FIELDS_TEXT, READ_ONLY, type Schema, type ToolDefinition, UNREADABLE_FIELDS } from '../../emit/mcp-tool-parts';
import { recordSchema } from '../../emit/record-schema';

/** `query_fleet`: the query tool of a domain. */
export const queryToolName = (domain: string): string => `query_${domain}`;

/** A filter's value as a tool argument: typed JSON rather than query-string text. */
function filterSchema(filter: FilterModel, resource: ResourceModel): Schema {
  const note = filterNote(filter, resource);
  const description = `${filter.op} ${note || filter.description}${filter.deprecated ? ' [deprecated]' : ''}`.trim();
  switch (filter.type) {
    case 'integer':
      return { type: 'integer', description };
    case 'number':
      return { type: 'number', description };
    case 'boolean':
      return { type: 'boolean', description };
    case 'enum':
      return { type: 'string', enum: [...(filter.values ?? [])], description };
    case 'integer-list':
      return { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1, description: `${description} (one of these ids)` };
    case 'date':
    case 'date-time':
      return { type: 'string', description: `${description} (YYYY-MM-DD or ISO 8601 date-time, e.g. ${filter.example})` };
    default:
      return { type: 'string', description };
  }
}

function filtersSchema(resource: ResourceModel): Schema {
  const properties: Schema = {};
  for (const filter of resource.filters) properties[filter.name] = filterSchema(filter, resource);
  return { title: resource.name, type: 'object', additionalProperties: false, properties };
}

/** The record schema without descriptions (describe_resource has them) and with no field required but `id`. */
function outputRecordSchema(resource: ResourceModel): Schema {
  const schema = recordSchema(resource);
  const properties: Schema = {};
  for (const [name, field] of Object.entries(schema['properties'] as Record<string, Schema>)) {
    const { description: _d, deprecated: _dep, 'x-personal-data': _p, ...rest } = field;
    properties[name] = rest;
  }
  return { type: 'object', additionalProperties: false, required: ['id'], properties };
}

/** The query tool of a domain: a page of records of one of its resources, with its named filters. */
export function queryTool(domain: DomainModel): ToolDefinition {
  const names = domain.resources.map((r) => r.name);
  const fieldNames = [...new Set(domain.resources.flatMap((r) => r.fields.map((f) => f.name)))].sort();
  const resourceLines = domain.resources.map((r) => `- ${r.name}: ${r.description}`).join('\n');
  const filtered = domain.resources.filter((r) => r.filters.length);
  return {
    name: queryToolName(domain.domain),
    title: `Query ${domain.title}`,
    description: `List records of a ${domain.title} resource (${domain.description}) with its named filters, ANDed. Resources:\n${resourceLines}\nPage with since_id: 0 first, then meta.next_since_id until it is null. Call describe_resource for a resource's fields, filters and sort keys. ${DATA_CALL_TEXT}`,
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['resource'],
      properties: {
        resource: { type: 'string', enum: names, description: 'Which resource of the domain.' },
        filters: filtered.length
          ? {
              type: 'object',
              description: 'Named filters of the chosen resource (the branch titled with its name); any other name is refused. Omit for no filter.',
              anyOf: filtered.map(filtersSchema),
            }
          : { type: 'object', additionalProperties: false, properties: {}, description: 'No resource of this domain has filters.' },
        fields: { type: 'array', items: { type: 'string', enum: fieldNames }, minItems: 1, uniqueItems: true, description: FIELDS_TEXT },
        order: { type: 'string', description: "Sort keys among the resource's sortable fields: 'field', 'field desc', comma-separated. Not with since_id." },
        limit: { type: 'integer', minimum: LIMITS.limitMin, maximum: LIMITS.limitMax, description: `Records per page (default ${LIMITS.limitDefault}).` },
        since_id: {
          type: 'integer',
          minimum: LIMITS.sinceIdMin,
          maximum: LIMITS.int32Max,
          description: 'Cursor: 0 for the first page, then meta.next_since_id. Records come in ascending id.',
        },
        total: { type: 'boolean', description: 'Count every matching record in meta.total (default true; false is cheaper).' },
      },
    },
    outputSchema: {
      type: 'object',
      required: ['resource', 'data', 'meta'],
      properties: {
        resource: { type: 'string', enum: domain.resources.map((r) => r.path) },
        data: { type: 'array', items: { anyOf: domain.resources.map(outputRecordSchema) } },
        meta: {
          type: 'object',
          additionalProperties: false,
          properties: {
            total: { type: 'integer', minimum: 0 },
            next_since_id: { type: ['integer', 'null'] },
            personal_fields_omitted: { type: 'array', items: { type: 'string' } },
            unreadable_fields: UNREADABLE_FIELDS,
          },
        },
      },
    },
    annotations: { title: `Query ${domain.title}`, ...READ_ONLY },
  };
}
