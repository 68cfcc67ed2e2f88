/**
 * @module What every request leaves behind, written once it has answered: one access log line (its
 * id, method, full route template, query keys, status, duration, ERP calls and time, cache outcome,
 * ERP account uid and the key's short hash id), its metrics and the end of its trace span. Never the
 * key, the query values, the raw path or record data (they may be personal: a path may hold an
 * e-mail address or a key pasted by mistake).
 *
 * It also gives the request its identity before anything else runs: the request id (echoed in
 * `X-Request-Id` on every answer) and the trace context, held in the request's scope so that every
 * log line and ERP call of the request carries them.
 */
import type { RequestHandler, Response } from 'express';
import type { Logger } from '../log';
import type { GatewayMetrics } from '../telemetry/metrics';
import type { Tracing } from '../telemetry/tracing';
import { cacheOutcomeOf, erpStatsOf, erpUidOf, runInScope, type RequestScope } from '../request/request-context';
import { requestIdOf, traceContextOf } from '../request/request-id';
import { routeOf } from '../request/route-template';

export interface RequestTelemetry {
  readonly metrics?: GatewayMetrics | undefined;
  readonly tracing?: Tracing | undefined;
}

export function requestLog(log: Logger, telemetry: RequestTelemetry = {}): RequestHandler {
  const { metrics, tracing } = telemetry;
  return (req, res, next) => {
    const started = performance.now();
    res.locals['startedAt'] = started;
    const scope: RequestScope = { id: requestIdOf(req.headers), trace: traceContextOf(req.headers), span: undefined };
    res.setHeader('X-Request-Id', scope.id);
    if (tracing) {
      const span = tracing.startRequest(req.method, scope.trace);
      scope.span = span;
      // A client that goes away before its answer is written: the span still ends (its status then is 0).
      res.once('close', () => {
        if (!res.writableFinished) tracing.endRequest(span, req.method, routeOf(req), 0, { 'odg.request_id': scope.id, 'odg.client_gone': true });
      });
    }
    res.once('finish', () => {
      const ms = performance.now() - started;
      const route = routeOf(req);
      const stats = erpStatsOf(res);
      // Only data requests have a cache outcome worth counting; the route is recorded by their handler.
      const dataRequest = res.locals['route'] !== undefined;
      const cache = cacheOutcomeOf(res);
      const keys = queryKeysOf(req.originalUrl);
      const uid = erpUidOf(res);
      const traceId = scope.span?.spanContext().traceId ?? scope.trace?.traceId;
      const line = {
        request_id: scope.id,
        method: req.method,
        route,
        ...(keys.length ? { query_keys: keys } : {}),
        status: res.statusCode,
        ms: hundredths(ms),
        erp_calls: stats.calls,
        // Answers taken from an identical call another request had in flight (coalesce.ts): not sent again.
        ...(stats.shared ? { erp_shared: stats.shared } : {}),
        // The wall time the request waited for the ERP, calls in parallel counted once: never above `ms`.
        erp_ms: hundredths(stats.ms),
        ...(dataRequest ? { cache } : {}),
        ...(uid !== undefined ? { erp_uid: uid } : {}),
        ...(res.locals['keyId'] ? { key_id: res.locals['keyId'] as string } : {}),
        ...(res.locals['erpError'] ? { erp_error: res.locals['erpError'] as string } : {}),
        ...(traceId ? { trace_id: traceId } : {}),
      };
      if (res.statusCode >= 500) log.error(line, 'request');
      else log.info(line, 'request');
      if (metrics) {
        metrics.requestDone(route, req.method, res.statusCode, ms / 1000);
        if (dataRequest) metrics.cacheAnswer(cache);
      }
      if (scope.span)
        tracing?.endRequest(scope.span, req.method, route, res.statusCode, {
          'odg.request_id': scope.id,
          'odg.erp_calls': stats.calls,
          ...(dataRequest ? { 'odg.cache': cache } : {}),
        });
    });
    runInScope(scope, next);
  };
}

/**
 * `Server-Timing` of a data answer: how long the request has run so far, split into `erp`, the wall
 * time it waited for the ERP (calls in parallel counted once, so never more than the time so far:
 * ErpStats), and `gw`, the rest. Both are rounded so that they add up to the time so far.
 */
export function serverTimingOf(res: Response): string {
  const started = res.locals['startedAt'] as number | undefined;
  const stats = erpStatsOf(res);
  const total = hundredths(started === undefined ? 0 : performance.now() - started);
  const erp = hundredths(stats.ms);
  const gateway = (Math.round(total * 100) - Math.round(erp * 100)) / 100;
  return `erp;dur=${erp.toFixed(2)};desc="ERP calls: ${stats.calls}", gw;dur=${gateway.toFixed(2)};desc="gateway", cache;desc=${cacheOutcomeOf(res)}`;
}

/** Milliseconds to two decimals, as the log line and `Server-Timing` give them. */
function hundredths(ms: number): number {
  return Math.round(ms * 100) / 100;
}

const KEY_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const MAX_LOGGED_KEYS = 30;

/** The names of the query parameters (never their values); a name that is not a plain word shows as `?`. */
function queryKeysOf(url: string): string[] {
  const at = url.indexOf('?');
  if (at < 0) return [];
  const keys: string[] = [];
  for (const pair of url.slice(at + 1).split('&')) {
    if (pair === '') continue;
    if (keys.length === MAX_LOGGED_KEYS) {
      keys.push('…');
      break;
    }
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    keys.push(KEY_NAME.test(name) ? name : '?');
  }
  return keys;
}
