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

export function changelogOf(changes: readonly RedoclyChange[]): Changelog {
  const breaking = new Set<string>();
  const additive = new Map<string, string[]>();
  for (const change of changes) {
    const { route, where } = placeOf(change.path);
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
