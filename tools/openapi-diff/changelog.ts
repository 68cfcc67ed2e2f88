/**
 * @module The changelog between two OpenAPI documents, from Redocly's changes: each change classed
 * breaking (a rule rated it `major`: route, field, filter or parameter removed, type changed, enum
 * value removed from a parameter or added to a response, a field become nullable, a parameter become
 * required...) or additive (everything else: new routes, fields and filters, wider inputs, prose), and
 * the gate's verdict: breaking changes pass only with a major version bump or an acknowledgement.
 */
import type { Acknowledgement } from './acknowledged';
import type { RedoclyChange } from './redocly-diff';

interface BreakingChange {
  /** `[rule] GET /api/v1/route: message`, the line an acknowledgement names. */
  readonly line: string;
}

interface AdditiveChange {
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

export interface Verdict {
  /** Breaking changes let through, each with what let it through. */
  readonly accepted: readonly { readonly change: BreakingChange; readonly by: string }[];
  /** Breaking changes without a major bump or an acknowledgement: the gate fails. */
  readonly refused: readonly BreakingChange[];
  /** Acknowledgements added since the base that matched no change (stale or mistyped). */
  readonly unused: readonly Acknowledgement[];
}

/**
 * `acknowledgements`: only the entries added since the base. An entry acknowledges the change made
 * with it; one already there at the base acknowledged an earlier change, and letting it through again
 * would silently accept the same break made anew.
 */
export function judge(changelog: Changelog, versions: { readonly base: string; readonly revision: string }, acknowledgements: readonly Acknowledgement[]): Verdict {
  const majorBump = majorOf(versions.revision) > majorOf(versions.base);
  const used = new Set<Acknowledgement>();
  const accepted: { change: BreakingChange; by: string }[] = [];
  const refused: BreakingChange[] = [];
  for (const change of changelog.breaking) {
    if (majorBump) {
      accepted.push({ change, by: `major version bump ${versions.base} -> ${versions.revision}` });
      continue;
    }
    const ack = acknowledgements.find((entry) => entry.matches(change.line));
    if (ack) {
      used.add(ack);
      accepted.push({ change, by: `acknowledged (line ${ack.line}): ${ack.reason}` });
    } else refused.push(change);
  }
  return { accepted, refused, unused: majorBump ? [] : acknowledgements.filter((entry) => !used.has(entry)) };
}

function majorOf(version: string): number {
  const major = Number(/^(\d+)\./.exec(version)?.[1]);
  return Number.isFinite(major) ? major : 0;
}
