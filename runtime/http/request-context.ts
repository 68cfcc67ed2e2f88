/**
 * @module Per-request state shared by the middleware: ERP accounting, the key's short id, what the
 * response cache did for the request and whether the request deadline has already answered, kept in `res.locals` so the request's log line and the
 * error handler can see them.
 */
import type { Response } from 'express';
import type { CacheOutcome } from '../cache/response-cache';
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

/** Records what the response cache did for this request (the log line's `cache`; later metrics read it too). */
export function setCacheOutcome(res: Response, outcome: CacheOutcome): void {
  res.locals['cacheOutcome'] = outcome;
}

/** What the response cache did for this request; undefined for requests it never saw (errors before the read, documents, health). */
export function cacheOutcomeOf(res: Response): CacheOutcome | undefined {
  return res.locals['cacheOutcome'] as CacheOutcome | undefined;
}
