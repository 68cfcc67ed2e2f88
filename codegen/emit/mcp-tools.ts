/**
 * @module `generated/mcp-tools.json`: the MCP server's tools and what `describe_resource` answers,
 * from the catalogue. The runtime (runtime/mcp/) serves them as they are.
 *
 * Tool count against schema precision: one query tool per resource would be 45 tools, past the
 * twenty or so among which a model still picks well (and every MCP client lists them all in its
 * prompt); one generic query tool would have a single schema for 45 different filter sets. So the
 * tools are three catalogue tools (`list_resources`, `describe_resource`, `get_record`) and one query
 * tool per domain (`query_fleet`, ...): 14 tools, each query tool naming only its domain's 1 to 8
 * resources, their named filters (typed, with the enum values) and their fields. Never a raw domain:
 * the only filters are the catalogue's, checked again by the API's own query parser.
 */
import { banner } from '../banner';
import type { CatalogueModel, DomainModel, FieldModel, FilterModel, ResourceModel } from '../model/catalogue-model';
import { LIMITS } from '../model/catalogue-model';
import { filterNote, scopeText, sortableNames } from './describe';
import { recordSchema } from './record-schema';

type Schema = Record<string, unknown>;

interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Schema;
  readonly outputSchema: Schema;
  readonly annotations: Schema;
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const queryToolName = (domain: string): string => `query_${domain}`;

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

const personalNames = (resource: ResourceModel): string[] => resource.fields.filter((f) => f.personal).map((f) => f.name);

/** What a tool that reads the ERP costs and may answer besides its own errors: the same as its data route. */
const DATA_CALL_TEXT =
  "Costs what its data route costs against the key's rate limit (tool error rate_limited, status 429, with retry_after, past it). " +
  'Tool error unavailable (status 503, with retry_after) when the gateway already holds as many answers as its memory budget allows: retry after that many seconds, or ask for fewer records.';

const FIELDS_TEXT = 'Fields to return (default: every field except personal data). Personal-data fields (see describe_resource) are returned only when named here.';

function queryTool(domain: DomainModel): ToolDefinition {
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
          },
        },
      },
    },
    annotations: { title: `Query ${domain.title}`, ...READ_ONLY },
  };
}

function catalogueTools(model: CatalogueModel): ToolDefinition[] {
  const paths = model.domains.flatMap((d) => d.resources.map((r) => r.path));
  const resourceArg = { type: 'string', enum: paths, description: "The resource, as '<domain>/<resource>' (list_resources lists them)." };
  const anyRecord = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } };
  return [
    {
      name: 'list_resources',
      title: 'List resources',
      description: 'Every resource of the operations data API, with its description and the tool that queries it.',
      inputSchema: { type: 'object', additionalProperties: false, properties: {} },
      outputSchema: {
        type: 'object',
        required: ['resources'],
        properties: {
          resources: {
            type: 'array',
            items: {
              type: 'object',
              required: ['resource', 'title', 'description', 'query_tool'],
              properties: { resource: { type: 'string' }, title: { type: 'string' }, description: { type: 'string' }, query_tool: { type: 'string' } },
            },
          },
        },
      },
      annotations: { title: 'List resources', ...READ_ONLY },
    },
    {
      name: 'describe_resource',
      title: 'Describe a resource',
      description: 'Fields (type, enum values, personal-data flag), named filters (operator, value type, example), sort keys and scope of one resource.',
      inputSchema: { type: 'object', additionalProperties: false, required: ['resource'], properties: { resource: resourceArg } },
      outputSchema: {
        type: 'object',
        required: ['resource', 'title', 'description', 'query_tool', 'fields', 'filters', 'sortable', 'default_order'],
        properties: {
          resource: { type: 'string' },
          title: { type: 'string' },
          description: { type: 'string' },
          query_tool: { type: 'string' },
          routes: { type: 'array', items: { type: 'string' } },
          default_order: { type: 'string' },
          sortable: { type: 'array', items: { type: 'string' } },
          scope: { type: 'string' },
          fields: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name', 'type', 'description', 'personal'],
              properties: {
                name: { type: 'string' },
                type: { type: 'string' },
                enum: { type: 'array', items: { type: 'string' } },
                nullable: { type: 'boolean' },
                personal: { type: 'boolean' },
                deprecated: { type: 'boolean' },
                sortable: { type: 'boolean' },
                description: { type: 'string' },
              },
            },
          },
          filters: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name', 'op', 'type', 'example'],
              properties: {
                name: { type: 'string' },
                op: { type: 'string' },
                type: { type: 'string' },
                values: { type: 'array', items: { type: 'string' } },
                example: { type: 'string' },
                deprecated: { type: 'boolean' },
                description: { type: 'string' },
              },
            },
          },
        },
      },
      annotations: { title: 'Describe a resource', ...READ_ONLY },
    },
    {
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
          meta: { type: 'object', properties: { personal_fields_omitted: { type: 'array', items: { type: 'string' } } } },
        },
      },
      annotations: { title: 'Get one record', ...READ_ONLY },
    },
  ];
}

function fieldEntry(field: FieldModel): Schema {
  return {
    name: field.name,
    type: field.type === 'array' ? `array of ${field.items ?? 'string'}` : field.format ? `${field.type} (${field.format})` : field.type,
    ...(field.enum ? { enum: [...field.enum] } : {}),
    nullable: field.nullable,
    personal: field.personal,
    ...(field.deprecated ? { deprecated: true } : {}),
    sortable: field.sortable,
    description: field.description,
  };
}

function filterEntry(filter: FilterModel, resource: ResourceModel): Schema {
  const note = filterNote(filter, resource);
  return {
    name: filter.name,
    op: filter.op,
    type: filter.type,
    ...(filter.values ? { values: [...filter.values] } : {}),
    example: filter.example,
    ...(filter.deprecated ? { deprecated: true } : {}),
    description: note || filter.description,
  };
}

/** What `describe_resource` answers, and what the runtime needs to call the API (field lists). */
function resourceEntry(domain: DomainModel, resource: ResourceModel): Schema {
  const scope = scopeText(resource);
  return {
    resource: resource.path,
    title: resource.title,
    description: resource.description,
    query_tool: queryToolName(domain.domain),
    routes: [`GET /api/v1/${resource.path}`, `GET /api/v1/${resource.path}/{id}`],
    default_order: resource.defaultOrderText,
    sortable: sortableNames(resource),
    ...(scope ? { scope: `only records with ${scope}` } : {}),
    fields: resource.fields.map(fieldEntry),
    filters: resource.filters.map((f) => filterEntry(f, resource)),
    personal_fields: personalNames(resource),
  };
}

/** The bounds of one POST to /mcp, served as they are by the runtime (runtime/mcp/mcp-endpoint.ts) and stated in llms.txt. */
interface McpLimits {
  readonly batch_max: number;
  readonly calls_in_flight: number;
}

export function mcpTools(model: CatalogueModel): {
  'x-generated-by': string;
  version: string;
  limits: McpLimits;
  tools: ToolDefinition[];
  resources: Record<string, Schema>;
} {
  const resources: Record<string, Schema> = {};
  for (const domain of model.domains) for (const resource of domain.resources) resources[resource.path] = resourceEntry(domain, resource);
  return {
    'x-generated-by': banner('catalogue/*.yaml'),
    // The interface version (catalogue/api.yaml): the MCP server announces it as its own.
    version: model.version,
    limits: { batch_max: LIMITS.mcpBatchMax, calls_in_flight: LIMITS.mcpCallsInFlight },
    tools: [...catalogueTools(model), ...model.domains.map(queryTool)],
    resources,
  };
}
