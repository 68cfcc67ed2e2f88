/**
 * @module Per-request state shared by the middleware: ERP accounting and the key's short id, kept in
 * `res.locals` so the request's log line can report them.
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
