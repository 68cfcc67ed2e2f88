/**
 * @module Assembles the gateway: configuration and dependencies in, an Express app out. Everything
 * resource-specific comes from `generated/`.
 */
import express, { type Express } from 'express';
import { DOCS_PAGE_CSP, DOCS_PAGE_HTML, LLMS_TXT } from '../generated/docs-assets';
import openapi from '../generated/openapi.json';
import { DOMAIN_ROUTERS, RESOURCES } from '../generated/routers';
import { Authenticator } from './auth';
import type { GatewayConfig } from './config';
import { ChangeFeed } from './changes/change-feed';
import { DriftMonitor } from './drift/drift-monitor';
import { Exporter } from './export/exporter';
import { ErpClient } from './erp/erp-client';
import { MemoryBudget } from './erp/memory-budget';
import type { ErpCall } from './erp/transport';
import { notFound } from './errors';
import { AuthFailureLimit } from './http/auth-failure-limit';
import { cors } from './http/cors';
import { createDocsRouter, openApiWithServer, withBaseUrl } from './http/docs-routes';
import { createErrorHandler, sendError } from './http/error-handler';
import { createHealthRouter } from './http/health-routes';
import { methodNotAllowed } from './http/method-not-allowed';
import { noStore, unconditional } from './http/no-store';
import { requestDeadline } from './http/request-deadline';
import { requestLog } from './http/request-log';
import { refuseMisshapenRequests } from './http/request-shape';
import { parseQueryString } from './http/strict-query';
import { createResourceHandlers } from './http/resource-handlers';
import type { Logger } from './log';
import { recordUrls } from './record-urls';
import { ResourceReader } from './resource-reader';

export interface AppDependencies {
  readonly logger: Logger;
  /** Sees every ERP call before it is sent (tests check what reaches the ERP). */
  readonly observeErpCall?: (call: ErpCall) => void;
}

export interface Gateway {
  readonly app: Express;
  readonly erp: ErpClient;
  /** The catalogue drift check: `start()` it once the app listens (main.ts does). */
  readonly drift: DriftMonitor;
}

export function createApp(config: GatewayConfig, deps: AppDependencies): Gateway {
  const log = deps.logger;
  const erp = new ErpClient(config.erp, deps.observeErpCall);
  const auth = new Authenticator(erp, config.erp.apiGroup, config.auth);
  const urlFor = recordUrls(config.erp.urlTemplate, config.erp.publicUrl);
  const drift = new DriftMonitor({ mode: config.driftCheck.mode, checkKey: config.driftCheck.key, erp, log, resources: RESOURCES });
  const gapsOf = drift.gapsOf.bind(drift);
  const reader = new ResourceReader(erp, log, urlFor, config.auth.cacheTtlMs, gapsOf);
  const failures = new AuthFailureLimit(config.auth.failureLimit, config.auth.failureWindowMs, config.auth.checkLimit);
  const budget = new MemoryBudget(config.memoryBudgetBytes);
  const changes = new ChangeFeed(reader, config.changesSettleMs);
  const exporter = new Exporter(reader, changes, budget, config.export, log);
  const handlers = createResourceHandlers(auth, reader, failures, budget, { exporter, changes }, drift);

  const servedPaths = new Set(RESOURCES.map((r) => `/api/v1/${r.path}`));
  const docs = ['/api/openapi.json', '/api/docs', '/api/llms.txt'];
  const isServedPath = (path: string) => {
    const trimmed = path.replace(/\/+$/, '');
    return servedPaths.has(trimmed) || servedPaths.has(trimmed.replace(/\/[^/]*$/, '')) || docs.includes(trimmed);
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', parseQueryString);
  app.set('trust proxy', config.trustProxy);
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  app.use(requestLog(log));
  if (config.corsOrigins.length) app.use(cors(config.corsOrigins));
  app.use(methodNotAllowed(isServedPath));
  app.use(refuseMisshapenRequests());
  // The data API first: it is what nearly every request asks for, and Express tries mounted routers in order.
  const api = express.Router();
  for (const { mount, create } of DOMAIN_ROUTERS) api.use(mount, create(handlers));
  app.use('/api/v1', noStore(), requestDeadline(config.requestTimeoutMs), api);
  app.use(
    '/api',
    createDocsRouter({
      '/openapi.json': { body: openApiWithServer(openapi, config.publicBaseUrl), type: 'application/json', cacheControl: 'public, max-age=300' },
      '/docs': {
        body: withBaseUrl(DOCS_PAGE_HTML, config.publicBaseUrl, 'html'),
        type: 'text/html; charset=utf-8',
        cacheControl: 'public, max-age=300',
        extraHeaders: { 'Content-Security-Policy': DOCS_PAGE_CSP, 'Referrer-Policy': 'no-referrer' },
      },
      '/llms.txt': { body: withBaseUrl(LLMS_TXT, config.publicBaseUrl, 'text'), type: 'text/markdown; charset=utf-8', cacheControl: 'public, max-age=300' },
    }),
  );
  // Everything after the documents (which set their own caching) is live state: never stored, never 304.
  app.use(noStore(), unconditional());
  app.use(createHealthRouter(erp, config.erp.timeoutMs, drift));
  app.use((req, res) => sendError(res, notFound(`No route ${req.method} ${req.path.slice(0, 200)}.`)));
  app.use(createErrorHandler(log));
  return { app, erp, drift };
}
