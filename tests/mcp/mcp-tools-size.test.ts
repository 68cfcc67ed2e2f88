/**
 * Lean agent tools, as the official MCP SDK client meets them over streamable HTTP: `tools/list` (the
 * bytes of its answer on the wire, measured through the client's own fetch) stays within 20 KB, since
 * every client puts it in every prompt; the detail it leaves out is `describe_resource`'s answer; and
 * every bound a tool's input schema states is kept: an argument outside it is a tool error (with the
 * API's code and status), never adjusted, and nothing is read for it. The refused arguments are
 * derived from the served schemas themselves (one past each maximum and minimum, a wrong type, an
 * empty list), so a bound added to a schema is checked here without a new case.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import mcpTools from '@ops-data-gateway/gateway/generated/mcp-tools.json';
import { startStack, type Stack } from '../support/stack';

const TOOLS_LIST_MAX_BYTES = 20000;

interface PropertySchema {
  type?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  enum?: unknown[];
}

let stack: Stack;
/** The bytes of each tools/list answer the client received. */
const toolsListBytes: number[] = [];

async function connect(): Promise<Client> {
  const client = new Client({ name: 'mcp-lean-test', version: '1.0.0' });
  const measuring: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (typeof init?.body === 'string' && (JSON.parse(init.body) as { method?: string }).method === 'tools/list')
      toolsListBytes.push(Buffer.byteLength(await response.clone().text(), 'utf8'));
    return response;
  };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${stack.keys.valid}` } }, fetch: measuring }),
  );
  return client;
}

function errorOf(result: CallToolResult): { code: string; message: string; status: number } {
  expect(result.isError).toBe(true);
  return (JSON.parse((result.content[0] as { text: string }).text) as { error: { code: string; message: string; status: number } }).error;
}

/** Arguments every tool accepts: its required ones, valid. */
function validArguments(tool: Tool): Record<string, unknown> {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, PropertySchema>;
  const args: Record<string, unknown> = {};
  for (const name of tool.inputSchema.required ?? []) {
    const property = properties[name] as PropertySchema;
    args[name] = property.enum ? (property.enum.find((value) => String(value).endsWith('vehicles')) ?? property.enum[0]) : property.type === 'integer' ? 1 : 'x';
  }
  return args;
}

/** Values outside a property's schema, derived from it: past each bound, the wrong type, an empty list. */
function outsideValues(property: PropertySchema): unknown[] {
  const values: unknown[] = [];
  if (property.maximum !== undefined) values.push(property.maximum + 1);
  if (property.minimum !== undefined) values.push(property.minimum - 1);
  if (property.type === 'integer') values.push(1.5, '7');
  if (property.type === 'boolean') values.push('true', 1);
  if (property.type === 'string') values.push(5);
  if (property.type === 'object') values.push('fuel_type=diesel');
  if (property.type === 'array') values.push('id', ...(property.minItems ? [[]] : []));
  return values;
}

beforeAll(async () => {
  stack = await startStack({ transport: 'json2' });
}, 60000);
afterAll(() => stack?.close());

describe('lean MCP tools, checked with the official SDK client', () => {
  let client: Client;
  let tools: Tool[];
  beforeAll(async () => {
    client = await connect();
    ({ tools } = await client.listTools());
  });
  afterAll(() => client?.close());

  it(`answers tools/list in at most ${TOOLS_LIST_MAX_BYTES} bytes, the generated tools as they are`, () => {
    expect(toolsListBytes).toHaveLength(1);
    const [bytes] = toolsListBytes as [number];
    expect(bytes).toBeGreaterThan(JSON.stringify(mcpTools.tools).length);
    expect(bytes).toBeLessThanOrEqual(TOOLS_LIST_MAX_BYTES);
    expect(tools.map((tool) => tool.name)).toEqual(mcpTools.tools.map((tool) => tool.name));
    // What tools/list leaves out is describe_resource's: no field list or filter branch in any schema.
    for (const tool of tools) expect(JSON.stringify(tool.inputSchema)).not.toMatch(/"anyOf"|fuel_type/);
  });

  it('gives in describe_resource what the schemas leave out: each filter of a resource with its value type', async () => {
    const described = (await client.callTool({ name: 'describe_resource', arguments: { resource: 'fleet/vehicles' } })) as CallToolResult;
    const filters = (described.structuredContent as { filters: { name: string; type: string; values?: string[] }[] }).filters;
    expect(filters).toContainEqual(expect.objectContaining({ name: 'fuel_type', type: 'enum', values: expect.arrayContaining(['diesel', 'electric']) }));
  });

  it('refuses every argument outside its tool schema as a tool error, before anything is read', async () => {
    const before = stack.logLines.filter((line) => line.includes('"route":"/api/v1/')).length;
    let refused = 0;
    for (const tool of tools) {
      const base = validArguments(tool);
      for (const [name, property] of Object.entries((tool.inputSchema.properties ?? {}) as Record<string, PropertySchema>)) {
        for (const value of outsideValues(property)) {
          const error = errorOf((await client.callTool({ name: tool.name, arguments: { ...base, [name]: value } })) as CallToolResult);
          expect([tool.name, name, value, error.code, error.status]).toEqual([tool.name, name, value, expect.stringMatching(/^(invalid_value|bad_request)$/), expect.any(Number)]);
          expect([400, 422]).toContain(error.status);
          refused++;
        }
      }
      const unknown = errorOf((await client.callTool({ name: tool.name, arguments: { ...base, colour: 'red' } })) as CallToolResult);
      expect([tool.name, unknown.code, unknown.status]).toEqual([tool.name, 'bad_request', 400]);
    }
    expect(refused).toBeGreaterThan(tools.length * 2);
    // None of them reached a data route.
    expect(stack.logLines.filter((line) => line.includes('"route":"/api/v1/')).length).toBe(before);
  }, 120000);

  it('refuses limit: 1000 where the schema says at most 200, and takes 200', async () => {
    const refused = errorOf((await client.callTool({ name: 'query_fleet', arguments: { resource: 'vehicles', limit: 1000 } })) as CallToolResult);
    expect(refused).toEqual({ code: 'invalid_value', status: 422, message: "Argument 'limit' must be <= 200 (the input schema of query_fleet); nothing was read." });
    const taken = (await client.callTool({ name: 'query_fleet', arguments: { resource: 'vehicles', limit: 200, total: false, fields: ['id'] } })) as CallToolResult;
    expect(taken.isError).toBeFalsy();
    const page = (await stack.get('/api/v1/fleet/vehicles?limit=200&total=false&fields=id')).body as { data: { id: number }[] };
    expect((taken.structuredContent as { data: { id: number }[] }).data).toEqual(page.data);
  });
});
