/**
 * @module What the generator makes of a kind of data route (route-kinds.ts in the runtime declares
 * the kinds): its path, its query schema, its OpenAPI operation, its MCP tools and how the docs page
 * and llms.txt name it. One folder per kind (list/, detail/), registered in kind-emitters.ts.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { RouteKind, RouteKinds } from '../../packages/gateway/runtime/route-kinds';
import type { ToolDefinition } from '../emit/mcp-tool-parts';
import type { CatalogueModel, DomainModel, ResourceModel } from '../model/catalogue-model';

export interface KindEmitter<K extends RouteKind> {
  /**
   * The route's path after the resource's, in Express's notation, as route-kinds.ts declares it: the
   * type is the declared literal, so the two cannot differ.
   */
  readonly path: RouteKinds[K]['path'];
  /** How the docs page's resource card and llms.txt name the route: `List`, `Detail`. */
  readonly label: string;
  /** Whether a resource has this route; absent: every resource has it. */
  applies?(resource: ResourceModel): boolean;
  /** JSON Schema of the route's raw query string, as the runtime's ajv checks it (the spec's `<kind>QuerySchema`). */
  querySchema(resource: ResourceModel): object;
  /** The route's operation in the OpenAPI document. */
  operation(resource: ResourceModel): OpenAPIV3_1.OperationObject;
  /** Lines the docs page's resource card adds under the route: a label and the names it lists (`Group by`: dimensions). */
  cardRows?(resource: ResourceModel): readonly (readonly [string, readonly string[]])[];
  /** The request the docs page's "Try it" button of the route sends, if it has one. */
  tryPath?(resource: ResourceModel): string;
  /** The MCP tools that call the route: tools for the whole catalogue, or tools of each domain. */
  readonly mcp: {
    catalogueTools?(model: CatalogueModel): ToolDefinition[];
    domainTools?(domain: DomainModel): ToolDefinition[];
  };
}
