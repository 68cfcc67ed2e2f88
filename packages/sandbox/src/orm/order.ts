/**
 * @module Order strings to SQL, as Odoo's `_order_to_sql`: grammar check, several keys, asc/desc,
 * nulls first/last, many2one ordered by the comodel's `_order` through a LEFT JOIN, booleans as
 * `COALESCE(col, false)`. SQLite sorts NULL lowest; PostgreSQL (hence Odoo) puts NULLs last
 * ascending and first descending, so every nullable key is preceded by an `IS NULL` key.
 */
import { column, quoteIdent } from '../store/naming';
import { userError, valueError } from './errors';
import { isSortable } from './field-flags';
import type { DomainNode } from './domain-parse';
import { parseOrder, type OrderTerm } from './order-grammar';
import { pyRepr } from './python';
import { modelOrder, type FieldInfo, type ModelInfo, type Registry } from './registry';
import type { OdooVersion } from './types';
import { ormTraits } from './version-traits';

export interface CompiledOrder {
  /** The ORDER BY list (without the keywords); empty when every term was dropped. */
  readonly orderBy: string;
  /** LEFT JOINs the terms need (many2one ordered by its comodel). */
  readonly joins: string;
}

type Direction = 'ASC' | 'DESC';
type Nulls = 'NULLS FIRST' | 'NULLS LAST' | undefined;

/**
 * Compiles `order` (the model's `_order` when empty) for the table aliased `t`. No id
 * tie-breaker is added, like Odoo. `bounded`: fields of `model` the search's domain compares
 * (`boundedFields`), so that no row it finds has them NULL: they are ordered without the `IS NULL`
 * key, which changes no result, and lets SQLite read the order from an index of the field where
 * PostgreSQL would (a page of `write_date >= X` ordered by `write_date` on an indexed column).
 */
export function compileOrder(registry: Registry, version: OdooVersion, model: ModelInfo, order: string | null | undefined, bounded: ReadonlySet<string> = NONE): CompiledOrder {
  const compiler = new OrderCompiler(registry, version, model, bounded);
  const terms = compiler.model(model, order || modelOrder(model, version), 't', false, false, new Set());
  return { orderBy: terms.join(', '), joins: compiler.joins.join(' ') };
}

class OrderCompiler {
  readonly joins: string[] = [];
  private readonly joined = new Set<string>();

  constructor(
    private readonly registry: Registry,
    private readonly version: OdooVersion,
    private readonly root: ModelInfo,
    private readonly bounded: ReadonlySet<string>,
  ) {}

  /** `joinedNullable`: the alias comes from a LEFT JOIN that can miss, so every column may be NULL. */
  model(model: ModelInfo, order: string, alias: string, reverse: boolean, joinedNullable: boolean, seen: ReadonlySet<string>): string[] {
    const terms = parseOrder(order, this.version);
    if (!terms) {
      throw userError(
        `Invalid "order" specified (${order}). A valid "order" specification is a comma-separated list of valid field names (optionally followed by asc/desc for the direction)`,
      );
    }
    return terms.flatMap((term) => {
      let direction: Direction = term.direction ?? 'ASC';
      let nulls: Nulls = term.nulls;
      if (reverse) {
        direction = direction === 'DESC' ? 'ASC' : 'DESC';
        if (nulls) nulls = nulls === 'NULLS FIRST' ? 'NULLS LAST' : 'NULLS FIRST';
      }
      return this.term(model, term, alias, direction, nulls, joinedNullable, seen);
    });
  }

  private term(model: ModelInfo, term: OrderTerm, alias: string, direction: Direction, nulls: Nulls, joinedNullable: boolean, seen: ReadonlySet<string>): string[] {
    const field = model.fields.get(term.field);
    if (!field) throw valueError(`Invalid field ${pyRepr(term.field)} on model ${pyRepr(model.name)}`);
    if (term.property !== undefined && !ormTraits(this.version).orderByMany2oneId) {
      throw valueError(`Order a property (${pyRepr(term.property)}) on a non-properties field (${pyRepr(term.field)})`);
    }
    if (term.property !== undefined && !(field.type === 'many2one' && term.property === 'id')) {
      const path = `${term.field}.${term.property}`;
      throw valueError(`Invalid field ${pyRepr(path)} on model ${pyRepr(model.name)}`);
    }
    if (!isSortable(this.version, field)) {
      // 17 logs "cannot be sorted on field ... (not a column)" and drops the term.
      if (ormTraits(this.version).unsortableOrderTermDropped) return [];
      throw valueError(`Cannot convert ${model.name}.${field.name} to SQL because it is not stored`);
    }
    const sqlField = column(alias, field.name);
    const nullable = joinedNullable || (isNullable(field) && !(model === this.root && alias === 't' && this.bounded.has(field.name)));
    if (field.type === 'boolean') return [`COALESCE(${sqlField}, 0) ${direction}`];
    if (field.type !== 'many2one') return orderTerms(sqlField, direction, nulls, nullable);

    const key = `${model.name}.${field.name}`;
    if (seen.has(key)) return [];
    const comodel = this.registry.require(field.relation!);
    const coorder = modelOrder(comodel, this.version);
    if (term.property === 'id' || coorder === 'id') {
      return orderTerms(sqlField, direction, nulls, nullable);
    }
    const terms: string[] = [];
    if (nulls === 'NULLS FIRST') terms.push(`${sqlField} IS NOT NULL`);
    else if (nulls === 'NULLS LAST') terms.push(`${sqlField} IS NULL`);
    const coalias = this.join(alias, field, comodel);
    const inner = new Set(seen).add(key);
    terms.push(...this.model(comodel, coorder, coalias, direction === 'DESC', nullable, inner));
    return terms;
  }

  private join(alias: string, field: FieldInfo, comodel: ModelInfo): string {
    const coalias = `${alias}__${field.name}`;
    if (!this.joined.has(coalias)) {
      this.joined.add(coalias);
      this.joins.push(`LEFT JOIN ${quoteIdent(comodel.table)} AS ${coalias} ON ${column(coalias, 'id')} = ${column(alias, field.name)}`);
    }
    return coalias;
  }
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Date and datetime fields the domain compares with `<`, `<=`, `>` or `>=` at its top level (ANDed
 * with the rest): a row it finds never has them NULL (a datetime has no falsy value standing for
 * NULL in any version), so ordering by them needs no `IS NULL` key.
 */
export function boundedFields(model: ModelInfo, domain: DomainNode): Set<string> {
  const found = new Set<string>();
  const visit = (node: DomainNode) => {
    if (node.kind === 'and') node.children.forEach(visit);
    else if (node.kind === 'leaf' && INEQUALITIES.has(node.operator) && typeof node.value === 'string') {
      const field = model.fields.get(node.path);
      if (field?.store && (field.type === 'date' || field.type === 'datetime')) found.add(field.name);
    }
  };
  visit(domain);
  return found;
}

const INEQUALITIES = new Set(['<', '<=', '>', '>=']);

function isNullable(field: FieldInfo): boolean {
  return field.name !== 'id' && !field.required;
}

/**
 * ORDER BY keys for one expression with PostgreSQL's NULL placement (last when ascending, first
 * when descending, unless told). The store indexes a nullable column with the same pair (schema.ts).
 */
export function orderTerms(expr: string, direction: Direction, nulls: Nulls, nullable: boolean): string[] {
  if (!nullable) return [`${expr} ${direction}`];
  const nullsFirst = nulls ? nulls === 'NULLS FIRST' : direction === 'DESC';
  return [`${expr} IS NULL ${nullsFirst ? 'DESC' : 'ASC'}`, `${expr} ${direction}`];
}
