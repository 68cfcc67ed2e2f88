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
   * (CSV, NDJSON or Parquet) or a page of the change feed (`changed_since`). A page that counts its matches
   * (`total=true`: two ERP calls) is `counted_list`, any other `list`; a page that expands relations
   * (`expand`: one more ERP call per relation) is `expanded`; an export (`format=csv`…, for old
   * clients) is `export`, as on the export route.
   */
  list: { path: "", costs: ["list", "counted_list", "expanded", "export"] },
  /**
   * `GET /api/v1/<domain>/<resource>/export`: every matching record as a file in one of
   * EXPORT_FORMATS, streamed: `export`, a kind of its own (every matching record, page after page
   * from the ERP), as an export on the list route is. Declared before the detail route, whose `/:id`
   * would take its path.
   */
  export: { path: "/export", costs: ["export"] },
  /**
   * `GET /api/v1/<domain>/<resource>/aggregate`: the records grouped by the resource's dimensions,
   * counted and measured by the ERP in one grouped read (JSON, CSV or NDJSON).
   */
  aggregate: { path: "/aggregate", costs: ["aggregate"] },
  /** `GET /api/v1/<domain>/<resource>/{id}`: one record (`expanded` with `expand`). */
  detail: { path: "/:id", costs: ["detail", "expanded"] }
};
var ROUTE_KIND_ORDER = Object.keys(ROUTE_KINDS);
var ANSWER_COSTS = ["not_modified", "cached"];
var REQUEST_COSTS = [...new Set(ROUTE_KIND_ORDER.flatMap((kind) => ROUTE_KINDS[kind].costs))];
var COST_KINDS = [...REQUEST_COSTS, ...ANSWER_COSTS];
var EXPORT_FORMATS = {
  csv: { mediaType: "text/csv", extension: "csv", compressible: true },
  ndjson: { mediaType: "application/x-ndjson", extension: "ndjson", compressible: true },
  /** Typed columns (export/parquet-encoder.ts); already compressed inside (snappy): never gzip or brotli on top. */
  parquet: { mediaType: "application/vnd.apache.parquet", extension: "parquet", compressible: false }
};
var EXPORT_FORMAT_ORDER = Object.keys(EXPORT_FORMATS);

// runtime/settings.ts
var MiB = 1024 * 1024;
var MAX_CACHE_SECONDS = 86400;
var SETTINGS = {
  HOST: { default: "127.0.0.1", description: "Listen address." },
  PORT: { default: 8080, min: 0, max: 65535, description: "Listen port." },
  PUBLIC_BASE_URL: { shown: "`http://HOST:PORT`", accepts: "an http(s) URL", description: "Base URL clients use (OpenAPI `servers`, docs and llms.txt examples)." },
  ERP_URL: { required: true, accepts: "an http(s) URL", description: "Where the gateway reaches the ERP, e.g. `https://erp.example.org`. A user or password in it (`user:secret@`) is refused at start-up: JSON-2 needs the Authorization header for the client's key, and credentials must never reach the `url` fields." },
  ERP_DATABASE: { required: true, description: "ERP database name (sent as `X-Odoo-Database` or the RPC `db`)." },
  ERP_TRANSPORT: {
    default: "auto",
    values: ["auto", "json2", "jsonrpc", "xmlrpc"],
    description: "`auto`: JSON-2 when the ERP offers it (Odoo 19+), else JSON-RPC; or the one named. A setting the ERP cannot serve (`json2` before Odoo 19; `auto` without `ERP_LOGIN` before 19) stops the gateway with exit 1 and one line naming the setting and the ERP's version, as soon as the ERP answers: at start-up, or, when the ERP is unreachable then (the gateway starts and answers 502 meanwhile), at the first request that reaches it (answered 503 before the gateway stops)."
  },
  ERP_LOGIN: { default: "", shown: "(empty)", description: "Login of the technical account; required by the two RPC transports, which check a key together with a login." },
  ERP_API_GROUP: { default: "ops_api.group_api_user", description: "External id of the group whose members may use the API." },
  ERP_PUBLIC_URL: { shown: "`ERP_URL`", accepts: "an http(s) URL", description: "ERP host as users see it, for the `url` fields." },
  ERP_URL_TEMPLATE: { default: "{erp_public_url}/web#id={id}&model={model}&view_type=form", accepts: "text holding `{id}`", description: "Template of the `url` fields (decision D9; works on Odoo 16 to 19)." },
  ERP_TIMEOUT_MS: { default: 1e4, min: 100, max: 6e5, description: "Deadline of every ERP call, and of `/readyz`'s probe; past it the request answers 504 `gateway_timeout`." },
  REQUEST_TIMEOUT_MS: { shown: "`ERP_TIMEOUT_MS`", min: 100, max: 6e5, description: "Deadline of a whole data request: the wait for an ERP slot plus every round of ERP calls; past it the request answers 504 `gateway_timeout` (not a multiple of `ERP_TIMEOUT_MS`)." },
  ERP_MAX_CONCURRENCY: { default: 32, min: 1, max: 1e4, description: "ERP calls in flight at most." },
  ERP_MAX_QUEUE: { default: 256, min: 0, max: 1e5, description: "Calls waiting for a slot at most; past it the request answers 503 `unavailable` with `Retry-After`." },
  ERP_MAX_ANSWER_BYTES: { default: 16 * MiB, shown: "`16777216` (16 MiB)", min: 65536, max: 256 * MiB, description: "Largest ERP answer accepted, decompressed; past it the request answers 502. A 200-record page of ordinary data is about 70 KB; 16 MiB leaves room for 200 records with 80 KB of text each." },
  MEMORY_BUDGET_BYTES: { default: 96 * MiB, shown: "`100663296` (96 MiB)", min: MiB, max: 64 * 1024 * MiB, description: "Memory all ERP answers in flight may hold together (each byte counted three times: text, parsed records, the answer written), with the MCP tool answers held until their `POST /mcp` answers (ten times) and the in-memory response cache; past it the request answers 503 `unavailable` with `Retry-After` (an MCP tool call: the tool error `unavailable`). Sized for the production heap of 256 MB." },
  CACHE_DEFAULT_TTL_S: { default: 0, shown: "`0` (off)", min: 0, max: MAX_CACHE_SECONDS, description: 'Seconds an answer is served from the response cache, for resources whose catalogue entry has no `cache.ttl` (see "Caching and conditional requests"). `0`: not cached, exactly as without a cache.' },
  CACHE_DEFAULT_STALE_S: { default: 0, min: 0, max: MAX_CACHE_SECONDS, description: "Seconds after the TTL during which a stale answer is still served while one background read refreshes it, for resources whose catalogue entry has no `cache.stale_while_revalidate`." },
  CACHE_MAX_TTL_S: { default: 300, min: 0, max: MAX_CACHE_SECONDS, description: "Ceiling of every TTL and stale window, the catalogue's included; `0` turns the cache off everywhere." },
  CACHE_MAX_BYTES: { shown: "a quarter of `MEMORY_BUDGET_BYTES` (24 MiB with its default), at most 32 MiB", min: 0, accepts: "0 to half of `MEMORY_BUDGET_BYTES`", description: "Bytes the in-memory response cache may hold, charged to `MEMORY_BUDGET_BYTES` while held; `0` turns the cache off. An answer larger than a quarter of it is not kept." },
  CACHE_WATCH: { default: "on", values: ["on", "off"], description: 'Change detection for cached answers: while a model has cached answers that are being read, the gateway checks now and then whether anything in it changed (writes, creations, archivings, deletions) and drops the answers that depend on it, those of resources that show its records\' names included. `off`: answers are bound by their TTL alone. A resource opts out with `cache.watch: false` in the catalogue. See "Change detection".' },
  CACHE_WATCH_SHARE_PCT: { default: 2, min: 1, max: 50, description: "The most of one ERP worker's time all change checks together take, in percent: each check's cost is measured, and the next check of that model waits its cost \xD7 the models watched \xF7 this share (at least `CACHE_WATCH_MIN_INTERVAL_MS`); a budget counts every check, the first ones included, and delays the next until it is paid for, so the sum never exceeds the share." },
  CACHE_WATCH_MIN_INTERVAL_MS: { default: 1e3, min: 100, max: 36e5, description: "The shortest time between two change checks of one model (where checks are cheap: an indexed `write_date`, a small table)." },
  CACHE_WATCH_SETTLE_MS: { default: 1e4, min: 0, max: 36e5, description: "How long after its `write_date` a write may still commit (Odoo stamps a record with the time its transaction began): a record seen written within this window counts as a change once more when the window has passed, so a long transaction or a second write within the same second is seen within this window plus one check interval." },
  CLIENT_WRITE_TIMEOUT_MS: { default: 1e4, min: 1e3, max: 6e5, description: "A connection whose answer has not moved for this long (no byte of it taken on its way to the client: its client stopped reading) is dropped, with what it held; a client still reading, however slowly, is kept." },
  AUTH_CACHE_TTL_MS: { default: 6e4, min: 0, max: 36e5, description: "How long a successful key check is reused (keyed by a SHA-256 of the key, never the key)." },
  AUTH_CACHE_MAX_ENTRIES: { default: 1e4, min: 1, max: 1e6, description: "Bound of that cache." },
  AUTH_NEGATIVE_TTL_MS: { default: 5e3, min: 0, max: 6e5, description: "How long a refused key is answered 401 without asking the ERP again." },
  AUTH_FAILURE_LIMIT: { default: 20, min: 1, max: 1e6, description: "Failed authentications per client address and window before 429 `rate_limited`." },
  AUTH_FAILURE_WINDOW_MS: { default: 6e4, min: 1e3, max: 36e5, description: "That window (counted in whole seconds, rounded up)." },
  AUTH_CHECK_LIMIT: { default: 300, min: 1, max: 1e7, description: "Key checks sent to the ERP per window, all client addresses together; past it a key not already known gets 429 `rate_limited` (keys already validated keep working). With `AUTH_CACHE_TTL_MS=0` every request is a key check: raise this cap to the request rate." },
  RATE_LIMIT_POINTS: { shown: "(empty: off)", min: 1, max: 1e8, description: 'Per-key rate limit (decision D26): points each API key may spend per window; each request costs its kind\'s points (`RATE_LIMIT_COSTS`); past them **429** `rate_limited` with `Retry-After`, the ERP not asked. See "Rate limits".' },
  RATE_LIMIT_WINDOW_SECONDS: { default: 60, min: 1, max: 86400, description: "That window, in whole seconds. Only with `RATE_LIMIT_POINTS`." },
  RATE_LIMIT_COSTS: { default: COST_KINDS.map((kind) => `${kind}=1`).join(","), accepts: "`kind=points`, comma-separated", description: "Points per kind of request: `list` (a page with `total=false`), `counted_list` (a page with its count: two ERP calls), `expanded` (a page or a record with `expand`: one more ERP call per relation), `export` (every matching record as CSV, NDJSON or Parquet: page after page from the ERP), `aggregate` (a summary by group: one grouped read), `detail`, `not_modified` (charged instead when the answer is 304) and `cached` (charged instead when the response cache answered a 200, the ERP not asked). Kinds left out keep their default; `list`, `counted_list`, `expanded`, `export`, `aggregate` and `detail` cost 1 to `RATE_LIMIT_POINTS`, `not_modified` and `cached` 0 to it. Only with `RATE_LIMIT_POINTS`." },
  REDIS_URL: { shown: "(empty: each process's memory)", accepts: "a `redis://` or `rediss://` URL", description: 'A Redis that several gateway processes share (user, password and database number allowed; never logged): the failed-authentication limits, the cap of key checks and the per-key limits are then counted there, for all processes together. See "Several processes and machines".' },
  REDIS_TIMEOUT_MS: { default: 200, min: 5, max: 1e4, description: "Longest one Redis call may take; past it, or with Redis down, each process counts in its own memory (limits), going on from the counts Redis last gave it, until Redis answers again. Only with `REDIS_URL`." },
  REDIS_KEY_PREFIX: { default: "odg:", accepts: "1 to 64 letters, digits or `:_.-`", description: "Prefix of every key the gateway writes in Redis, so that several gateways can share one Redis. Only with `REDIS_URL`." },
  WORKERS: { default: 1, min: 1, max: 256, accepts: "1 to 256, or `auto` (one per CPU)", description: 'Gateway processes on this machine sharing the port. See "Several processes and machines".' },
  EXPORT_MAX_ROWS: { default: 1e6, min: 1, max: 1e8, description: 'Most records one export (CSV, NDJSON or Parquet) may hold; a larger one is refused with 422 `invalid_value` before anything is sent (counted first). See "Exports and incremental sync".' },
  EXPORT_PAGE_SIZE: { default: 1e3, min: 10, max: 1e4, description: "Records an export reads from the ERP per call: what it holds in memory at once." },
  CHANGES_SETTLE_MS: { default: 1e4, min: 0, max: 36e5, description: "The change feed (`changed_since`) serves only records whose `write_date` is at least this old: Odoo stamps a record with the time its transaction *began*, so a second is only complete once every transaction begun in it has committed." },
  CHANGES_WRITE_DATE_INDEX: { default: "auto", values: ["auto", "yes", "no"], description: 'Whether the ERP\'s tables have an index on `write_date`: `auto` measures what a `write_date` check costs on each model the feed reads (two keyed reads and two checks, the first time the feed reads that model, again every 15 minutes); `yes` or `no` says it, without those calls. Without an index, the rest of a window larger than a page (a first sync) is copied by id. See "The change feed at scale".' },
  CHANGES_RECONCILE_IDS: { default: 1e4, min: 100, max: 1e6, description: `Ids the change feed's deletion check reads per call (one ids-only ERP read): a deletion is reported within \u2308highest id / this\u2309 caught-up calls. See "Exports and incremental sync".` },
  CORS_ORIGINS: { shown: "(empty: off)", accepts: "origins, comma-separated", description: "Origins allowed to call the API (the data routes and `/mcp`) from a browser, e.g. `https://dash.example.org`." },
  TRUST_PROXY: { default: "false", accepts: "a number, or addresses and subnets", description: "Behind reverse proxies: their number (`1`) or their addresses or subnets (`10.0.0.0/8,loopback`), as Express's `trust proxy`; the client address is then the right-most `X-Forwarded-For` entry not trusted. `true` is refused: it would take the left-most entry, which the client writes itself." },
  ERP_CHECK_KEY: { shown: "(empty: drift learned from the ERP's errors)", description: 'An API key of the technical account used only by the catalogue drift check (`make check-erp`, and at start-up); never logged. Without it the start-up check is skipped (one log line), drift is learned from the ERP\'s errors instead, and `make check-erp` exits 2. See "Catalogue drift check".' },
  DRIFT_CHECK: { default: "warn", values: ["warn", "fail", "off"], description: "What start-up does with drift: serve around it and report it, refuse to start, or no check." },
  LOG_LEVEL: { default: "info", values: ["fatal", "error", "warn", "info", "debug", "trace", "silent"], description: "The access log is at `info`." },
  METRICS_PORT: { shown: "(empty: off)", min: 0, max: 65535, description: 'Port of the Prometheus listener (`GET /metrics`), never the public port (refused at start-up if it is). See "Operating it".' },
  METRICS_HOST: { default: "127.0.0.1", description: "Address of that listener: loopback unless the scraper is elsewhere." },
  OTEL_EXPORTER_OTLP_ENDPOINT: { shown: "(empty: off)", accepts: "an http(s) URL", description: "OTLP/HTTP collector base URL (e.g. `http://otel-collector:4318`): traces are sent as JSON to `<endpoint>/v1/traces`." },
  OTEL_SERVICE_NAME: { default: "ops-data-gateway", description: "The traces' `service.name`." },
  COMPRESSION: { default: "on", values: ["on", "off"], description: "`on`: answers of at least `COMPRESSION_MIN_BYTES` are sent gzip or brotli as `Accept-Encoding` asks; `off` behind a reverse proxy that compresses." },
  COMPRESSION_MIN_BYTES: { default: 1024, min: 0, max: 64 * MiB, description: "Smaller answers go out as they are." }
};
var MCP_BRIDGE_SETTINGS = {
  GATEWAY_URL: { default: "http://127.0.0.1:8080", accepts: "an http(s) URL", description: "The gateway whose `/mcp` endpoint it forwards to." },
  API_KEY: { required: true, accepts: "one word", description: "The agent's API key (the key alone, without `Bearer`)." }
};
function settingSpec(name) {
  return name in SETTINGS ? SETTINGS[name] : MCP_BRIDGE_SETTINGS[name];
}

// runtime/config.ts
var ConfigError = class extends Error {
  constructor(variable, detail) {
    super(`configuration: ${variable} ${detail}`);
    this.variable = variable;
    this.name = "ConfigError";
  }
  variable;
};
function given(env, name) {
  return env[name]?.trim() || void 0;
}
function text(env, name, derived) {
  const value = given(env, name);
  if (value) return value;
  const fallback = derived ?? settingSpec(name).default;
  if (fallback !== void 0) return String(fallback);
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
  return { gatewayUrl: url(env, "GATEWAY_URL"), apiKey };
}

// runtime/mcp/mcp-server.ts
var import_mcp = require("@modelcontextprotocol/sdk/server/mcp.js");
var import_types = require("@modelcontextprotocol/sdk/types.js");
var SERVER_NAME = "ops-data-gateway";
var INSTRUCTIONS = "Read-only access to the operations data of the organisation (fleet, purchase, stock, travel, space, events, IT, sprint, approvals, electricity, analytic). Start with list_resources, then describe_resource for a resource's fields, filters (with their value types) and sort keys: the tools' schemas do not repeat them. query_<domain> lists records with named filters, ANDed: page with since_id 0, then meta.next_since_id until it is null; get_record reads one. Personal-data fields are left out unless named in fields. Errors are tool errors carrying the API error code and message; arguments outside a tool's input schema (limit above 200, say) are refused, never adjusted. A call that reads data costs what its API route costs against the key rate limit; rate_limited (429) and unavailable (503: the gateway holds as many answers as its memory allows) carry retry_after, the seconds to wait before calling again.";
function createMcpServer(backend, version) {
  const server = new import_mcp.McpServer({ name: SERVER_NAME, title: "Operations data API", version }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  const onTheWire = /* @__PURE__ */ new Map();
  server.server.setRequestHandler(import_types.ListToolsRequestSchema, async () => ({ tools: await backend.list() }));
  server.server.setRequestHandler(import_types.CallToolRequestSchema, (request, extra) => {
    const raw = onTheWire.get(extra.requestId);
    onTheWire.delete(extra.requestId);
    return backend.call(request.params.name, raw ?? request.params.arguments ?? {});
  });
  return {
    async connect(transport) {
      await server.connect(transport);
      const deliver = transport.onmessage;
      transport.onmessage = (message, extra) => {
        if ((0, import_types.isJSONRPCRequest)(message) && message.method === "tools/call") {
          const args = onTheWire.has(message.id) ? void 0 : message.params?.arguments;
          onTheWire.set(message.id, args);
        }
        deliver?.(message, extra);
      };
      const send = transport.send.bind(transport);
      transport.send = (message, options) => {
        if ((0, import_types.isJSONRPCResultResponse)(message) || (0, import_types.isJSONRPCErrorResponse)(message)) onTheWire.delete(message.id);
        return send(message, options);
      };
    },
    close: () => server.close()
  };
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
