/**
 * @module What each MCP tool does, over the data routes themselves: a query or a record is a GET of
 * `/api/v1/...` sent through the gateway's own request pipeline (`ApiGet`, in-process-get.ts), so the key
 * check, read rights, scope, drift, memory budget, limits, deadline and log line are exactly those of
 * the HTTP route, and so will be whatever is later added to that pipeline. The tool's typed
 * arguments are first held to the tool's input schema as `tools/list` gives it (ajv): an argument
 * outside it (`limit: 1000` where the schema says at most 200) is a tool error, never adjusted. They
 * then become the route's query string; the API's parser judges them, so a bad value is the API's own
 * error (code and message), answered as a tool error.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import catalogue from '../../generated/mcp-tools.json';
import { GatewayError } from '../errors';
import { splitExpand } from '../query/parse-expand';
import type { RouteKind } from '../route-kinds';

/** The answer of a GET through the gateway: status, parsed JSON body and the headers a tool passes on. */
export interface ApiAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly retryAfter?: string;
}

type ApiGet = (pathAndQuery: string) => Promise<ApiAnswer>;

/** What the tools need of the MCP request they serve. */
export interface ToolHost {
  /** A GET of a data route through the gateway, as the request's client; its answer is charged to the request as it arrives. */
  readonly get: ApiGet;
  /**
   * Charges an answer of `bytes` built here (not read from a route) to the request's memory; throws
   * the gateway's 503 `unavailable` when the memory budget cannot hold it.
   */
  readonly hold: (bytes: number) => void;
}

interface ResourceEntry {
  readonly resource: string;
  readonly title: string;
  readonly description: string;
  readonly query_tool: string;
  readonly fields: readonly { readonly name: string; readonly personal: boolean }[];
  readonly filters: readonly { readonly name: string }[];
  readonly relations: readonly { readonly name: string; readonly resource: string }[];
  readonly personal_fields: readonly string[];
}

/** By path: a Map, so that a client's name is only ever compared, never looked up on a prototype (`__proto__`, `constructor`). */
const RESOURCES: ReadonlyMap<string, ResourceEntry> = new Map(Object.entries(catalogue.resources as unknown as Record<string, ResourceEntry>));
const DOMAIN_OF_TOOL = new Map(catalogue.tools.filter((t) => t.name.startsWith('query_')).map((t) => [t.name, t.name.slice('query_'.length)]));
const QUERY_ARGUMENTS = new Set(['resource', 'filters', 'fields', 'order', 'limit', 'since_id', 'total', 'expand']);
const RECORD_ARGUMENTS = new Set(['resource', 'id', 'fields', 'expand']);

/** The tools as `tools/list` answers them. */
export const TOOLS = catalogue.tools;
/** The interface version (catalogue/api.yaml). */
export const API_VERSION = catalogue.version;
/** The bounds of one MCP request (codegen LIMITS: messages in a batch, tool calls running at once). */
export const MCP_LIMITS: { readonly batch_max: number; readonly calls_in_flight: number } = catalogue.limits;

/** Each tool's input schema as tools/list serves it, compiled once at start-up. */
const ajv = new Ajv2020({ allErrors: false, strict: false });
const ARGUMENT_CHECKS: ReadonlyMap<string, ValidateFunction> = new Map(TOOLS.map((tool) => [tool.name, ajv.compile(tool.inputSchema)]));

/** Refuses arguments outside the tool's input schema, before anything is read: what the schema promises is what is kept. */
function assertWithinSchema(name: string, args: Record<string, unknown>): void {
  const validate = ARGUMENT_CHECKS.get(name);
  if (!validate || validate(args)) return;
  const [error] = validate.errors ?? [];
  if (!error) return;
  const argument = error.instancePath.slice(1).replace(/\//g, '.');
  // An unknown argument name or resource is refused below, with what is known to pick from.
  if ((error.keyword === 'additionalProperties' && argument === '') || argument === 'resource') return;
  if (error.keyword === 'required') throw badRequest(`Missing argument '${(error.params as { missingProperty: string }).missingProperty}' for ${name}.`);
  throw new ToolRefusal('invalid_value', `Argument '${argument}' ${error.message ?? 'is invalid'} (the input schema of ${name}); nothing was read.`);
}

/** A refusal in the API's terms, answered as a tool error. */
class ToolRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const badRequest = (message: string) => new ToolRefusal('bad_request', message);
/** The status each refusal would have on the route, as the API's error table gives it. */
const REFUSAL_STATUS: Readonly<Record<string, number>> = { bad_request: 400, not_found: 404, invalid_value: 422 };

function toolError(code: string, message: string, extra: Record<string, unknown> = {}): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: { code, message, ...extra } }) }] };
}

function answer(structured: Record<string, unknown>): CallToolResult {
  return { structuredContent: structured, content: [{ type: 'text', text: JSON.stringify(structured) }] };
}

function objectArgument(value: unknown, name: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest(`'${name}' must be an object.`);
  return value as Record<string, unknown>;
}

function onlyKnown(args: Record<string, unknown>, known: ReadonlySet<string>, what: string): void {
  const unknown = Object.keys(args).filter((k) => !known.has(k));
  if (unknown.length)
    throw badRequest(`Unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k}'`).join(', ')} for ${what}; expected ${[...known].join(', ')}.`);
}

function resourceOf(value: unknown, domain?: string): ResourceEntry {
  const path = typeof value === 'string' ? (domain ? `${domain}/${value}` : value) : undefined;
  const entry = path === undefined ? undefined : RESOURCES.get(path);
  if (!entry) {
    const choices = [...RESOURCES.keys()].filter((p) => !domain || p.startsWith(`${domain}/`)).map((p) => (domain ? p.slice(domain.length + 1) : p));
    throw badRequest(`Unknown resource ${JSON.stringify(value)}; one of: ${choices.join(', ')}.`);
  }
  return entry;
}

/** A scalar argument as query-string text; anything else is refused rather than guessed at. */
function text(value: unknown, name: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw badRequest(`'${name}' must be a string, a number or a boolean.`);
}

/** `fields`: the names asked, or every field but personal data; reports the personal fields left out. */
function fieldsParam(value: unknown, resource: ResourceEntry, query: URLSearchParams): string[] {
  if (value !== undefined) {
    if (!Array.isArray(value)) throw badRequest("'fields' must be an array of field names.");
    query.set('fields', value.map((v) => text(v, 'fields')).join(','));
    return [];
  }
  if (resource.personal_fields.length === 0) return [];
  query.set(
    'fields',
    resource.fields
      .filter((f) => !f.personal)
      .map((f) => f.name)
      .join(','),
  );
  return [...resource.personal_fields];
}

/**
 * `expand`, as the API takes it; a relation named without its fields gets every field of the related
 * resource but personal data, as `fields` does (reported as `<relation>.<field>`).
 */
function expandParam(value: unknown, resource: ResourceEntry, query: URLSearchParams): string[] {
  if (value === undefined) return [];
  const omitted: string[] = [];
  const items = splitExpand(text(value, 'expand')).map((item) => {
    const name = item.trim();
    const target = RESOURCES.get(resource.relations.find((r) => r.name === name)?.resource ?? '');
    if (!target || target.personal_fields.length === 0) return item;
    omitted.push(...target.personal_fields.map((field) => `${name}.${field}`));
    return `${name}(${target.fields
      .filter((f) => !f.personal)
      .map((f) => f.name)
      .join(',')})`;
  });
  query.set('expand', items.join(','));
  return omitted;
}

async function viaApi(get: ApiGet, path: string, shape: (body: Record<string, unknown>) => Record<string, unknown>): Promise<CallToolResult> {
  const reply = await get(path);
  const body = (reply.body ?? {}) as Record<string, unknown>;
  if (reply.status === 200) return answer(shape(body));
  const error = body['error'] as { code?: unknown; message?: unknown } | undefined;
  const code = typeof error?.code === 'string' ? error.code : 'internal_error';
  const message = typeof error?.message === 'string' ? error.message : `The API answered ${reply.status}.`;
  return toolError(code, message, { status: reply.status, ...(reply.retryAfter ? { retry_after: Number(reply.retryAfter) } : {}) });
}

function queryResource(domain: string, args: Record<string, unknown>, get: ApiGet): Promise<CallToolResult> {
  onlyKnown(args, QUERY_ARGUMENTS, `query_${domain}`);
  const resource = resourceOf(args['resource'], domain);
  const query = new URLSearchParams();
  const filters = objectArgument(args['filters'], 'filters');
  const names = new Set(resource.filters.map((f) => f.name));
  for (const [name, value] of Object.entries(filters)) {
    if (!names.has(name)) throw badRequest(`Unknown filter '${name}' for ${resource.resource}; its filters: ${[...names].join(', ') || 'none'}.`);
    if (Array.isArray(value)) for (const item of value) query.append(name, text(item, name));
    else query.set(name, text(value, name));
  }
  for (const name of ['order', 'limit', 'since_id', 'total'] as const) if (args[name] !== undefined) query.set(name, text(args[name], name));
  const omitted = [...fieldsParam(args['fields'], resource, query), ...expandParam(args['expand'], resource, query)];
  return viaApi(get, `/api/v1/${resource.resource}?${query}`, (body) => ({
    resource: resource.resource,
    data: body['data'],
    meta: { ...(body['meta'] as object), ...(omitted.length ? { personal_fields_omitted: omitted } : {}) },
  }));
}

function getRecord(args: Record<string, unknown>, get: ApiGet): Promise<CallToolResult> {
  onlyKnown(args, RECORD_ARGUMENTS, 'get_record');
  const resource = resourceOf(args['resource']);
  const id = args['id'];
  if (!Number.isInteger(id) || (id as number) < 1) throw badRequest("'id' must be a positive integer.");
  const query = new URLSearchParams();
  const omitted = [...fieldsParam(args['fields'], resource, query), ...expandParam(args['expand'], resource, query)];
  const qs = query.size ? `?${query}` : '';
  return viaApi(get, `/api/v1/${resource.resource}/${id as number}${qs}`, (body) => {
    const meta = { ...(body['meta'] as object | undefined), ...(omitted.length ? { personal_fields_omitted: omitted } : {}) };
    return { resource: resource.resource, data: body['data'], ...(Object.keys(meta).length ? { meta } : {}) };
  });
}

const AGGREGATE_ARGUMENTS = new Set(['resource', 'group_by', 'measures', 'filters', 'order', 'limit', 'offset']);

/** A list argument as comma-separated text. */
function listText(value: unknown, name: string): string {
  if (!Array.isArray(value)) throw badRequest(`'${name}' must be an array.`);
  return value.map((item) => text(item, name)).join(',');
}

/** The aggregate route: its arguments as its query string; the route's parser judges the names. */
function aggregateResource(args: Record<string, unknown>, get: ApiGet): Promise<CallToolResult> {
  onlyKnown(args, AGGREGATE_ARGUMENTS, 'aggregate');
  const resource = resourceOf(args['resource']);
  const query = new URLSearchParams();
  if (args['group_by'] !== undefined) query.set('group_by', listText(args['group_by'], 'group_by'));
  if (args['measures'] !== undefined) query.set('measures', listText(args['measures'], 'measures'));
  const names = new Set(resource.filters.map((f) => f.name));
  for (const [name, value] of Object.entries(objectArgument(args['filters'], 'filters'))) {
    if (!names.has(name)) throw badRequest(`Unknown filter '${name}' for ${resource.resource}; its filters: ${[...names].join(', ') || 'none'}.`);
    if (Array.isArray(value)) for (const item of value) query.append(name, text(item, name));
    else query.set(name, text(value, name));
  }
  for (const name of ['order', 'limit', 'offset'] as const) if (args[name] !== undefined) query.set(name, text(args[name], name));
  return viaApi(get, `/api/v1/${resource.resource}/aggregate?${query}`, (body) => ({ resource: resource.resource, data: body['data'], meta: body['meta'] }));
}

/** An answer built here, charged to the request's memory like an answer read from a route. */
function held(result: CallToolResult, host: ToolHost): CallToolResult {
  const [content] = result.content;
  host.hold(content?.type === 'text' ? content.text.length : 0);
  return result;
}

function listResources(): CallToolResult {
  return answer({
    resources: [...RESOURCES.values()].map((r) => ({ resource: r.resource, title: r.title, description: r.description, query_tool: r.query_tool })),
  });
}

function describeResource(args: Record<string, unknown>): CallToolResult {
  onlyKnown(args, new Set(['resource']), 'describe_resource');
  const { personal_fields: _personal, ...entry } = resourceOf(args['resource']);
  return answer(entry as unknown as Record<string, unknown>);
}

/** The tools that call a data route, by its kind (route-kinds.ts; their definitions: codegen/kinds/<kind>/). */
interface RouteTool {
  /** Whether `name` is one of the kind's tools, and what it says: the domain of a per-domain tool. */
  match(name: string): { readonly domain?: string } | undefined;
  call(args: Record<string, unknown>, get: ApiGet, matched: { readonly domain?: string }): Promise<CallToolResult>;
}

/** The tools of each kind; `null` for a kind that has none (an export is a file for a person or a loader, not an answer for a model). */
const ROUTE_TOOLS: { readonly [K in RouteKind]: RouteTool | null } = {
  list: {
    match: (name) => {
      const domain = DOMAIN_OF_TOOL.get(name);
      return domain === undefined ? undefined : { domain };
    },
    call: (args, get, { domain }) => queryResource(domain as string, args, get),
  },
  export: null,
  aggregate: {
    match: (name) => (name === 'aggregate' ? {} : undefined),
    call: (args, get) => aggregateResource(args, get),
  },
  detail: {
    match: (name) => (name === 'get_record' ? {} : undefined),
    call: (args, get) => getRecord(args, get),
  },
};

/** Runs one tool; every refusal is a tool error in the API's terms, never a protocol error. */
export async function callTool(name: string, rawArgs: unknown, host: ToolHost): Promise<CallToolResult> {
  try {
    const args = objectArgument(rawArgs, 'arguments');
    assertWithinSchema(name, args);
    if (name === 'list_resources') {
      onlyKnown(args, new Set(), name);
      return held(listResources(), host);
    }
    if (name === 'describe_resource') return held(describeResource(args), host);
    for (const tool of Object.values(ROUTE_TOOLS)) {
      const matched = tool?.match(name);
      if (tool && matched) return await tool.call(args, host.get, matched);
    }
    return toolError('not_found', `No tool '${name}'; the tools are ${TOOLS.map((t) => t.name).join(', ')}.`, { status: 404 });
  } catch (error) {
    if (error instanceof ToolRefusal) return toolError(error.code, error.message, { status: REFUSAL_STATUS[error.code] ?? 400 });
    if (error instanceof GatewayError) return gatewayToolError(error);
    throw error;
  }
}

/** A refusal of the gateway's own (the memory budget, the request's deadline) as a tool error, as a route would answer it. */
export function gatewayToolError(error: GatewayError): CallToolResult {
  const retryAfter = error.headers['Retry-After'];
  return toolError(error.code, error.message, { status: error.status, ...(retryAfter ? { retry_after: Number(retryAfter) } : {}) });
}
