/**
 * @module The data-route core: the guard every data route passes, whatever its kind, and the
 * handlers of every kind (kinds/data-kinds.ts) behind it. The ordered steps of a data request, with the
 * file that takes each and the statuses it may answer (docs/contributing.md holds the same table, a
 * test holds it to this one):
 *
 * | Step | File | May answer |
 * | --- | --- | --- |
 * | 1. Node reads the request line and headers, within their time limits | server/harden-server.ts | 400 |
 * | 2. The request's id and trace context; its log line, metrics and span once answered | http/request-log.ts, request/ | |
 * | 3. CORS: a preflight is answered | http/cors.ts | 204 |
 * | 4. Another method than GET or HEAD on a served path | http/method-not-allowed.ts | 405 |
 * | 5. No Host header, or a body on GET | http/request-shape.ts | 400 |
 * | 6. The request's deadline starts | admission/request-deadline.ts | 504 |
 * | 7. The route matched exactly (else the no-route 404 at the end), its template recorded | data-routes/route-table.ts, http/exact-routing.ts, request/route-template.ts | 404 |
 * | 8. The API key: checked (cached), failures counted by address | admission/authenticate-request.ts, admission/auth.ts, admission/auth-failure-limit.ts | 401, 403, 429 |
 * | 9. A lease of the memory budget, charged as ERP answers arrive | admission/memory-budget.ts | 503 |
 * | 10. The resource's drift: its model gone | drift/drift-gaps.ts | 503 |
 * | 11. The read right on the resource's model | admission/auth.ts | 403 |
 * | 12. The kind reads its request: path, query keys and values (a filter or sort key the drift took: 503) | data-routes/kinds/, http/strict-query.ts, query/parse-query.ts | 400, 404, 422, 503 |
 * | 13. The key's rate limit charged the kind's cost | admission/key-rate-limit.ts | 429 |
 * | 14. The answer: the response cache, or the ERP (coalesced, bounded); 304 when unchanged | data-routes/cached-answers.ts, resource-reader.ts, erp/, http/send-json.ts | 200, 304, 403, 422, 502, 503, 504 |
 * | 15. The charge settled by the answer's outcome (304, cached), the lease given back | admission/key-rate-limit.ts, admission/memory-budget.ts | |
 * | 16. An error becomes the envelope; an ERP error its status | http/error-handler.ts, http/erp-errors.ts | 4xx, 5xx |
 *
 * Steps 8 to 15 are this guard's, the same for every kind; 12 and the answer of 14 are the kind's
 * (kind-route.ts). When the ERP's error at any of 11 to 14 teaches the gateway some catalogue drift,
 * steps 10 to 14 run again around it (charged once). The request deadline (6) may answer 504 at any
 * step after it; the 422 of step 14 is an export past EXPORT_MAX_ROWS, its 403 a right the ERP refused.
 */
import Ajv2020 from 'ajv/dist/2020';
import type { RequestHandler, Response } from 'express';
import type { Authenticator, Principal } from '../admission/auth';
import type { ResponseCache } from '../cache/response-cache';
import { authenticateRequest } from '../admission/authenticate-request';
import { driftUnavailable, type DriftGaps } from '../drift/drift-gaps';
import { ErpFault } from '../erp/erp-error';
import type { MemoryBudget } from '../admission/memory-budget';
import type { AuthFailureLimit } from '../admission/auth-failure-limit';
import { NO_KEY_RATE_LIMIT, type AnswerOutcome, type Charge, type KeyRateLimitPort } from '../admission/key-rate-limit';
import type { RelatedResourceOf } from '../query/parse-expand';
import { QueryParser } from '../query/parse-query';
import type { ResourceHandlers } from './route-table';
import type { ResourceReader } from '../resource-reader';
import type { ResourceSpec } from '../resource-spec';
import { ROUTE_KIND_ORDER, type RequestCost } from '../route-kinds';
import type { Tracing } from '../telemetry/tracing';
import { cacheOutcomeOf, erpStatsOf, setErpUid } from '../request/request-context';
import { recordRoute } from '../request/route-template';
import { createAnswerer } from './cached-answers';
import type { CompressionSettings } from '../http/compression';
import type { Exporter } from '../export/exporter';
import type { ChangeFeed } from '../changes/change-feed';
import type { Admitted, KindRoute } from './kind-route';
import { DATA_KINDS } from './kinds/data-kinds';

/**
 * How many times one request may be asked again after the ERP's error taught the gateway some
 * catalogue drift. Odoo names one missing field per error, and an organisation's resource on a stock
 * Odoo lacks a dozen or more (events/events on a live 19.0: 10). A request is asked again only when
 * the error taught something new, so all requests together ask again at most once per fact the
 * catalogue holds: the bound only stops a runaway.
 */
const RELEARN_ATTEMPTS = 64;

/** The drift the handlers serve around (drift-monitor.ts). */
interface DriftView {
  gapsOf(resource: ResourceSpec): DriftGaps;
  /** Records what an ERP error says the ERP lacks; `gapsOf` then answers anew. */
  learnFrom(error: unknown): boolean;
}

/** What the answer just written cost: a 304 sends no body; a cached one asked nothing of the ERP. */
const outcomeOf = (res: Response): AnswerOutcome => {
  if (res.statusCode === 304) return 'not_modified';
  const cache = cacheOutcomeOf(res);
  return cache === 'hit' || cache === 'stale' ? 'cached' : 'full';
};

/** What the handlers use besides the key check, the reader and the memory budget; each optional. */
export interface HandlerOptions {
  /** Catalogue drift (DRIFT_CHECK=warn), found at start-up or learned from the ERP's errors: a resource whose model is gone answers 503. */
  readonly drift?: DriftView | undefined;
  /** Per-key rate limits (D26): charged once the query is parsed, before the ERP is read. */
  readonly keyLimit?: KeyRateLimitPort | undefined;
  /** How data answers are compressed (COMPRESSION, COMPRESSION_MIN_BYTES). */
  readonly compression?: CompressionSettings;
  /** The response cache; without it (or for a resource whose TTL is 0) every answer is read from the ERP. */
  readonly cache?: ResponseCache | undefined;
  /** Where a failed background refresh of a stale cached answer is reported. */
  readonly onRefreshError?: (error: unknown) => void;
  /** OpenTelemetry, when OTEL_EXPORTER_OTLP_ENDPOINT is set: the cache's steps get spans. */
  readonly tracing?: Tracing | undefined;
  /** Every resource served: the other ends of the relations a request expands (`expand`). */
  readonly resources?: readonly ResourceSpec[];
}

/** The handler of every kind of data route (kinds/data-kinds.ts), each behind the guard. */
export function createResourceHandlers(
  auth: Authenticator,
  reader: ResourceReader,
  failures: AuthFailureLimit,
  /** What ERP answers in flight may hold in all; each request takes a lease, given back once it has answered. */
  budget: MemoryBudget,
  /** Exports (CSV, NDJSON) and the change feed. */
  bulk: { readonly exporter: Exporter; readonly changes: ChangeFeed },
  options: HandlerOptions = {},
): ResourceHandlers {
  const { drift, keyLimit = NO_KEY_RATE_LIMIT, compression = { enabled: false, minBytes: 0 }, cache, onRefreshError = () => undefined, tracing, resources = [] } = options;
  const ajv = new Ajv2020({ allErrors: false, strict: true, verbose: true });
  const parsers = new Map<ResourceSpec, QueryParser>();
  const parserOf = (resource: ResourceSpec) => {
    let parser = parsers.get(resource);
    if (!parser) {
      parser = new QueryParser(resource, ajv);
      parsers.set(resource, parser);
    }
    return parser;
  };

  /** Charges the request once, even when drift learning asks the ERP again around what it lacks. */
  const admitOnce = async (principal: Principal, cost: RequestCost, res: Response): Promise<Charge> => {
    const held = res.locals['rateCharge'] as Charge | undefined;
    if (held) return held;
    const charge = await keyLimit.admit(principal.keyId, cost, res);
    res.locals['rateCharge'] = charge;
    return charge;
  };

  /**
   * Steps 8 to 15 (the module's table): authenticates, leases memory, serves around drift, checks the
   * read right, lets the kind read the request, charges its cost, lets it answer, settles the charge.
   * A key the ERP stops accepting is forgotten.
   */
  const guarded = (resource: ResourceSpec, route: KindRoute<unknown>): RequestHandler => {
    const gaps = () => drift?.gapsOf(resource);
    return async (req, res) => {
      recordRoute(req);
      const stats = erpStatsOf(res);
      const principal = await authenticateRequest(auth, failures, req, res);
      setErpUid(res, principal.uid);
      stats.lease = budget.lease();
      const call: Admitted = { principal, resource, req, res, gaps };
      try {
        for (let attempt = 1; ; attempt++) {
          const served = gaps();
          try {
            if (served?.unavailable) throw driftUnavailable(served.unavailable);
            await auth.assertCanRead(principal, resource.model, stats);
            const asked = route.read(call);
            const charge = await admitOnce(principal, route.costOf(asked), res);
            await route.answer(asked, call);
            charge.settle(outcomeOf(res));
            return;
          } catch (error) {
            // The ERP said what it lacks (now, or for a request running alongside): ask again around it.
            if (drift && attempt <= RELEARN_ATTEMPTS) {
              drift.learnFrom(error);
              if (drift.gapsOf(resource) !== served) continue;
            }
            throw error;
          }
        }
      } catch (error) {
        if (error instanceof ErpFault && error.kind === 'access_denied') auth.evict(principal);
        // The ERP refused a read the cached right allowed: the right was taken away. Forget it (and
        // what was learned under it), so that the next request asks again and a right given back
        // counts at once.
        if (error instanceof ErpFault && error.kind === 'access_error') auth.forgetRight(principal, resource.model);
        throw error;
      } finally {
        // The answer is written (or the error is about to be): the ERP answers' memory is no longer held here.
        stats.lease.release();
      }
    };
  };

  const byPath = new Map(resources.map((resource) => [resource.path, resource]));
  const relatedOf: RelatedResourceOf = (path) => {
    const resource = byPath.get(path);
    // The generator checked both ends of every relation: a missing one is a gateway built wrong.
    if (!resource) throw new Error(`relation to ${path}, which the gateway does not serve`);
    return { resource, parser: parserOf(resource) };
  };
  const deps = { reader, parserOf, relatedOf, answer: createAnswerer(budget, cache, onRefreshError, compression, tracing), compression, ...bulk };
  const handlers = {} as Record<keyof ResourceHandlers, ResourceHandlers[keyof ResourceHandlers]>;
  for (const kind of ROUTE_KIND_ORDER) {
    const routeOf = DATA_KINDS[kind](deps);
    handlers[kind] = (resource) => guarded(resource, routeOf(resource));
  }
  return handlers;
}
