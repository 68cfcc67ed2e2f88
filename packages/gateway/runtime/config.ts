/**
 * @module Configuration: read once from the environment, validated, defaulted, frozen. A wrong or
 * missing setting stops start-up with one line naming the variable. `process.env` is read nowhere
 * else. Each variable's default, bounds and description are declared once, in settings.ts (which
 * the README's Configuration tables are held to); this module reads them from there.
 */

import { availableParallelism } from 'node:os';
import { ANSWER_COSTS, COST_KINDS, REQUEST_COSTS, type CostKind } from './route-kinds';
import { SETTINGS, settingSpec, type SettingName } from './settings';

export type TransportName = 'json2' | 'jsonrpc' | 'xmlrpc';

export interface GatewayConfig {
  readonly host: string;
  readonly port: number;
  /** Public base URL of the gateway (OpenAPI `servers`, docs examples). */
  readonly publicBaseUrl: string;
  readonly erp: {
    readonly url: string;
    readonly database: string;
    readonly transport: TransportName | 'auto';
    /** Login of the technical account: RPC transports check a key together with it. */
    readonly login: string;
    /** External id of the group whose members may use the API. */
    readonly apiGroup: string;
    /** Base of the `url` fields (the ERP host seen by users, not necessarily the one the gateway calls). */
    readonly publicUrl: string;
    /** Template of `url` fields (decision D9). */
    readonly urlTemplate: string;
    readonly timeoutMs: number;
    /** At most this many ERP calls at once; more wait in a bounded queue. */
    readonly maxConcurrency: number;
    readonly maxQueue: number;
    /** Largest ERP answer accepted, decompressed (ERP_MAX_ANSWER_BYTES); past it the request answers 502. */
    readonly maxAnswerBytes: number;
  };
  /** Bytes of ERP answers held at once by all requests (each byte counted three times), then 503. */
  readonly memoryBudgetBytes: number;
  /** The response cache (docs/caching.md, "Caching and conditional requests"). */
  readonly cache: {
    /** Seconds an answer stays fresh for a resource whose catalogue entry sets no `cache.ttl`; 0: not cached. */
    readonly defaultTtlS: number;
    /** Seconds a stale answer may still be served while it is read again, where the catalogue sets no `cache.stale_while_revalidate`. */
    readonly defaultStaleS: number;
    /** Ceiling of every TTL and stale window, the catalogue's included; 0 turns the cache off everywhere. */
    readonly maxTtlS: number;
    /** Bytes the cache may hold (charged to the memory budget); 0 turns the cache off. */
    readonly maxBytes: number;
  };
  readonly auth: {
    /** Lifetime of a successful key check in the cache. */
    readonly cacheTtlMs: number;
    readonly cacheMaxEntries: number;
    /** Lifetime of a failed key check (protects the ERP from repeated bad keys). */
    readonly negativeTtlMs: number;
    /** Failed authentications allowed per client address within the window, then 429 (D26). */
    readonly failureLimit: number;
    readonly failureWindowMs: number;
    /** Key checks sent to the ERP per window, all client addresses together; past it 429. */
    readonly checkLimit: number;
  };
  /**
   * Longest a data request may take in all (waiting for an ERP slot plus every ERP round), then 504
   * `gateway_timeout`; defaults to the ERP timeout, so no client waits longer than that setting.
   */
  readonly requestTimeoutMs: number;
  /** A connection whose answer has not moved for this long (its client stopped reading) is dropped. */
  readonly clientWriteTimeoutMs: number;
  /** Per-key rate limits (decision D26): off (undefined) unless RATE_LIMIT_POINTS is set. */
  readonly rateLimit: RateLimitConfig | undefined;
  /** Where state shared by several gateway processes lives: Redis, or (undefined) this process's memory. */
  readonly redis: RedisConfig | undefined;
  /** Gateway processes on this machine sharing the port (WORKERS): 1 runs no cluster primary. */
  readonly workers: number;
  /** Streamed CSV and NDJSON exports of list routes (docs/exports-and-sync.md, "Exports and incremental sync"). */
  readonly export: {
    /** Records an export may hold at most: a larger one is refused (422 `invalid_value`) before anything is sent. */
    readonly maxRows: number;
    /** Records read from the ERP per call of an export: what it holds in memory at once. */
    readonly pageSize: number;
  };
  /**
   * The change feed (`changed_since`) serves only records whose write_date is this much older than
   * the gateway's clock: Odoo stamps a record with the time its transaction began, so a record
   * stamped with a second already served could still appear until every transaction that began in
   * that second has committed.
   */
  readonly changesSettleMs: number;
  /** Origins allowed to call the API from a browser; empty: CORS off. */
  readonly corsOrigins: readonly string[];
  /** Express `trust proxy` setting: how the client address is found behind proxies. */
  readonly trustProxy: false | number | string;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** The Prometheus listener (docs/operating.md, "Operating it"): off unless METRICS_PORT is set; never the public port. */
  readonly metrics: { readonly host: string; readonly port: number } | undefined;
  /** OpenTelemetry traces over OTLP/HTTP: off unless OTEL_EXPORTER_OTLP_ENDPOINT is set. */
  readonly tracing: { readonly endpoint: string; readonly serviceName: string } | undefined;
  /** Compression of answers (brotli, gzip); turn it off behind a proxy that compresses. */
  readonly compression: { readonly enabled: boolean; readonly minBytes: number };
  /** Catalogue drift check at start-up and by `make check-erp` (docs/catalogue.md, "Catalogue drift check"). */
  readonly driftCheck: {
    /** `warn`: serve around drift and report it; `fail`: refuse to run; `off`: no check at start-up. */
    readonly mode: 'warn' | 'fail' | 'off';
    /**
     * API key of the technical account, used only for the check (the gateway otherwise forwards its
     * clients' keys). Never logged. Without it the check is skipped.
     */
    readonly key: string | undefined;
  };
}

/** What each kind of data request costs against its key's quota, in points (RATE_LIMIT_COSTS; the kinds: route-kinds.ts). */
export type RateLimitCosts = Readonly<Record<CostKind, number>>;

export interface RateLimitConfig {
  /** Points a key may spend per window. */
  readonly points: number;
  /** Length of the window, in whole seconds (the unit of the RateLimit headers and of Redis expiry). */
  readonly windowSeconds: number;
  readonly costs: RateLimitCosts;
}

export interface RedisConfig {
  /** redis:// or rediss:// URL (may carry a password: never logged). */
  readonly url: string;
  /** Longest any Redis call may take before the feature falls back (limits: this process's memory; cache: bypass). */
  readonly timeoutMs: number;
  /** Prefix of every key the gateway writes, so that several gateways (or other users) can share one Redis. */
  readonly keyPrefix: string;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`configuration: ${variable} ${detail}`);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** The variable's value, trimmed; undefined when unset or blank. */
function given(env: Env, name: SettingName): string | undefined {
  return env[name]?.trim() || undefined;
}

/** Its value, else `derived` (a default computed from another setting), else the declared default. */
function text(env: Env, name: SettingName, derived?: string): string {
  const value = given(env, name);
  if (value) return value;
  const fallback = derived ?? settingSpec(name).default;
  if (fallback !== undefined) return String(fallback);
  throw new ConfigError(name, 'is required');
}

/** An integer within the declared bounds; `derived` gives a default or a ceiling computed from another setting. */
function integer(env: Env, name: SettingName, derived: { readonly fallback?: number; readonly max?: number } = {}): number {
  const spec = settingSpec(name);
  const min = spec.min;
  const max = derived.max ?? spec.max;
  if (min === undefined || max === undefined) throw new Error(`settings.ts: ${name} declares no integer bounds`);
  const raw = given(env, name);
  if (!raw) {
    const fallback = derived.fallback ?? spec.default;
    if (typeof fallback === 'number') return fallback;
    throw new ConfigError(name, 'is required');
  }
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new ConfigError(name, `must be an integer from ${min} to ${max} (got '${raw}')`);
  return Number(raw);
}

function url(env: Env, name: SettingName, fallback?: string): string {
  const value = text(env, name, fallback);
  let parsed: URL;
  try {
    parsed = new URL(value);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw new ConfigError(name, `must be an http(s) URL (got '${value.replace(/\/\/[^/@]*@/, '//…@')}')`);
  }
  // A user and password in the URL would be sent nowhere (JSON-2 needs the Authorization header for
  // the client's key) and would leak into every record's `url`: refused, never silently dropped.
  if (parsed.username || parsed.password)
    throw new ConfigError(name, "must not carry a user or password (user:password@): the gateway authenticates with its clients' API keys; put a proxy's credentials in the proxy");
  return value.replace(/\/+$/, '');
}

type Settings = typeof SETTINGS;
/** The settings that take one of a list of values. */
type ChoiceName = { [K in keyof Settings]: Settings[K] extends { readonly values: readonly string[] } ? K : never }[keyof Settings];
type ChoiceOf<N extends ChoiceName> = Extract<Settings[N], { readonly values: readonly string[] }>['values'][number];

function oneOf<N extends ChoiceName>(env: Env, name: N): ChoiceOf<N> {
  const { default: fallback, values } = SETTINGS[name] as { readonly default: string; readonly values: readonly string[] };
  const value = given(env, name) ?? fallback;
  if (!values.includes(value)) throw new ConfigError(name, `must be one of ${values.join(', ')} (got '${value}')`);
  return value as ChoiceOf<N>;
}

export function loadConfig(env: Env): GatewayConfig {
  const host = text(env, 'HOST');
  const port = integer(env, 'PORT');
  const erpUrl = url(env, 'ERP_URL');
  const erpTimeoutMs = integer(env, 'ERP_TIMEOUT_MS');
  const memoryBudgetBytes = integer(env, 'MEMORY_BUDGET_BYTES');
  const config: GatewayConfig = {
    host,
    port,
    publicBaseUrl: url(env, 'PUBLIC_BASE_URL', `http://${host.includes(':') ? `[${host}]` : host}:${port}`),
    erp: {
      url: erpUrl,
      database: text(env, 'ERP_DATABASE'),
      transport: oneOf(env, 'ERP_TRANSPORT'),
      login: text(env, 'ERP_LOGIN'),
      apiGroup: text(env, 'ERP_API_GROUP'),
      publicUrl: url(env, 'ERP_PUBLIC_URL', erpUrl),
      urlTemplate: text(env, 'ERP_URL_TEMPLATE'),
      timeoutMs: erpTimeoutMs,
      maxConcurrency: integer(env, 'ERP_MAX_CONCURRENCY'),
      maxQueue: integer(env, 'ERP_MAX_QUEUE'),
      maxAnswerBytes: integer(env, 'ERP_MAX_ANSWER_BYTES'),
    },
    memoryBudgetBytes,
    cache: {
      defaultTtlS: integer(env, 'CACHE_DEFAULT_TTL_S'),
      defaultStaleS: integer(env, 'CACHE_DEFAULT_STALE_S'),
      maxTtlS: integer(env, 'CACHE_MAX_TTL_S'),
      // At most half the budget: the answers in flight always keep the other half.
      maxBytes: integer(env, 'CACHE_MAX_BYTES', { fallback: Math.min(32 * 1024 * 1024, Math.floor(memoryBudgetBytes / 4)), max: Math.floor(memoryBudgetBytes / 2) }),
    },
    auth: {
      cacheTtlMs: integer(env, 'AUTH_CACHE_TTL_MS'),
      cacheMaxEntries: integer(env, 'AUTH_CACHE_MAX_ENTRIES'),
      negativeTtlMs: integer(env, 'AUTH_NEGATIVE_TTL_MS'),
      failureLimit: integer(env, 'AUTH_FAILURE_LIMIT'),
      failureWindowMs: integer(env, 'AUTH_FAILURE_WINDOW_MS'),
      checkLimit: integer(env, 'AUTH_CHECK_LIMIT'),
    },
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', { fallback: erpTimeoutMs }),
    clientWriteTimeoutMs: integer(env, 'CLIENT_WRITE_TIMEOUT_MS'),
    rateLimit: rateLimit(env),
    redis: redis(env),
    workers: workers(env, 'WORKERS'),
    export: {
      maxRows: integer(env, 'EXPORT_MAX_ROWS'),
      pageSize: integer(env, 'EXPORT_PAGE_SIZE'),
    },
    changesSettleMs: integer(env, 'CHANGES_SETTLE_MS'),
    corsOrigins: origins(env, 'CORS_ORIGINS'),
    trustProxy: trustProxy(env, 'TRUST_PROXY'),
    logLevel: oneOf(env, 'LOG_LEVEL'),
    metrics: metricsListener(env, host, port),
    tracing: given(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') ? { endpoint: url(env, 'OTEL_EXPORTER_OTLP_ENDPOINT'), serviceName: text(env, 'OTEL_SERVICE_NAME') } : undefined,
    compression: {
      enabled: oneOf(env, 'COMPRESSION') === 'on',
      minBytes: integer(env, 'COMPRESSION_MIN_BYTES'),
    },
    driftCheck: {
      mode: oneOf(env, 'DRIFT_CHECK'),
      key: given(env, 'ERP_CHECK_KEY'),
    },
  };
  if (config.erp.transport !== 'json2' && config.erp.transport !== 'auto' && !config.erp.login)
    throw new ConfigError('ERP_LOGIN', `is required with ERP_TRANSPORT=${config.erp.transport} (RPC checks a key together with a login)`);
  if (!config.erp.urlTemplate.includes('{id}')) throw new ConfigError('ERP_URL_TEMPLATE', "must contain '{id}'");
  return deepFreeze(config);
}

function rateLimit(env: Env): RateLimitConfig | undefined {
  if (!given(env, 'RATE_LIMIT_POINTS')) {
    for (const name of ['RATE_LIMIT_WINDOW_SECONDS', 'RATE_LIMIT_COSTS'] as const)
      if (given(env, name)) throw new ConfigError(name, 'has no effect without RATE_LIMIT_POINTS (per-key limits are off unless it is set)');
    return undefined;
  }
  const points = integer(env, 'RATE_LIMIT_POINTS');
  const windowSeconds = integer(env, 'RATE_LIMIT_WINDOW_SECONDS');
  const costs: Partial<Record<CostKind, number>> = {};
  // The declared default first, then the operator's pairs over it (kinds left out keep their default).
  const raw = given(env, 'RATE_LIMIT_COSTS');
  for (const pair of [...SETTINGS.RATE_LIMIT_COSTS.default.split(','), ...(raw ? raw.split(',') : [])]) {
    const match = /^\s*([a-z_]+)\s*=\s*([0-9]{1,9})\s*$/.exec(pair);
    const kind = match?.[1] as CostKind | undefined;
    if (!match || !kind || !COST_KINDS.includes(kind))
      throw new ConfigError('RATE_LIMIT_COSTS', `must be kind=points pairs, comma-separated, kinds ${COST_KINDS.join(', ')} (got '${pair.trim()}')`);
    costs[kind] = Number(match[2]);
  }
  const cost = (kind: CostKind): number => {
    const points = costs[kind];
    if (points === undefined) throw new Error(`settings.ts: RATE_LIMIT_COSTS declares no default for ${kind}`);
    return points;
  };
  const charged = Object.fromEntries(COST_KINDS.map((kind) => [kind, cost(kind)])) as RateLimitCosts;
  for (const kind of REQUEST_COSTS) {
    // Every request is charged something up front, and no kind may cost more than a whole window's points.
    if (charged[kind] < 1 || charged[kind] > points) throw new ConfigError('RATE_LIMIT_COSTS', `${kind} must cost from 1 to RATE_LIMIT_POINTS (${points}) (got ${charged[kind]})`);
  }
  for (const kind of ANSWER_COSTS) if (charged[kind] > points) throw new ConfigError('RATE_LIMIT_COSTS', `${kind} must cost at most RATE_LIMIT_POINTS (${points})`);
  return { points, windowSeconds, costs: charged };
}

function redis(env: Env): RedisConfig | undefined {
  const raw = given(env, 'REDIS_URL');
  if (!raw) {
    for (const name of ['REDIS_TIMEOUT_MS', 'REDIS_KEY_PREFIX'] as const) if (given(env, name)) throw new ConfigError(name, 'has no effect without REDIS_URL');
    return undefined;
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(raw);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') || !parsed.hostname)
    throw new ConfigError('REDIS_URL', `must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379/0 (got '${raw.replace(/\/\/[^/@]*@/, '//…@')}')`);
  const keyPrefix = text(env, 'REDIS_KEY_PREFIX');
  if (!/^[A-Za-z0-9:_.-]{1,64}$/.test(keyPrefix)) throw new ConfigError('REDIS_KEY_PREFIX', `must be 1 to 64 letters, digits or ':_.-' (got '${keyPrefix}')`);
  return { url: raw, timeoutMs: integer(env, 'REDIS_TIMEOUT_MS'), keyPrefix };
}

function workers(env: Env, name: 'WORKERS'): number {
  const { default: fallback, min, max } = SETTINGS[name];
  const raw = given(env, name);
  if (!raw) return fallback;
  if (raw === 'auto') return availableParallelism();
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new ConfigError(name, `must be 'auto' (one per CPU) or an integer from ${min} to ${max} (got '${raw}')`);
  return Number(raw);
}

function metricsListener(env: Env, publicHost: string, publicPort: number): GatewayConfig['metrics'] {
  if (!given(env, 'METRICS_PORT')) return undefined;
  const port = integer(env, 'METRICS_PORT');
  const host = text(env, 'METRICS_HOST');
  // The metrics name routes, models and the ERP version: they are for the operator, not the API's clients.
  if (port !== 0 && port === publicPort && (host === publicHost || host === '0.0.0.0' || publicHost === '0.0.0.0' || host === '::' || publicHost === '::'))
    throw new ConfigError('METRICS_PORT', `must differ from PORT (${publicPort}): metrics are never served on the public port`);
  return { host, port };
}

function origins(env: Env, name: SettingName): string[] {
  const raw = given(env, name);
  if (!raw) return [];
  return raw.split(',').map((origin) => {
    const value = origin.trim();
    try {
      const parsed = new URL(value);
      if (parsed.origin !== value) throw new Error('not an origin');
    } catch {
      throw new ConfigError(name, `must list origins such as https://dash.example.org, comma-separated (got '${value}')`);
    }
    return value;
  });
}

function trustProxy(env: Env, name: 'TRUST_PROXY'): false | number | string {
  const raw = given(env, name) ?? SETTINGS[name].default;
  if (raw === 'false') return false;
  // Express's `true` takes the left-most X-Forwarded-For entry, which the client itself writes: every
  // per-address limit would then be the client's to choose.
  if (raw === 'true')
    throw new ConfigError(name, "must not be 'true' (it trusts the client's own X-Forwarded-For): give the number of proxies in front (e.g. 1) or their addresses or subnets");
  if (/^[0-9]+$/.test(raw)) return Number(raw);
  return raw;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** Settings of `npm run mcp`, the stdio MCP entry for local agents (runtime/mcp/stdio.ts). */
export interface McpBridgeConfig {
  /** The gateway whose `/mcp` endpoint the bridge forwards to. */
  readonly gatewayUrl: string;
  /** The agent's API key, sent as the bearer key of every forwarded request. */
  readonly apiKey: string;
}

export function loadMcpBridgeConfig(env: Env): McpBridgeConfig {
  const apiKey = text(env, 'API_KEY');
  if (/\s/.test(apiKey)) throw new ConfigError('API_KEY', 'must be one word (the key alone, without "Bearer")');
  return { gatewayUrl: url(env, 'GATEWAY_URL'), apiKey };
}
