/**
 * @module The MCP server of the gateway, on the official SDK. The tools' JSON Schemas come from the
 * catalogue (generated/mcp-tools.json), so they are served as they are at the protocol level
 * (`tools/list`, `tools/call` handlers on `McpServer.server`): the SDK's `registerTool` takes only zod
 * schemas (SDK 1.x: "inputSchema must be a Zod schema or raw shape"), which would mean converting
 * generated JSON Schema to zod and back. Arguments are judged by the API's own query parser instead.
 *
 * A tool receives its arguments as they came on the wire, not the copy the SDK's request schema
 * makes: zod drops a key named `__proto__` from that copy, so an argument of that name would be
 * ignored in silence where any other unknown argument is refused.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  ListToolsRequestSchema,
  type CallToolResult,
  type JSONRPCMessage,
  type RequestId,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

export const SERVER_NAME = 'ops-data-gateway';

const INSTRUCTIONS =
  'Read-only access to the operations data of the organisation (fleet, purchase, stock, travel, space, events, IT, sprint, approvals, electricity, analytic). ' +
  "Start with list_resources, then describe_resource for a resource's fields, filters (with their value types) and sort keys: the tools' schemas do not repeat them. " +
  'query_<domain> lists records with named filters, ANDed: page with since_id 0, then meta.next_since_id until it is null; get_record reads one. ' +
  "Personal-data fields are left out unless named in fields. Errors are tool errors carrying the API error code and message; arguments outside a tool's input schema (limit above 200, say) are refused, never adjusted. " +
  'A call that reads data costs what its API route costs against the key rate limit; rate_limited (429) and unavailable (503: the gateway holds as many answers as its memory allows) carry retry_after, the seconds to wait before calling again.';

export interface ToolBackend {
  list(): Promise<Tool[]> | Tool[];
  call(name: string, args: unknown): Promise<CallToolResult>;
}

interface GatewayMcpServer {
  /** Connects the server to `transport`, keeping each tools/call's arguments as they arrive. */
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/** `version`: the interface version (catalogue/api.yaml), which the server announces as its own. */
export function createMcpServer(backend: ToolBackend, version: string): GatewayMcpServer {
  const server = new McpServer({ name: SERVER_NAME, title: 'Operations data API', version }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  /** The arguments of the tools/call requests received and not yet handled, by request id. */
  const onTheWire = new Map<RequestId, unknown>();
  server.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await backend.list() }));
  server.server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const raw = onTheWire.get(extra.requestId);
    onTheWire.delete(extra.requestId);
    return backend.call(request.params.name, raw ?? request.params.arguments ?? {});
  });
  return {
    async connect(transport) {
      await server.connect(transport);
      const deliver = transport.onmessage;
      transport.onmessage = (message: JSONRPCMessage, extra) => {
        if (isJSONRPCRequest(message) && message.method === 'tools/call') {
          // Two requests of one id in flight (a client's mistake): neither gets wire arguments, both the SDK's copy.
          const args = onTheWire.has(message.id) ? undefined : (message.params as { arguments?: unknown } | undefined)?.arguments;
          onTheWire.set(message.id, args);
        }
        deliver?.(message, extra);
      };
      // A request refused before its handler ran (arguments that are not an object) is forgotten with its answer.
      const send = transport.send.bind(transport);
      transport.send = (message, options) => {
        if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) onTheWire.delete(message.id as RequestId);
        return send(message, options);
      };
    },
    close: () => server.close(),
  };
}
