/**
 * @module Builds the ERP domain of a request: the resource's scope, the client's filters and the
 * cursor, as leaves ANDed together. Values always travel as data inside the leaves; nothing the
 * client sends becomes a field name or an operator (both come from the catalogue).
 */
import type { FilterSpec, ResourceSpec } from '../resource-spec';

/** One leaf of an Odoo domain: `[field, operator, value]`. */
export type DomainLeaf = readonly [string, string, unknown];

/** A filter with its value converted to what the ERP compares. */
export interface FilterTerm {
  readonly filter: FilterSpec;
  readonly value: unknown;
  /**
   * The operator sent, when it is not the catalogue's: a date-time `<=` bound is sent as `<` the
   * next second (query/dates.ts), so that it holds on the value the client sees.
   */
  readonly op?: string;
}

/** `\`, `%` and `_` escaped so that `ilike` matches the literal text (decision D17). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function compileDomain(resource: ResourceSpec, terms: readonly FilterTerm[], sinceId?: number): DomainLeaf[] {
  const domain: DomainLeaf[] = resource.scope.map((term) => [term.erp, term.op, term.value] as const);
  for (const { filter, value, op } of terms) domain.push([filter.erp, op ?? filter.op, value]);
  if (sinceId !== undefined) domain.push(['id', '>', sinceId]);
  return domain;
}
