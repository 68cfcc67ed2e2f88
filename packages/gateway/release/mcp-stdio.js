// release/mcp-stdio.js: built by `make release` (scripts/bundle-release.mjs) from runtime/mcp/stdio.ts. Do not edit.
"use strict";

// runtime/mcp/stdio.ts
var import_client = require("@modelcontextprotocol/sdk/client/index.js");
var import_streamableHttp = require("@modelcontextprotocol/sdk/client/streamableHttp.js");
var import_stdio = require("@modelcontextprotocol/sdk/server/stdio.js");
var import_types2 = require("@modelcontextprotocol/sdk/types.js");

// runtime/route-kinds.ts
var ROUTE_KINDS = {
  /**
   * `GET /api/v1/<domain>/<resource>`: a page of records (JSON), an export of every matching record
   * (CSV or NDJSON) or a page of the change feed (`changed_since`). A page that counts its matches
   * (`total=true`: two ERP calls) is `counted_list`, any other `list`.
   */
  list: { path: "", costs: ["list", "counted_list"] },
  /** `GET /api/v1/<domain>/<resource>/{id}`: one record. */
  detail: { path: "/:id", costs: ["detail"] }
};
var ROUTE_KIND_ORDER = Object.keys(ROUTE_KINDS);
var ANSWER_COSTS = ["not_modified", "cached"];
var REQUEST_COSTS = ROUTE_KIND_ORDER.flatMap((kind) => ROUTE_KINDS[kind].costs);
var COST_KINDS = [...REQUEST_COSTS, ...ANSWER_COSTS];

// runtime/config.ts
var ConfigError = class extends Error {
  constructor(variable, detail) {
    super(`configuration: ${variable} ${detail}`);
    this.variable = variable;
    this.name = "ConfigError";
  }
  variable;
};
function text(env, name, fallback) {
  const value = env[name]?.trim();
  if (value) return value;
  if (fallback !== void 0) return fallback;
  throw new ConfigError(name, "is required");
}
function url(env, name, fallback) {
  const value = text(env, name, fallback);
  let parsed;
  try {
    parsed = new URL(value);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("scheme");
  } catch {
    throw new ConfigError(name, `must be an http(s) URL (got '${value.replace(/\/\/[^/@]*@/, "//\u2026@")}')`);
  }
  if (parsed.username || parsed.password)
    throw new ConfigError(name, "must not carry a user or password (user:password@): the gateway authenticates with its clients' API keys; put a proxy's credentials in the proxy");
  return value.replace(/\/+$/, "");
}
function loadMcpBridgeConfig(env) {
  const apiKey = text(env, "API_KEY");
  if (/\s/.test(apiKey)) throw new ConfigError("API_KEY", 'must be one word (the key alone, without "Bearer")');
  return { gatewayUrl: url(env, "GATEWAY_URL", "http://127.0.0.1:8080"), apiKey };
}

// runtime/mcp/mcp-server.ts
var import_mcp = require("@modelcontextprotocol/sdk/server/mcp.js");
var import_types = require("@modelcontextprotocol/sdk/types.js");
var SERVER_NAME = "ops-data-gateway";
var INSTRUCTIONS = "Read-only access to the operations data of the organisation (fleet, purchase, stock, travel, space, events, IT, sprint, approvals, electricity, analytic). Start with list_resources, then describe_resource for fields and filters; query_<domain> lists records with named filters (page with since_id), get_record reads one. Personal-data fields are left out unless named in fields. Errors are tool errors carrying the API error code and message.";
function createMcpServer(backend, version) {
  const server = new import_mcp.McpServer({ name: SERVER_NAME, title: "Operations data API", version }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  server.server.setRequestHandler(import_types.ListToolsRequestSchema, async () => ({ tools: await backend.list() }));
  server.server.setRequestHandler(import_types.CallToolRequestSchema, (request) => backend.call(request.params.name, request.params.arguments ?? {}));
  return server;
}

// runtime/mcp/stdio.ts
function fail(message) {
  process.stderr.write(`ops-data-gateway mcp: ${message}
`);
  process.exit(1);
}
async function main() {
  let config;
  try {
    config = loadMcpBridgeConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  const endpoint = new URL("/mcp", `${config.gatewayUrl}/`);
  const upstream = new import_client.Client({ name: `${SERVER_NAME}-stdio`, version: "1.0.0" });
  try {
    await upstream.connect(new import_streamableHttp.StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { Authorization: `Bearer ${config.apiKey}` } } }));
  } catch (error) {
    fail(`cannot open ${endpoint.href}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const server = createMcpServer(
    {
      list: async () => (await upstream.listTools()).tools,
      call: async (name, args) => await upstream.callTool({ name, arguments: args }, import_types2.CallToolResultSchema)
    },
    upstream.getServerVersion()?.version ?? "unknown"
  );
  await server.connect(new import_stdio.StdioServerTransport());
  process.stdin.on("end", () => {
    void upstream.close().finally(() => process.exit(0));
  });
}
void main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
