/**
 * @module Per-request state shared by the middleware: ERP accounting, the key's short id and whether
 * the request deadline has already answered, kept in `res.locals` so the request's log line and the
 * error handler can see them.
 */
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
