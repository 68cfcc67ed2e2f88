/**
 * @module Reads `expand`, the related records a client asks inside each record (README, "Related
 * records"): relation names of the resource (its catalogue `relations`), comma-separated, each
 * optionally with the related resource's fields in parentheses, `expand=lines(id,price_total),order`.
 * Without parentheses a relation holds every field of the related resource. One level only: a related
 * record is never expanded further. An unknown relation or field, a relation named twice, or a text
 * that is not of this shape is 400 `bad_request`, naming what the resource offers.
 */
import { badRequest } from '../errors';
import type { FieldSpec, RelationSpec, ResourceSpec } from '../resource-spec';
import type { QueryParser } from './parse-query';

/** A relation asked for, with what the related resource's list route would read for it. */
export interface ExpandTerm {
  readonly relation: RelationSpec;
  /** The related resource. */
  readonly target: ResourceSpec;
  /** Its fields asked for (`id` always), in its catalogue order. */
  readonly fields: readonly FieldSpec[];
  /** `to_many`: its list route's default order (ERP terms), so that its paging link continues where the relation stops. */
  readonly order: string;
}

/** The related resource of a relation and its query parser (the gateway's, compiled once). */
export type RelatedResourceOf = (path: string) => { readonly resource: ResourceSpec; readonly parser: QueryParser };

const ITEM = /^([a-z][a-z0-9_]*)(?:\(([^()]*)\))?$/;

/** `expand`'s terms, in the order asked; none when absent. */
export function parseExpand(raw: unknown, resource: ResourceSpec, relatedOf: RelatedResourceOf): readonly ExpandTerm[] {
  if (raw === undefined) return [];
  const text = raw as string;
  const offered = () => (resource.relations.length ? `its relations are ${resource.relations.map((r) => r.name).join(', ')}` : `${resource.path} has no relations`);
  const terms: ExpandTerm[] = [];
  for (const item of splitExpand(text)) {
    const match = ITEM.exec(item.trim());
    if (!match)
      throw badRequest(
        `Invalid expand '${text.slice(0, 64)}': use relation names, comma-separated, each optionally with fields in parentheses (expand=lines(id,price_total),order).`,
      );
    const [, name, fieldList] = match as unknown as [string, string, string | undefined];
    const relation = resource.relations.find((r) => r.name === name);
    if (!relation) throw badRequest(`Unknown relation '${name}' in expand: ${offered()}.`);
    if (terms.some((term) => term.relation === relation)) throw badRequest(`Relation '${name}' is named twice in expand.`);
    const { resource: target, parser } = relatedOf(relation.target);
    let fields: readonly FieldSpec[];
    try {
      fields = parser.parseDetail(fieldList === undefined ? {} : { fields: fieldList }).fields;
    } catch (error) {
      throw badRequest(`expand ${name}(...): ${(error as Error).message} The fields are those of ${target.path}.`);
    }
    terms.push({ relation, target, fields, order: parser.parseList({}).order });
  }
  return terms;
}

/** The items of a comma-separated list whose items may hold commas inside parentheses. */
export function splitExpand(text: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      items.push(text.slice(start, i));
      start = i + 1;
    }
    if (depth < 0 || depth > 1) throw badRequest(`Invalid expand '${text.slice(0, 64)}': parentheses hold one field list, and a related record is not expanded further.`);
  }
  items.push(text.slice(start));
  return items;
}

/** The terms as cache-key text: two spellings of one question share an entry. */
export function expandKey(terms: readonly ExpandTerm[]): string[] {
  return terms.map((term) => `${term.relation.name}(${term.fields.map((f) => f.name).join(',')})`).sort();
}
