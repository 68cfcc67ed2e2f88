/**
 * @module The generic list and detail handlers that every generated router registers its resources
 * on: authenticate, check the read right, parse the query, read, answer.
 */
import Ajv2020 from 'ajv/dist/2020';
import type { Request, RequestHandler, Response } from 'express';
import type { Authenticator, Principal } from '../admission/auth';
import type { ResponseCache } from '../cache/response-cache';
import { authenticateRequest } from '../admission/authenticate-request';
import { driftUnavailable, servableListQuery, type DriftGaps } from '../drift/drift-gaps';
import { ErpFault } from '../erp/erp-error';
import { notFound } from '../errors';
import type { MemoryBudget } from '../admission/memory-budget';
import type { AuthFailureLimit } from '../admission/auth-failure-limit';
import { NO_KEY_RATE_LIMIT, type AnswerOutcome, type Charge, type KeyRateLimitPort, type RequestKind } from '../admission/key-rate-limit';
import { QueryParser } from '../query/parse-query';
import type { ResourceHandlers } from './route-table';
import type { ResourceReader } from '../resource-reader';
import type { ResourceSpec } from '../resource-spec';
import type { Tracing } from '../telemetry/tracing';
import { cacheOutcomeOf, erpStatsOf, setCacheOutcome, setErpUid } from '../request/request-context';
import { recordRoute } from '../request/route-template';
import { createAnswerer } from './cached-answers';
import type { CompressionSettings } from '../http/compression';
import { listFormatOf } from './kinds/list/list-format';
import { encodeJson, sendEncoded } from '../http/send-json';
import type { Exporter } from '../export/exporter';
import { changePage, type ChangeFeed } from '../changes/change-feed';
import { assertCountedQuery, assertUsableQuery, type ParsedQuery } from '../http/strict-query';

const ID = /^[1-9][0-9]{0,9}$/;
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
const INT32_MAX = 2147483647;

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
}

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
  const { drift, keyLimit = NO_KEY_RATE_LIMIT, compression = { enabled: false, minBytes: 0 }, cache, onRefreshError = () => undefined, tracing } = options;
  const gapsOf = drift && ((resource: ResourceSpec) => drift.gapsOf(resource));
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
  const admitOnce = async (principal: Principal, kind: RequestKind, res: Response): Promise<Charge> => {
    const held = res.locals['rateCharge'] as Charge | undefined;
    if (held) return held;
    const charge = await keyLimit.admit(principal.keyId, kind, res);
    res.locals['rateCharge'] = charge;
    return charge;
  };

  /** Authenticates, checks the read right, runs `body`; a key the ERP stops accepting is forgotten. */
  const guarded = (resource: ResourceSpec, body: (principal: Principal, req: Request, res: Response) => Promise<void>): RequestHandler => {
    parserOf(resource);
    return async (req, res) => {
      recordRoute(req);
      const stats = erpStatsOf(res);
      const principal = await authenticateRequest(auth, failures, req, res);
      setErpUid(res, principal.uid);
      stats.lease = budget.lease();
      try {
        for (let attempt = 1; ; attempt++) {
          const gaps = drift?.gapsOf(resource);
          try {
            if (gaps?.unavailable) throw driftUnavailable(gaps.unavailable);
            await auth.assertCanRead(principal, resource.model, stats);
            await body(principal, req, res);
            return;
          } catch (error) {
            // The ERP said what it lacks (now, or for a request running alongside): ask again around it.
            if (drift && attempt <= RELEARN_ATTEMPTS) {
              drift.learnFrom(error);
              if (drift.gapsOf(resource) !== gaps) continue;
            }
            throw error;
          }
        }
      } catch (error) {
        if (error instanceof ErpFault && error.kind === 'access_denied') auth.evict(principal);
        throw error;
      } finally {
        // The answer is written (or the error is about to be): the ERP answers' memory is no longer held here.
        stats.lease.release();
      }
    };
  };

  const answer = createAnswerer(budget, cache, onRefreshError, compression, tracing);

  return {
    list: (resource) =>
      guarded(resource, async (principal, req, res) => {
        const raw = req.query as ParsedQuery;
        const parser = parserOf(resource);
        assertCountedQuery(raw);
        if (parser.knowsEveryKey(raw, 'list')) assertUsableQuery(raw);
        const format = listFormatOf(req, raw['format']);
        const parsed = parser.parseList(raw, format);
        const query = gapsOf ? servableListQuery(parsed, gapsOf(resource)) : parsed;
        const charge = await admitOnce(principal, query.total ? 'counted_list' : 'list', res);
        const headers = deprecationHeaders(resource, query.deprecated);
        if (format !== 'json' || query.changes) {
          // Exports and change-feed pages are never cached: they are read from the ERP as they are asked.
          setCacheOutcome(res, 'bypass');
          for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
          if (format !== 'json') return bulk.exporter.stream(principal, resource, query, format, req, res, erpStatsOf(res));
          const { bytes, etag } = encodeJson(await changePage(bulk.changes, principal, resource, query, erpStatsOf(res)));
          await sendEncoded(req, res, bytes, etag, compression);
          charge.settle(outcomeOf(res));
          return;
        }
        await answer(req, res, principal, resource, { kind: 'list', query }, gapsOf?.(resource), async (stats) => ({
          body: await reader.list(principal, resource, query, stats),
          headers,
        }));
        charge.settle(outcomeOf(res));
      }),
    detail: (resource) =>
      guarded(resource, async (principal, req, res) => {
        const raw = String(req.params['id']);
        if (!ID.test(raw) || Number(raw) > INT32_MAX) throw notFound(`No ${resource.path} record with id '${raw.slice(0, 32)}'.`);
        const rawQuery = req.query as ParsedQuery;
        const parser = parserOf(resource);
        assertCountedQuery(rawQuery);
        if (parser.knowsEveryKey(rawQuery, 'detail')) assertUsableQuery(rawQuery);
        const query = parser.parseDetail(rawQuery);
        const charge = await admitOnce(principal, 'detail', res);
        const id = Number(raw);
        const headers = deprecationHeaders(resource, query.deprecated);
        await answer(req, res, principal, resource, { kind: 'detail', id, query }, gapsOf?.(resource), async (stats) => ({
          body: { data: await reader.detail(principal, resource, id, query, stats) },
          headers,
        }));
        charge.settle(outcomeOf(res));
      }),
  };
}

const DEPRECATED: Readonly<Record<string, string>> = Object.freeze({ Deprecation: 'true' });
const NONE: Readonly<Record<string, string>> = Object.freeze({});

/** D28: a deprecated resource, or a deprecated field or filter asked for, says so in a header. */
function deprecationHeaders(resource: ResourceSpec, deprecated: readonly string[]): Readonly<Record<string, string>> {
  return resource.deprecated || deprecated.length ? DEPRECATED : NONE;
}
