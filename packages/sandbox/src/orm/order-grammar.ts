/**
 * @module The grammar of `order` strings, as Odoo's `regex_order` (17/18 also accept a field name
 * in double quotes; 19 does not). Shared by the order compiler and the registry's checks.
 */
import type { OdooVersion } from './types';
import { ormTraits } from './version-traits';

const TERM = String.raw`\s*(?<field>[a-z0-9_]+|"[a-z0-9_]+")(?:\.(?<property>[a-z0-9_]+))?(?::(?<func>[a-z_]+))?(?:\s+(?<direction>desc|asc))?(?:\s+(?<nulls>nulls first|nulls last))?\s*`;
const TERM_19 = TERM.replace('[a-z0-9_]+|"[a-z0-9_]+"', '[a-z0-9_]+');

const WHOLE = (term: string) => new RegExp(`^(?:${term.replace(/\?<\w+>/g, '')}(?:,|$))+(?<!,)$`, 'i');
const PART = (term: string) => new RegExp(`^${term}(?:,|$)`, 'i');

const GRAMMAR = {
  quoted: { whole: WHOLE(TERM), part: PART(TERM) },
  plain: { whole: WHOLE(TERM_19), part: PART(TERM_19) },
};

export interface OrderTerm {
  /** As written, quotes included (17/18 accept `"name"` in the grammar, then fail to find it). */
  readonly field: string;
  readonly property?: string;
  readonly direction?: 'ASC' | 'DESC';
  readonly nulls?: 'NULLS FIRST' | 'NULLS LAST';
}

/** Terms of a valid order string, or `undefined` when it fails the version's grammar. */
export function parseOrder(order: string, version: OdooVersion): OrderTerm[] | undefined {
  const grammar = GRAMMAR[ormTraits(version).orderGrammar];
  if (!grammar.whole.test(order)) return undefined;
  return order.split(',').map((part) => {
    const groups = grammar.part.exec(part)?.groups ?? {};
    const term: { -readonly [K in keyof OrderTerm]: OrderTerm[K] } = { field: groups['field'] ?? '' };
    if (groups['property']) term.property = groups['property'];
    if (groups['direction']) term.direction = groups['direction'].toUpperCase() as OrderTerm['direction'];
    if (groups['nulls']) term.nulls = groups['nulls'].toUpperCase() as OrderTerm['nulls'];
    return term;
  });
}
