/**
 * @module Searches on a display name, for the models whose Odoo `_search_display_name` does more
 * than compare its `_rec_names_search` fields: the override, written as the domain it returns, and
 * the building blocks it needs (Odoo's default search, `Domain.OR` / `Domain.AND`).
 */
import { FALSE_NODE, TRUE_NODE, type DomainLeaf, type DomainNode } from './domain-parse';
import { pyTruthy } from './python';
import type { OrmTraits } from './version-traits';

/**
 * A model's `_search_display_name(operator, value)`: the domain on the model that a condition on
 * its display name becomes, the operator and value as the version hands them over
 * (`traits.equalityAsSet`: `=` is `in` over a list). `undefined` is Odoo's `NotImplemented`: the positive operator is searched and
 * the result negated.
 */
export type SearchDisplayName = (operator: string, value: unknown, traits: OrmTraits) => DomainNode | undefined;

export const NEGATIVE_OPERATORS: ReadonlySet<string> = new Set(['!=', 'not like', 'not ilike', 'not =like', 'not =ilike', 'not in']);

export function leaf(path: string, operator: string, value: unknown): DomainLeaf {
  return { kind: 'leaf', path, operator, value };
}

/** `Domain.OR`: false when empty. */
export function anyOf(nodes: readonly DomainNode[]): DomainNode {
  if (!nodes.length) return FALSE_NODE;
  return nodes.length === 1 ? nodes[0]! : { kind: 'or', children: nodes };
}

/** `Domain.AND`: true when empty. */
export function allOf(nodes: readonly DomainNode[]): DomainNode {
  if (!nodes.length) return TRUE_NODE;
  return nodes.length === 1 ? nodes[0]! : { kind: 'and', children: nodes };
}

/**
 * Odoo's default `_search_display_name`: every `_rec_names_search` field compared alike, OR-ed
 * (AND-ed for a negative operator); a `like` on nothing matches everything (nothing when negative).
 */
export function recNamesSearch(fields: readonly string[], operator: string, value: unknown): DomainNode {
  const negative = NEGATIVE_OPERATORS.has(operator);
  if (operator.endsWith('like') && !operator.includes('=') && !pyTruthy(value)) return negative ? FALSE_NODE : TRUE_NODE;
  const leaves = fields.map((field) => leaf(field, operator, value));
  return negative ? allOf(leaves) : anyOf(leaves);
}
