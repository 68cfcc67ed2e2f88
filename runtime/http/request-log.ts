/**
 * @module One log line per request: method, route template, query keys, status, duration, ERP calls
 * (sent, and shared with a request that sent them) and time in them, what the response cache did,
 * the key's short hash id. Never the key, the query values, the raw path or record
 * data (they may be personal: a path may hold an e-mail address or a key pasted by mistake).
 */
import type { Request, RequestHandler } from 'express';
import type { Logger } from '../log';
import { cacheOutcomeOf, erpStatsOf } from './request-context';

export function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.on('finish', () => {
      const stats = erpStatsOf(res);
      const keys = queryKeysOf(req.originalUrl);
      const line = {
        method: req.method,
        route: routeOf(req),
        ...(keys.length ? { query_keys: keys } : {}),
        status: res.statusCode,
        ms: Math.round((performance.now() - started) * 100) / 100,
        erp_calls: stats.calls,
        // Answers taken from an identical call another request had in flight (coalesce.ts): not sent again.
        ...(stats.shared ? { erp_shared: stats.shared } : {}),
        erp_ms: Math.round(stats.ms * 100) / 100,
        // What the response cache did: hit, stale, miss, bypass or off (response-cache.ts).
        ...(cacheOutcomeOf(res) ? { cache: cacheOutcomeOf(res) } : {}),
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
 * The route template that served the request, in full (`/api/v1/fleet/trips/:id`), or `(no route)`:
 * the path of a request no route matched is client input and is not logged. Express forgets the
 * mount path once a router is left, so a data handler records its template as it starts
 * (`recordRoute`); a route without parameters (documents, health) is its own path.
 */
export function routeOf(req: Request): string {
  const recorded = (req.res?.locals['route'] as string | undefined) ?? undefined;
  if (recorded) return recorded;
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path !== 'string') return '(no route)';
  return path.includes(':') ? path : req.originalUrl.split('?')[0]?.toLowerCase().replace(/\/+$/, '') || '/';
}

/** Called by a handler while Express still knows where its router is mounted. */
export function recordRoute(req: Request): void {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (req.res && typeof path === 'string') req.res.locals['route'] = `${req.baseUrl}${path === '/' ? '' : path}`;
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
