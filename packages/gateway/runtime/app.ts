/**
 * @module Assembles the gateway: configuration and dependencies in, an Express app out. Everything
 * resource-specific comes from `generated/`.
 */
import express, { type Express } from 'express';
import { hash } from 'node:crypto';
import { DOCS_PAGE_CSP, DOCS_PAGE_HTML, LLMS_TXT } from '../generated/docs-assets';
import openapi from '../generated/openapi.json';
import { DOMAIN_ROUTES, RESOURCES } from '../generated/routers';
import { Authenticator } from './admission/auth';
import type { CacheStore } from './cache/cache-store';
import { MemoryCacheStore } from './cache/memory-store';
import { RedisCacheStore } from './cache/redis-cache-store';
import { ResponseCache } from './cache/response-cache';
import type { GatewayConfig } from './config';
import { ChangeFeed } from './changes/change-feed';
import { DriftMonitor } from './drift/drift-monitor';
import { Exporter } from './export/exporter';
import { ErpClient } from './erp/erp-client';
import { erpErrorSummary } from './erp/erp-error';
import { MemoryBudget } from './admission/memory-budget';
import type { ErpCall } from './erp/transport';
import { AuthFailureLimit } from './admission/auth-failure-limit';
import { cors } from './http/cors';
import { EXACT_APP_SETTINGS, noRoute } from './http/exact-routing';
import { KeyRateLimit } from './admission/key-rate-limit';
import { createDocsRouter, openApiWithServer, withBaseUrl } from './http/docs-routes';
import { createErrorHandler, sendError } from './http/error-handler';
import { createHealthRouter, HEALTH_PATHS } from './http/health-routes';
import { methodNotAllowed } from './http/method-not-allowed';
import { noStore, unconditional } from './http/no-store';
import { requestDeadline } from './admission/request-deadline';
import { requestLog } from './http/request-log';
import { refuseMisshapenRequests } from './http/request-shape';
import { parseQueryString } from './http/strict-query';
import { createResourceHandlers } from './data-routes/guard';
import { createDataRouter, dataPathMatcher } from './data-routes/route-table';
import type { Logger } from './log';
import { createMcpRouter, MCP_PATH } from './mcp/mcp-endpoint';
import { buildInfo } from './telemetry/build-info';
import { erpTelemetry } from './telemetry/erp-telemetry';
import type { AuthFailureReason, GatewayMetrics } from './telemetry/metrics';
import type { Tracing } from './telemetry/tracing';
import { recordUrls } from './record-urls';
import { ResourceReader } from './resource-reader';
import { SharedRedis } from './shared-state/redis';

export interface AppDependencies {
  readonly logger: Logger;
  /** Sees every ERP call before it is sent (tests check what reaches the ERP). */
  readonly observeErpCall?: (call: ErpCall) => void;
  /** OpenTelemetry traces, started by the caller when OTEL_EXPORTER_OTLP_ENDPOINT is set (startTracing). */
  readonly tracing?: Tracing | undefined;
  /**
   * Where cached answers live; default: this process's memory (MemoryCacheStore, CACHE_MAX_BYTES,
   * charged to the memory budget). A store shared by several processes (Redis) is given here.
   */
  readonly cacheStore?: CacheStore;
}

export interface Gateway {
  readonly app: Express;
  readonly erp: ErpClient;
  /** The Prometheus metrics when METRICS_PORT is set: serve them with createMetricsServer (main.ts does). */
  readonly metrics: GatewayMetrics | undefined;
  /** The catalogue drift check: `start()` it once the app listens (main.ts does). */
  readonly drift: DriftMonitor;
  /** The Redis connection of the shared state (REDIS_URL), if any: closed at shutdown. */
  readonly shared: SharedRedis | undefined;
  /** The memory budget (ERP answers in flight and the in-memory response cache). */
  readonly budget: MemoryBudget;
}

export function createApp(config: GatewayConfig, deps: AppDependencies): Gateway {
  const log = deps.logger;
  const { tracing } = deps;
  // The gauges read these when scraped; they exist by then.
  let erp: ErpClient | undefined;
  let budget: MemoryBudget | undefined;
  let drift: DriftMonitor | undefined;
  const metrics = config.metrics
    ? new (loadMetrics())({
        erpLoad: () => erp?.load ?? { inFlight: 0, queued: 0 },
        memoryBudget: {
          get inUse() {
            return budget?.inUse ?? 0;
          },
          limitBytes: config.memoryBudgetBytes,
        },
        driftProblems: () => drift?.status().problems ?? [],
        build: buildInfo(),
      })
    : undefined;
  erp = new ErpClient(config.erp, deps.observeErpCall, erpTelemetry(metrics, tracing));
  const authObserver = metrics && { cacheLookup: (hit: boolean) => metrics.authCacheLookup(hit), refused: (reason: AuthFailureReason) => metrics.authFailure(reason) };
  const auth = new Authenticator(erp, config.erp.apiGroup, config.auth, authObserver);
  const urlFor = recordUrls(config.erp.urlTemplate, config.erp.publicUrl);
  drift = new DriftMonitor({ mode: config.driftCheck.mode, checkKey: config.driftCheck.key, erp, log, resources: RESOURCES });
  const gapsOf = drift.gapsOf.bind(drift);
  const reader = new ResourceReader(erp, log, urlFor, auth, config.auth.cacheTtlMs, gapsOf);
  const shared = config.redis && new SharedRedis(config.redis, log);
  const failures = new AuthFailureLimit(config.auth.failureLimit, config.auth.failureWindowMs, config.auth.checkLimit, shared);
  const keyLimit = config.rateLimit && new KeyRateLimit(config.rateLimit, shared, metrics && (() => metrics.rateLimitRefusals.inc()));
  budget = new MemoryBudget(config.memoryBudgetBytes);
  const largestEntryBytes = MemoryCacheStore.largestEntryOf(config.cache.maxBytes);
  // With REDIS_URL the cached answers are shared by every process (bounded by Redis's own maxmemory);
  // else this process keeps them, within CACHE_MAX_BYTES of its memory budget.
  const store = deps.cacheStore ?? (shared ? new RedisCacheStore(shared, largestEntryBytes) : new MemoryCacheStore(config.cache.maxBytes, budget));
  const cache = new ResponseCache(store, config.cache, cacheNamespace(config), largestEntryBytes);
  const onRefreshError = (error: unknown) =>
    log.info({ erp_error: erpErrorSummary(error) }, 'cache: a stale answer could not be read again (it is served until its stale window ends)');
  const changes = new ChangeFeed(reader, config.changesSettleMs);
  const exporter = new Exporter(reader, changes, budget, config.export, log);
  const handlers = createResourceHandlers(
    auth,
    reader,
    failures,
    budget,
    { exporter, changes },
    { drift, keyLimit, compression: config.compression, cache, onRefreshError, tracing, resources: RESOURCES },
  );

  const isDataPath = dataPathMatcher('/api/v1', DOMAIN_ROUTES);
  const docs = ['/api/openapi.json', '/api/docs', '/api/llms.txt', '/llms.txt'];
  /** The GET routes: a data route (of any kind) or a document. */
  const isServedPath = (path: string) => isDataPath(path) || docs.includes(path);
  const operational: readonly string[] = [MCP_PATH, ...Object.values(HEALTH_PATHS)];
  const isKnownPath = (path: string) => isServedPath(path) || operational.includes(path);

  const llmsTxt = { body: withBaseUrl(LLMS_TXT, config.publicBaseUrl, 'text'), type: 'text/markdown; charset=utf-8', cacheControl: 'public, max-age=300' };

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', parseQueryString);
  app.set('trust proxy', config.trustProxy);
  for (const [setting, value] of EXACT_APP_SETTINGS) app.set(setting, value);
  // First: every answer, whatever answers it, carries the request id, and every log line of the request too.
  app.use(requestLog(log, { metrics, tracing }));
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  if (config.corsOrigins.length) app.use(cors(config.corsOrigins, MCP_PATH));
  app.use(methodNotAllowed(isServedPath));
  app.use(refuseMisshapenRequests());
  // The data API first: it is what nearly every request asks for, and Express tries mounted routers in order.
  app.use('/api/v1', noStore(), requestDeadline(config.requestTimeoutMs, sendError), createDataRouter(DOMAIN_ROUTES, handlers));
  // MCP for agents: each tool call is a GET of a data route above, through this same app.
  app.use(createMcpRouter(app, auth, failures, { budget, requestTimeoutMs: config.requestTimeoutMs, log }));
  app.use(
    '/api',
    createDocsRouter(
      {
        '/openapi.json': { body: openApiWithServer(openapi, config.publicBaseUrl), type: 'application/json', cacheControl: 'public, max-age=300' },
        '/docs': {
          body: withBaseUrl(DOCS_PAGE_HTML, config.publicBaseUrl, 'html'),
          type: 'text/html; charset=utf-8',
          cacheControl: 'public, max-age=300',
          extraHeaders: { 'Content-Security-Policy': DOCS_PAGE_CSP, 'Referrer-Policy': 'no-referrer' },
        },
        '/llms.txt': llmsTxt,
      },
      config.compression,
    ),
  );
  // People type or bookmark the page with a final slash: sent on to its one URL (a relative Location,
  // so that a reverse proxy's path prefix is kept; the browser keeps the #anchor).
  app.get('/api/docs/', (_req, res) => res.redirect(308, '../docs'));
  // The llms.txt convention puts it at the site root as well.
  app.use(createDocsRouter({ '/llms.txt': llmsTxt }, config.compression));
  // Everything after the documents (which set their own caching) is live state: never stored, never 304.
  app.use(noStore(), unconditional());
  app.use(createHealthRouter(erp, config.erp.timeoutMs, drift));
  app.use(noRoute(isKnownPath));
  app.use(createErrorHandler(log));
  return { app, erp, drift, metrics, shared, budget };
}

/** The ERP and the catalogue this gateway serves, hashed: the prefix of its cache keys (cache-key.ts). */
function cacheNamespace(config: GatewayConfig): string {
  return hash('sha256', JSON.stringify([config.erp.url, config.erp.database, RESOURCES]), 'base64url').slice(0, 16);
}

/**
 * prom-client, loaded only when METRICS_PORT is set: it adds 16 MB of resident memory to a process
 * whose budget is about 130 MB, for nothing when no one scrapes (as the OpenTelemetry SDK, tracing.ts).
 */
function loadMetrics(): typeof GatewayMetrics {
  return (require('./telemetry/metrics') as typeof import('./telemetry/metrics')).GatewayMetrics;
}
