/**
 * @module The route template that served a request, in full and in the OpenAPI form
 * (`/api/v1/fleet/trips/{id}`): what the access log, the metrics and the traces name a request by.
 * Never the raw path: it is client input (it may hold an e-mail address or a key pasted by mistake)
 * and would make every id a metric label of its own.
 */
import type { Request } from 'express';

/** What a request no route served is named: one value, whatever its path. */
export const NO_ROUTE = '(no route)';

/**
 * The recorded template, or the matched route's own path for routes without parameters (documents,
 * health), or NO_ROUTE. Express forgets the mount path once a router is left, so a data handler
 * records its template as it starts (`recordRoute`); a route without parameters is mounted at a
 * fixed place, so its mount path and its path are known together while it runs.
 */
export function routeOf(req: Request): string {
  const recorded = req.res?.locals['route'] as string | undefined;
  if (recorded) return recorded;
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path !== 'string') return NO_ROUTE;
  return templateOf(req.baseUrl, path);
}

/** Called by a handler (or a route's first middleware) while Express still knows where its router is mounted. */
export function recordRoute(req: Request): void {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (req.res && typeof path === 'string') req.res.locals['route'] = templateOf(req.baseUrl, path);
}

/** `/api/v1/fleet` + `/trips/:id` → `/api/v1/fleet/trips/{id}`. */
function templateOf(base: string, path: string): string {
  const joined = `${base.toLowerCase()}${path === '/' ? '' : path}` || '/';
  return joined.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
