/**
 * @module One log line per request: method, route, status, duration, ERP calls and time in them, the
 * key's short hash id. Never the key, the query values or record data (they may be personal).
 */
import type { RequestHandler } from 'express';
import type { Logger } from '../log';
import { maskSecrets } from './mask-secrets';
import { erpStatsOf } from './request-context';

export function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.on('finish', () => {
      const stats = erpStatsOf(res);
      const line = {
        method: req.method,
        route: (req.route as { path?: string } | undefined)?.path ?? loggablePath(req.path),
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

/**
 * The path of a request no route matched, fit for the log: it is client input, so it is cut short
 * (it may be huge) and anything looking like a key or an e-mail address is masked.
 */
export function loggablePath(path: string): string {
  return maskSecrets(path.length > 120 ? `${path.slice(0, 120)}…` : path);
}
