/**
 * @module The data API's routes: the generated tables (`generated/routers/`: per domain, each route's
 * path, kind and resource) mounted on the handler of each kind (guard.ts), one router per domain.
 */
import type { RequestHandler, Router } from 'express';
import { exactRouter } from '../http/exact-routing';
import type { ResourceSpec } from '../resource-spec';
import type { RouteKind } from '../route-kinds';

/** The handler of each kind of route (route-kinds.ts), for a resource. */
export type ResourceHandlers = { readonly [K in RouteKind]: (resource: ResourceSpec) => RequestHandler };

/** A route of the generated tables: its path under its domain's mount, the kind that serves it, the resource. */
export interface DataRoute {
  /** In Express's notation: `/trips`, `/trips/:id`. */
  readonly path: string;
  readonly kind: RouteKind;
  readonly resource: ResourceSpec;
}

/** A domain's routes and the path they are mounted at under `/api/v1`. */
export interface DomainRoutes {
  /** `/fleet`. */
  readonly mount: string;
  readonly routes: readonly DataRoute[];
}

/** The data API, to mount at `/api/v1`: a router per domain, each route on its kind's handler, in the tables' order. */
export function createDataRouter(domains: readonly DomainRoutes[], handlers: ResourceHandlers): Router {
  const api = exactRouter();
  for (const { mount, routes } of domains) {
    const router = exactRouter();
    for (const route of routes) router.get(route.path, handlers[route.kind](route.resource));
    api.use(mount, router);
  }
  return api;
}

/**
 * Whether a path (under `base`) is one a data route serves, spelled exactly: a parameter (`:id`)
 * stands for any one non-empty segment, as Express matches it.
 */
export function dataPathMatcher(base: string, domains: readonly DomainRoutes[]): (path: string) => boolean {
  const exact = new Set<string>();
  const parametrised: RegExp[] = [];
  for (const { mount, routes } of domains)
    for (const { path } of routes) {
      const full = `${base}${mount}${path}`;
      if (!full.includes(':')) exact.add(full);
      else
        parametrised.push(
          new RegExp(
            `^${full
              .split(/:[A-Za-z0-9_]+/)
              .map(escapeRegExp)
              .join('[^/]+')}$`,
          ),
        );
    }
  return (path) => exact.has(path) || parametrised.some((pattern) => pattern.test(path));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
