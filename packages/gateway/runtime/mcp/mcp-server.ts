/**
 * @module The MCP server of the gateway, on the official SDK. The tools' JSON Schemas come from the
 * catalogue (generated/mcp-tools.json), so they are served as they are at the protocol level
 * (`tools/list`, `tools/call` handlers on `McpServer.server`): the SDK's `registerTool` takes only zod
 * schemas (SDK 1.x: "inputSchema must be a Zod schema or raw shape"), which would mean converting
 * generated JSON Schema to zod and back. Arguments are judged by the API's own query parser instead.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';

export const SERVER_NAME = 'ops-data-gateway';

const INSTRUCTIONS =
  'Read-only access to the operations data of the organisation (fleet, purchase, stock, travel, space, events, IT, sprint, approvals, electricity, analytic). ' +
  'Start with list_resources, then describe_resource for fields and filters; query_<domain> lists records with named filters (page with since_id), get_record reads one. ' +
  'Personal-data fields are left out unless named in fields. Errors are tool errors carrying the API error code and message. ' +
  'A call that reads data costs what its API route costs against the key rate limit; rate_limited (429) and unavailable (503: the gateway holds as many answers as its memory allows) carry retry_after, the seconds to wait before calling again.';

export interface ToolBackend {
  list(): Promise<Tool[]> | Tool[];
  call(name: string, args: unknown): Promise<CallToolResult>;
}

/** `version`: the interface version (catalogue/api.yaml), which the server announces as its own. */
export function createMcpServer(backend: ToolBackend, version: string): McpServer {
  const server = new McpServer({ name: SERVER_NAME, title: 'Operations data API', version }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  server.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await backend.list() }));
  server.server.setRequestHandler(CallToolRequestSchema, (request) => backend.call(request.params.name, request.params.arguments ?? {}));
  return server;
}
