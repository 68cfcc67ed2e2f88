/**
 * @module The generic list and detail handlers that every generated router registers its resources
 * on: authenticate, check the read right, parse the query, read, answer.
 */
import Ajv2020 from 'ajv/dist/2020';
import type { Request, RequestHandler, Response } from 'express';
import type { Authenticator, Principal } from '../auth';
import { driftUnavailable, servableListQuery, type DriftGaps } from '../drift/drift-gaps';
import { ErpFault } from '../erp/erp-error';
import { GatewayError, notFound } from '../errors';
import type { MemoryBudget } from '../erp/memory-budget';
import type { AuthFailureLimit, SettleCheck } from './auth-failure-limit';
import { QueryParser } from '../query/parse-query';
import type { ResourceHandlers } from '../resource-handlers';
import type { ResourceReader } from '../resource-reader';
import type { ResourceSpec } from '../resource-spec';
import { erpStatsOf } from './request-context';
import { recordRoute } from './request-log';
import { listFormatOf } from './list-format';
import { sendJson } from './send-json';
import type { Exporter } from '../export/exporter';
import { changePage, type ChangeFeed } from '../changes/change-feed';
import { assertCountedQuery, assertUsableQuery, type ParsedQuery } from './strict-query';

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
export interface DriftView {
  gapsOf(resource: ResourceSpec): DriftGaps;
  /** Records what an ERP error says the ERP lacks; `gapsOf` then answers anew. */
  learnFrom(error: unknown): boolean;
}
const INT32_MAX = 2147483647;

export function createResourceHandlers(
  auth: Authenticator,
  reader: ResourceReader,
  failures: AuthFailureLimit,
  /** What ERP answers in flight may hold in all; each request takes a lease, given back once it has answered. */
  budget: MemoryBudget,
  /** Exports (CSV, NDJSON) and the change feed. */
  bulk: { readonly exporter: Exporter; readonly changes: ChangeFeed },
  /** Catalogue drift (DRIFT_CHECK=warn), found at start-up or learned from the ERP's errors: a resource whose model is gone answers 503. */
  drift?: DriftView,
): ResourceHandlers {
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

  /** Authenticates, checks the read right, runs `body`; a key the ERP stops accepting is forgotten. */
  const guarded = (resource: ResourceSpec, body: (principal: Principal, req: Request, res: Response) => Promise<void>): RequestHandler => {
    parserOf(resource);
    return async (req, res) => {
      recordRoute(req);
      const stats = erpStatsOf(res);
      const address = req.ip ?? 'unknown';
      let principal: Principal;
      let askedErp = false;
      const begin = (): SettleCheck => {
        const settle = failures.begin(address);
        askedErp = true;
        return settle;
      };
      try {
        principal = await auth.authenticate(req.headers.authorization, stats, begin);
      } catch (error) {
        // A refusal the ERP gave was counted when it settled; one without the ERP is counted here.
        if (!askedErp && error instanceof GatewayError && error.code === 'unauthorized') failures.recordFailure(address);
        throw error;
      }
      res.locals['keyId'] = principal.keyId;
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
        if (resource.deprecated || query.deprecated.length) res.setHeader('Deprecation', 'true');
        if (format !== 'json') return bulk.exporter.stream(principal, resource, query, format, req, res, erpStatsOf(res));
        if (query.changes) return sendJson(req, res, await changePage(bulk.changes, principal, resource, query, erpStatsOf(res)));
        sendJson(req, res, await reader.list(principal, resource, query, erpStatsOf(res)));
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
        const record = await reader.detail(principal, resource, Number(raw), query, erpStatsOf(res));
        if (resource.deprecated || query.deprecated.length) res.setHeader('Deprecation', 'true');
        sendJson(req, res, { data: record });
      }),
  };
}
