/**
 * @module One log line per request: method, route, status, duration, ERP calls and time in them, the
 * key's short hash id. Never the key, the query values or record data (they may be personal).
 */
import type { RequestHandler } from 'express';
import type { Logger } from '../log';
import { erpStatsOf } from './request-context';

export function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.on('finish', () => {
      const stats = erpStatsOf(res);
      const line = {
        method: req.method,
        route: (req.route as { path?: string } | undefined)?.path ?? routeOf(req.path),
        status: res.statusCode,
        ms: Math.round((performance.now() - started) * 100) / 100,
        erp_calls: stats.calls,
        erp_ms: Math.round(stats.ms * 100) / 100,
        ...(res.locals['keyId'] ? { key_id: res.locals['keyId'] as string } : {}),
        ...(res.locals['erpError'] ? { erp_error: res.locals['erpError'] as string } : {}),
      };
      if (res.statusCode >= 500) log.error(line, 'request');
      else log.info(line, 'request');
    });
    next();
  };
}

/** Paths of unmatched requests are cut short: they are client input, and may be huge. */
function routeOf(path: string): string {
  return path.length > 120 ? `${path.slice(0, 120)}…` : path;
}
