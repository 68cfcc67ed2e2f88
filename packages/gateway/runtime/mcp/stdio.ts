/**
 * @module `npm run mcp`: the MCP server over stdio for local agents (Claude Desktop, an IDE), as a
 * bridge to a running gateway's `/mcp` endpoint, not a second gateway in process. The key checks,
 * rights, limits, logs and metrics then stay in the one place that applies them to every client,
 * and the agent's machine needs only the gateway's URL and its own key (`GATEWAY_URL`, `API_KEY`),
 * never the ERP's address. Tools are listed and called upstream as they are.
 *
 * stdout is the protocol channel: every message of this process goes to stderr.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ConfigError, loadMcpBridgeConfig, type McpBridgeConfig } from '../config';
import { createMcpServer, SERVER_NAME } from './mcp-server';

function fail(message: string): never {
  process.stderr.write(`ops-data-gateway mcp: ${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  let config: McpBridgeConfig;
  try {
    config = loadMcpBridgeConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  const endpoint = new URL('/mcp', `${config.gatewayUrl}/`);
  const upstream = new Client({ name: `${SERVER_NAME}-stdio`, version: '1.0.0' });
  try {
    await upstream.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { Authorization: `Bearer ${config.apiKey}` } } }));
  } catch (error) {
    // The gateway's 401/403/429 arrive here; its message says which (never the key).
    fail(`cannot open ${endpoint.href}: ${error instanceof Error ? error.message : String(error)}`);
  }
  // The tools and the version are the gateway's, asked upstream: this process carries no catalogue.
  const server = createMcpServer(
    {
      list: async () => (await upstream.listTools()).tools,
      call: async (name, args) => (await upstream.callTool({ name, arguments: args as Record<string, unknown> }, CallToolResultSchema)) as CallToolResult,
    },
    upstream.getServerVersion()?.version ?? 'unknown',
  );
  await server.connect(new StdioServerTransport());
  process.stdin.on('end', () => {
    void upstream.close().finally(() => process.exit(0));
  });
}

void main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
