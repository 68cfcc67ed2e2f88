/**
 * @module Per-request state shared by the middleware: ERP accounting, the key's short id, the ERP
 * account, the cache outcome and whether the request deadline has already answered, kept in
 * `res.locals` so the request's log line, `Server-Timing` and the error handler can see them. The
 * request's identity (its id and trace context) is also held in an AsyncLocalStorage scope, so that
 * every log line written while the request is served carries its id, and every ERP call it makes
 * carries its id and trace context on the wire, without each signature passing them along.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Span } from '@opentelemetry/api';
import type { Response } from 'express';
import { ErpStats } from '../erp/erp-client';

export function erpStatsOf(res: Response): ErpStats {
  let stats = res.locals['erpStats'] as ErpStats | undefined;
  if (!stats) {
    stats = new ErpStats();
    res.locals['erpStats'] = stats;
  }
  return stats;
}

/** The request deadline answered 504; `reason` goes to the request's log line. */
export function markDeadlineExpired(res: Response, reason: string): void {
  res.locals['deadlineExpired'] = true;
  res.locals['erpError'] = reason;
}

/** True once the deadline has answered for the handler: whatever the handler does later is moot. */
export function deadlineExpired(res: Response): boolean {
  return res.locals['deadlineExpired'] === true;
}

/**
 * What the cache did for a request (the access log's `cache`): `hit` fresh answer, `stale` answer
 * past its TTL within the stale window (a refresh was started), `miss` read from the ERP and offered
 * to the store, `bypass` read from the ERP and not offered (larger than the cache keeps), `off` the
 * resource is not cached. A store that cannot keep an answer (the memory budget is full of answers
 * in flight) drops it silently: the next request is a miss again.
 */
export type CacheOutcome = 'hit' | 'stale' | 'miss' | 'bypass' | 'off';
/** Every outcome, for the metrics' labels; without a response cache every answer is `off`. */
export const CACHE_OUTCOMES: readonly CacheOutcome[] = ['hit', 'miss', 'stale', 'bypass', 'off'];

/**
 * For the response cache to call once it knows what it did with the request.
 * @public
 */
export function setCacheOutcome(res: Response, outcome: CacheOutcome): void {
  res.locals['cacheOutcome'] = outcome;
}

export function cacheOutcomeOf(res: Response): CacheOutcome {
  return (res.locals['cacheOutcome'] as CacheOutcome | undefined) ?? 'off';
}

/** The ERP account (uid) the request's key resolves to: logged instead of anything about the key. */
export function setErpUid(res: Response, uid: number): void {
  res.locals['erpUid'] = uid;
}

export function erpUidOf(res: Response): number | undefined {
  return res.locals['erpUid'] as number | undefined;
}

/** Who a request is, for as long as it is served: its id and the trace context it carries. */
export interface RequestScope {
  /** The client's `X-Request-Id` when it is a safe token, else one made here. */
  readonly id: string;
  /** The W3C trace context to pass on to the ERP (`traceparent`, `tracestate`), when there is one. */
  readonly trace: TraceContext | undefined;
  /** The request's span, when tracing is on (telemetry/tracing.ts). */
  span: Span | undefined;
}

/** A W3C trace context: `traceparent` split into its parts, and `tracestate` as received. */
export interface TraceContext {
  readonly traceId: string;
  readonly parentId: string;
  readonly flags: string;
  readonly state: string | undefined;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/** Runs `next` (the rest of the request's middleware) in the request's scope. */
export function runInScope(scope: RequestScope, next: () => void): void {
  scopes.run(scope, next);
}

/** The scope of the request being served, if any (undefined outside a request: start-up, drift check). */
export function currentScope(): RequestScope | undefined {
  return scopes.getStore();
}
