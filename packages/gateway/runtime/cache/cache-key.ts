/**
 * @module The key of a cached answer: whose it is, of what, asked how. The account is the uid the
 * key resolves to (what the ERP answers depends on the account's rights, never on which of its keys
 * is used; the key itself never appears). The query is the parsed one, so that spellings of the same
 * question share an entry (`?a=1&b=2` and `?b=2&a=1`, `limit=050` and `limit=50`), and filters are
 * sorted (they are ANDed: their order changes nothing). The drift the resource is served around is
 * part of the key: an answer stored before the gateway learned some drift is never served after it.
 * The namespace names the ERP and the catalogue, so that a store shared by several gateways never
 * mixes answers of two ERPs or of two catalogue versions. The rest is hashed: keys stay short
 * (SHA-256, base64url) and hold no filter values.
 */
import { hash } from 'node:crypto';
import type { DriftGaps } from '../drift/drift-gaps';
import { canonicalJson } from '../erp/coalesce';
import type { DetailQuery, ListQuery } from '../query/parse-query';
import type { ResourceSpec } from '../resource-spec';

export type CachedQuery = { readonly kind: 'list'; readonly query: ListQuery } | { readonly kind: 'detail'; readonly id: number; readonly query: DetailQuery };

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
    ]);
    signatures.set(gaps, signature);
  }
  return signature;
}

function normalised(asked: CachedQuery): unknown {
  const fields = asked.query.fields.map((field) => field.name);
  if (asked.kind === 'detail') return ['detail', asked.id, fields];
  const { limit, offset, sinceId, total, order } = asked.query;
  const filters = asked.query.filters.map((term) => canonicalJson([term.filter.name, term.value])).sort();
  return ['list', limit, offset, sinceId ?? null, total, order, fields, filters];
}

export function cacheKeyOf(namespace: string, uid: number, resource: ResourceSpec, asked: CachedQuery, gaps: DriftGaps | undefined): string {
  const digest = hash('sha256', canonicalJson([resource.path, normalised(asked), driftSignature(gaps)]), 'base64url');
  return `${namespace}:${uid}:${digest}`;
}
