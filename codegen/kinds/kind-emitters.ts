/**
 * @module Every kind of data route the generator emits, registered against its declaration in the
 * runtime (route-kinds.ts, whose types only it imports): a kind declared there and missing here fails
 * the type check. The order here is the order of each resource's routes in the routers and the
 * OpenAPI document; a route with a fixed path must come before one whose parameter would take it
 * (`/aggregate` before `/:id`), which `routesOf` checks.
 */
import type { RouteKind } from '../../packages/gateway/runtime/route-kinds';
import type { ToolDefinition } from '../emit/mcp-tool-parts';
import type { CatalogueModel, ResourceModel } from '../model/catalogue-model';
import { AGGREGATE } from './aggregate/aggregate-kind';
import { DETAIL } from './detail/detail-kind';
import { EXPORT } from './export/export-kind';
import type { KindEmitter } from './kind-emitter';
import { LIST } from './list/list-kind';

export const KIND_EMITTERS: { readonly [K in RouteKind]: KindEmitter<K> } = {
  list: LIST,
  export: EXPORT,
  aggregate: AGGREGATE,
  detail: DETAIL,
};

const KINDS = Object.keys(KIND_EMITTERS) as RouteKind[];

/** A route of a resource, as every emitter names it. */
export interface ResourceRoute {
  readonly kind: RouteKind;
  readonly emitter: KindEmitter<RouteKind>;
  /** Under the domain's mount, in Express's notation: `/trips/:id`. */
  readonly path: string;
  /** In full, in the OpenAPI notation: `/api/v1/fleet/trips/{id}`. */
  readonly openApiPath: string;
}

/** The routes of a resource, one per kind that applies to it, in the registry's order. */
export function routesOf(resource: ResourceModel): ResourceRoute[] {
  const routes: ResourceRoute[] = [];
  for (const kind of KINDS) {
    const emitter: KindEmitter<RouteKind> = KIND_EMITTERS[kind];
    if (emitter.applies && !emitter.applies(resource)) continue;
    const path = `/${resource.name}${emitter.path}`;
    const shadowing = routes.find((earlier) => takes(earlier.path, path));
    if (shadowing) throw new Error(`codegen/kinds: the ${shadowing.kind} route ${shadowing.path} would take the requests of the ${kind} route ${path}: register ${kind} before it`);
    routes.push({ kind, emitter, path, openApiPath: `/api/v1/${resource.domain}${path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}` });
  }
  return routes;
}

/** Whether Express, trying `earlier` first, would match every request for `later` there. */
function takes(earlier: string, later: string): boolean {
  const pattern = new RegExp(
    `^${earlier
      .split(/:[A-Za-z0-9_]+/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}$`,
  );
  return pattern.test(later);
}

/** The MCP tools of every kind: the whole catalogue's first, then each domain's, kind by kind. */
export function kindTools(model: CatalogueModel): ToolDefinition[] {
  const emitters = KINDS.map((kind) => KIND_EMITTERS[kind] as KindEmitter<RouteKind>);
  return [
    ...emitters.flatMap((emitter) => emitter.mcp.catalogueTools?.(model) ?? []),
    ...emitters.flatMap((emitter) => model.domains.flatMap((domain) => emitter.mcp.domainTools?.(domain) ?? [])),
  ];
}
