/**
 * @module The key of a cached answer: whose it is, of what, asked how. The account is the uid the
 * key resolves to (what the ERP answers depends on the account's rights, never on which of its keys
 * is used; the key itself never appears). The query is the one the route's kind parsed and
 * normalised (data-routes/kinds/: spellings of the same question share an entry), led by the kind's
 * name. The drift the resource is served around is part of the key: an answer stored before the
 * gateway learned some drift is never served after it. The namespace names the ERP and the
 * catalogue, so that a store shared by several gateways never mixes answers of two ERPs or of two
 * catalogue versions. With change detection, the generation of each model the answer depends on
 * is part of it too (change-watch.ts): a change seen makes every older answer unreachable. The rest is hashed: keys stay short (SHA-256, base64url) and hold no filter
 * values.
 */
import { hash } from 'node:crypto';
import type { DriftGaps } from '../drift/drift-gaps';
import { canonicalJson } from '../erp/coalesce';
import type { ResourceSpec } from '../resource-spec';
import type { RouteKind } from '../route-kinds';

/** What a request asks, as its kind normalised it for the key: the kind first, then its own terms. */
export type CachedQuery = readonly [kind: RouteKind, ...normalised: unknown[]];

const signatures = new WeakMap<DriftGaps, string>();

/** The drift a resource is served around, as text (empty without drift); computed once per gaps object. */
function driftSignature(gaps: DriftGaps | undefined): string {
  if (!gaps) return '';
  let signature = signatures.get(gaps);
  if (signature === undefined) {
    const sorted = (values: Iterable<string>) => [...values].sort();
    signature = canonicalJson([
      gaps.unavailable ?? null,
      sorted(gaps.erpFields),
      sorted(gaps.apiFields),
      sorted(gaps.filters.keys()),
      sorted(gaps.sortKeys.keys()),
      sorted(gaps.defaultOrderDrops),
      sorted(gaps.aggregates.keys()),
    ]);
    signatures.set(gaps, signature);
  }
  return signature;
}

/** `generation`: the generations of the models the answer depends on (change-watch.ts); '' when not watched. */
export function cacheKeyOf(namespace: string, uid: number, resource: ResourceSpec, asked: CachedQuery, gaps: DriftGaps | undefined, generation = ''): string {
  const digest = hash('sha256', canonicalJson([resource.path, asked, driftSignature(gaps), generation]), 'base64url');
  return `${namespace}:${uid}:${digest}`;
}
