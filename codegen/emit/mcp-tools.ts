/**
 * @module `generated/mcp-tools.json`: the MCP server's tools and what `describe_resource` answers,
 * from the catalogue. The runtime (runtime/mcp/) serves them as they are.
 *
 * Tool count against schema precision: one query tool per resource would be 45 tools, past the
 * twenty or so among which a model still picks well (and every MCP client lists them all in its
 * prompt); one generic query tool would have a single schema for 45 different filter sets. So the
 * tools are three catalogue tools (`list_resources`, `describe_resource`, `get_record`) and one query
 * tool per domain (`query_fleet`, ...): 14 tools, each query tool naming only its domain's 1 to 8
 * resources. Never a raw domain: the only filters are the catalogue's, checked again by the API's
 * own query parser.
 *
 * Lean: every MCP client puts `tools/list` in every prompt, so it says what to call and with which
 * arguments, bounded (limits, enums of resources), and no more: the fields, filters with their value
 * types and sort keys of each resource are `describe_resource`'s answer (`resources` below), and
 * records are typed there, not in each tool's output schema. `tests/mcp/mcp-tools-size.test.ts`
 * keeps `tools/list` within 20 KB. The runtime refuses arguments outside a tool's input schema
 * (runtime/mcp/tool-calls.ts), so a bound written here is a bound kept.
 */
import { banner } from '../banner';
import { kindTools, routesOf } from '../kinds/kind-emitters';
import { queryToolName } from '../kinds/list/query-tool';
import { LIMITS, type CatalogueModel, type DomainModel, type FieldModel, type FilterModel, type ResourceModel } from '../model/catalogue-model';
import { filterNote, scopeText, sortableNames } from './describe';
import { READ_ONLY, resourceArgument, type Schema, type ToolDefinition } from './mcp-tool-parts';

const personalNames = (resource: ResourceModel): string[] => resource.fields.filter((f) => f.personal).map((f) => f.name);

/** The tools that read the catalogue itself; the tools that call a route are their kinds' (codegen/kinds/). */
function catalogueTools(model: CatalogueModel): ToolDefinition[] {
  const resourceArg = resourceArgument(model);
  return [
    {
      name: 'list_resources',
      title: 'List resources',
      description: 'Every resource of the operations data API, with its description and the tool that queries it.',
      inputSchema: { type: 'object', additionalProperties: false, properties: {} },
      outputSchema: {
        type: 'object',
        required: ['resources'],
        properties: { resources: { type: 'array', items: { type: 'object', properties: { resource: { type: 'string' }, query_tool: { type: 'string' } } } } },
      },
      annotations: READ_ONLY,
    },
    {
      name: 'describe_resource',
      title: 'Describe a resource',
      description:
        "What the query tools take for one resource: its fields (type, enum values, nullable, personal-data flag, sortable), named filters (operator, value type, enum values, example), sort keys, default order, scope and relations. A relation is embedded by the query tools' and get_record's expand: 'lines(id,price_total),order'.",
      inputSchema: { type: 'object', additionalProperties: false, required: ['resource'], properties: { resource: resourceArg } },
      outputSchema: {
        type: 'object',
        required: ['resource', 'query_tool', 'fields', 'filters', 'sortable'],
        properties: {
          resource: { type: 'string' },
          query_tool: { type: 'string' },
          fields: { type: 'array', items: { type: 'object' } },
          filters: { type: 'array', items: { type: 'object' } },
          sortable: { type: 'array', items: { type: 'string' } },
          relations: { type: 'array', items: { type: 'object' } },
        },
      },
      annotations: READ_ONLY,
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

/** The aggregate tool's dimensions (a date with `:granularity`) and measures (`field:aggregator`) of a resource that has the route. */
function aggregateEntry(resource: ResourceModel): Schema {
  const aggregate = resource.aggregate;
  if (!aggregate) return {};
  return {
    aggregate: {
      dimensions: aggregate.dimensions.map((d) => (d.kind === 'date' || d.kind === 'date-time' ? `${d.name}:<day|week|month|quarter|year>` : d.name)),
      measures: ['count', ...aggregate.measures.flatMap((m) => m.aggregators.map((a) => `${m.name}:${a}`))],
    },
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
    routes: routesOf(resource).map((route) => `GET ${route.openApiPath}`),
    default_order: resource.defaultOrderText,
    sortable: sortableNames(resource),
    ...(scope ? { scope: `only records with ${scope}` } : {}),
    fields: resource.fields.map(fieldEntry),
    filters: resource.filters.map((f) => filterEntry(f, resource)),
    relations: resource.relations.map((r) => ({ name: r.name, kind: r.kind, resource: r.target })),
    personal_fields: personalNames(resource),
    ...aggregateEntry(resource),
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
    tools: [...catalogueTools(model), ...kindTools(model)],
    resources,
  };
}
