/**
 * @module The changelog between two OpenAPI documents, from Redocly's changes: each change classed
 * breaking (a rule rated it `major`: route, field, filter or parameter removed, type changed, enum
 * value removed from a parameter or added to a response, a field become nullable, a parameter become
 * required...) or additive (everything else: new routes, fields and filters, wider inputs, prose).
 * The generator prints it as it regenerates (codegen/index.ts, the dev loop); the breaking-change gate
 * (`make openapi-diff`, tools/openapi-diff/) judges it against the version and the acknowledgements.
 */
import type { RedoclyChange } from './redocly-diff';

export interface BreakingChange {
  /** `[rule] GET /api/v1/route: message`, the line an acknowledgement names. */
  readonly line: string;
}

export interface AdditiveChange {
  /** `added responses/304` (what changed, by its place in an operation or in the components). */
  readonly what: string;
  /** The routes it was found on (`GET /api/v1/...`), or `components`. */
  readonly routes: readonly string[];
}

export interface Changelog {
  readonly breaking: readonly BreakingChange[];
  readonly additive: readonly AdditiveChange[];
}

/**
 * `documents`: the two OpenAPI documents compared (revision first). Redocly places a change by the
 * first route that reaches it; a record's schema is also reached through the routes that embed it as
 * a relation (`expand`), so a change inside a record's schema is placed on that record's own list
 * route when the documents have one: the line an acknowledgement names, and the route a changelog
 * shows, stay the same whatever relations reach the record.
 */
export function changelogOf(changes: readonly RedoclyChange[], documents: readonly unknown[] = []): Changelog {
  const breaking = new Set<string>();
  const additive = new Map<string, string[]>();
  const ownRoutes = recordRoutes(documents);
  for (const change of changes) {
    const { route, where } = placeOf(homeOf(change.path, documents, ownRoutes));
    if (change.impact === 'major') {
      for (const verdict of change.verdicts) breaking.add(`[${verdict.ruleId}] ${route}: ${verdict.message}`);
      if (change.verdicts.length === 0) breaking.add(`[${change.kind}] ${route}: ${where}`);
      continue;
    }
    const what = `${change.kind} ${where}${change.property ? ` (${change.property})` : ''}`;
    const routes = additive.get(what) ?? [];
    if (!routes.includes(route)) routes.push(route);
    additive.set(what, routes);
  }
  return { breaking: [...breaking].map((line) => ({ line })), additive: [...additive].map(([what, routes]) => ({ what, routes })) };
}

/** Each record schema's own list route (`FleetVehiclesRecord` → `GET /api/v1/fleet/vehicles`), from the first document that has it. */
function recordRoutes(documents: readonly unknown[]): ReadonlyMap<string, string> {
  const routes = new Map<string, string>();
  for (const document of documents) {
    const paths = (document as { paths?: Record<string, { get?: unknown }> } | null)?.paths ?? {};
    for (const [path, item] of Object.entries(paths)) {
      const ref = (item.get as { responses?: Record<string, { content?: Record<string, { schema?: { properties?: { data?: { items?: { $ref?: string } } } } }> }> } | undefined)
        ?.responses?.['200']?.content?.['application/json']?.schema?.properties?.data?.items?.$ref;
      const name = ref?.split('/').pop();
      if (name && !routes.has(name)) routes.set(name, `GET ${path}`);
    }
  }
  return routes;
}

/**
 * The pointer of a change, moved to the own list route of the deepest record schema it passes through
 * (`.../alerts/.../vehicle_record/anyOf/0/properties/colour` → `.../vehicles/.../data/items/properties/colour`).
 * Redocly's pointers go through `$ref`s as if they were not there; they are followed here in the
 * first document that has the path.
 */
function homeOf(pointer: string, documents: readonly unknown[], ownRoutes: ReadonlyMap<string, string>): string {
  const parts = pointer.replace(/^#\/?/, '').split('/');
  for (const document of documents) {
    let node: unknown = document;
    let record: { name: string; rest: number } | undefined;
    let found = true;
    for (let i = 0; i < parts.length && found; i++) {
      const key = (parts[i] as string).replace(/~1/g, '/').replace(/~0/g, '~');
      for (let hops = 0; hops < 8 && node && typeof node === 'object' && !(key in node) && typeof (node as { $ref?: unknown }).$ref === 'string'; hops++) {
        const ref = (node as { $ref: string }).$ref;
        const name = ref.split('/').pop() as string;
        if (ownRoutes.has(name)) record = { name, rest: i };
        node = ref
          .replace(/^#\//, '')
          .split('/')
          .reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], document);
      }
      if (node && typeof node === 'object' && key in node) node = (node as Record<string, unknown>)[key];
      else found = false;
    }
    if (!found) continue;
    if (!record) return pointer;
    const own = (ownRoutes.get(record.name) as string).slice('GET '.length).replace(/~/g, '~0').replace(/\//g, '~1');
    return `#/paths/${own}/get/responses/200/content/application~1json/schema/properties/data/items/${parts.slice(record.rest).join('/')}`;
  }
  return pointer;
}

/** `#/paths/~1api~1v1~1fleet~1vehicles/get/parameters/9` → `GET /api/v1/fleet/vehicles` and `parameters/9`. */
function placeOf(pointer: string): { route: string; where: string } {
  const parts = pointer
    .replace(/^#\/?/, '')
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (parts[0] === 'paths' && parts.length >= 2) {
    const method = parts[2];
    const route = method ? `${method.toUpperCase()} ${parts[1]}` : (parts[1] as string);
    return { route, where: parts.slice(3).join('/') || (method ? 'operation' : 'route') };
  }
  return { route: parts[0] ?? 'document', where: parts.slice(1).join('/') || 'document' };
}

/** Additive changes found on more routes than this are said as a count. */
const ROUTES_SHOWN = 3;

/** `added responses/304 on GET /api/v1/fleet/vehicles`: one additive change, as the changelog prints it. */
export function additiveLine(change: AdditiveChange): string {
  return `${change.what} on ${change.routes.length > ROUTES_SHOWN ? `${change.routes.length} routes` : change.routes.join(', ')}`;
}
