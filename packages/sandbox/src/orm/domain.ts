/**
 * @module Odoo domains to a parameterised SQL condition over the model's table aliased `t`.
 *
 * Negations are pushed into the leaves with each version's operator inverses (so `!(x = 1)` keeps
 * the NULL rows as `x != 1` does), dotted paths become `any` sub-searches on the comodel (which
 * check its read right, like `comodel._search`), relational fields compared to strings search the
 * comodel's display name, and `active_test` hides archived rows (reference sections 8.5, 8.6, 9).
 */
import { OdooException } from './types';
import { column, quoteIdent } from '../store/naming';
import type { AccessControl } from './access';
import { columnCondition, inverseOperator, pyStr, type ColumnOperand } from './domain-column';
import { anyOf, leaf as leafNode, type SearchDisplayName } from './display-name-search';
import { FALSE_NODE, OPERATORS_17, parseDomain, type DomainLeaf, type DomainNode, TRUE_NODE } from './domain-parse';
import { typeError, valueError } from './errors';
import { pyRepr, pyTruthy, pyTuple } from './python';
import type { NameSearch17 } from './model-def';
import type { FieldInfo, ModelInfo, Registry } from './registry';
import type { Sql } from '../store/statements';
import { FALSE_SQL, TRUE_SQL, and, list, not, or, raw, sql } from './sql';
import type { OdooVersion } from './types';
import { ormTraits, type OrmTraits } from './version-traits';
import { formatDate, formatDatetime, fromDate } from './temporal';

export interface DomainContext {
  readonly registry: Registry;
  readonly version: OdooVersion;
  readonly access: AccessControl;
  readonly uid: number;
  /** The request's `active_test` (default true). */
  readonly activeTest: boolean;
  /** Time zone of the request (context `tz`, else the user's, else UTC): 19 date-only values. */
  readonly tz: string;
  /** Request clock: computed fields' `:now` / `:today`, 19's relative dates. */
  readonly now: Date;
}

/** WHERE condition of `domain` on `model` (aliased `t`), `active_test` included. */
export function compileDomain(ctx: DomainContext, model: ModelInfo, domain: unknown): Sql {
  return new DomainCompiler(ctx).search(model, parseDomain(domain, ctx.version), ctx.activeTest);
}

/** SQL of a computed field's expression, `:now` / `:today` bound to the request clock. */
export function computedSql(expression: string, now: Date): Sql {
  const parts = expression.split(/:(now|today)\b/);
  if (parts.length === 1) return raw(expression);
  const clock = fromDate(now);
  const values = { now: formatDatetime(clock), today: formatDate(clock) };
  let text = '';
  const params: string[] = [];
  parts.forEach((part, i) => {
    if (i % 2 === 0) text += part;
    else {
      text += '?';
      params.push(values[part as 'now' | 'today']);
    }
  });
  return { sql: text, params };
}

const RELATIONAL = new Set(['many2one', 'one2many', 'many2many']);
const LIKE = /like$/;

class DomainCompiler {
  private readonly traits: OrmTraits;

  constructor(private readonly ctx: DomainContext) {
    this.traits = ormTraits(ctx.version);
  }

  /** The condition of a search on `model`: the domain, plus `active = true` unless told. */
  search(model: ModelInfo, node: DomainNode, activeTest: boolean): Sql {
    let root = node;
    if (model.hasActive && activeTest && !mentions(node, 'active')) {
      const active: DomainLeaf = { kind: 'leaf', path: 'active', operator: '=', value: true };
      root = root === TRUE_NODE ? active : { kind: 'and', children: [active, root] };
    }
    return this.node(model, root, false);
  }

  /** `SELECT t."<select>" FROM <comodel> t WHERE <domain>`: a sub-search, read right checked. */
  private subquery(model: ModelInfo, node: DomainNode, activeTest: boolean, select = 'id'): Sql {
    this.ctx.access.check(this.ctx.uid, model.name, 'read');
    const where = this.search(model, node, activeTest);
    const extra = select === 'id' ? TRUE_SQL : raw(`${column('t', select)} IS NOT NULL`);
    return sql`SELECT ${raw(column('t', select))} FROM ${raw(quoteIdent(model.table))} t WHERE ${and([where, extra])}`;
  }

  private node(model: ModelInfo, node: DomainNode, negate: boolean): Sql {
    switch (node.kind) {
      case 'bool':
        return node.value !== negate ? TRUE_SQL : FALSE_SQL;
      case 'not':
        return this.node(model, node.child, !negate);
      case 'and':
      case 'or': {
        const parts = node.children.map((child) => this.node(model, child, negate));
        return (node.kind === 'and') !== negate ? and(parts) : or(parts);
      }
      case 'leaf':
        return this.leaf(model, node, negate);
    }
  }

  private leaf(model: ModelInfo, leaf: DomainLeaf, negate: boolean): Sql {
    const dot = leaf.path.indexOf('.');
    const name = dot < 0 ? leaf.path : leaf.path.slice(0, dot);
    const field = model.fields.get(name);
    if (!field) throw this.invalidField(model, name, leaf);
    const checked = this.checkOperator(leaf);
    if (dot >= 0) {
      const rest: DomainLeaf = { kind: 'leaf', path: leaf.path.slice(dot + 1), operator: leaf.operator, value: leaf.value };
      if (RELATIONAL.has(field.type)) return this.any(field, rest, negate);
      throw valueError(`Invalid field ${pyRepr(leaf.path)} on model ${pyRepr(model.name)}`);
    }
    // Not `isSearchable`: 17's display_name stands in for the `_rec_name` its name searches look in.
    // Odoo gives up on the field before computing anything (no read right needed).
    if (field.searchable === false) return this.unsearchable(model, field);
    if (field.requires) this.ctx.access.check(this.ctx.uid, field.requires, 'read');
    const { operator, value } = this.normalize(checked, leaf.value);
    const searchDisplayName = field.name === 'display_name' ? model.def.searchDisplayName : undefined;
    if (searchDisplayName) return this.displayName(model, searchDisplayName, operator, value, negate);
    switch (operator) {
      case '=?':
        return this.ifSet(model, leaf, value, negate);
      case 'any':
      case 'not any':
        return this.anyOperator(model, field, leaf, operator, value, negate);
      case 'child_of':
      case 'parent_of':
        return this.hierarchy(model, field, operator, value, negate);
    }
    if (field.type === 'many2one' && isNameSearch(operator, value)) return this.nameSearch(model, field, operator, value, negate);
    if (field.type === 'one2many' || field.type === 'many2many') return this.x2many(model, field, operator, value, negate);
    return this.column(this.operand(field, leaf.path), operator, value, negate);
  }

  /**
   * A field Odoo cannot search (computed, no search method): 19 fails to convert it to SQL; 17/18
   * log "Non-stored field ... cannot be searched" and put an always-true leaf in its place, even
   * under a negation (pushed into the leaf first).
   */
  private unsearchable(model: ModelInfo, field: FieldInfo): Sql {
    if (this.traits.unsearchableFieldRaises) throw valueError(`Cannot convert ${model.name}.${field.name} to SQL because it is not stored`);
    return TRUE_SQL;
  }

  private invalidField(model: ModelInfo, name: string, leaf: DomainLeaf): OdooException {
    return valueError(this.traits.invalidFieldInLeafMessage(model.name, name, pyTuple([leaf.path, leaf.operator, leaf.value])));
  }

  /** 17/18 `normalize_leaf` + `check_leaf` (19 checked operators when parsing). */
  private checkOperator(leaf: DomainLeaf): string {
    const operator = leaf.operator.toLowerCase();
    if (this.traits.operatorCheckedPerLeaf && !OPERATORS_17.has(operator)) {
      const normalized = operator === '<>' ? '!=' : operator;
      throw valueError(`Invalid leaf ${pyTuple([leaf.path, normalized, leaf.value])}`);
    }
    return operator;
  }

  /**
   * Operator aliases and value shapes: 17/18 turn `in true` into `=` and `= [..]` into `in`;
   * 19 turns `=`/`!=` into `in`/`not in` over a set (`== []` meaning "not set").
   */
  private normalize(operator: string, value: unknown): { operator: string; value: unknown } {
    let op = operator === '<>' ? '!=' : operator;
    if (!this.traits.equalityAsSet) {
      if (typeof value === 'boolean' && (op === 'in' || op === 'not in')) op = op === 'in' ? '=' : '!=';
      if (Array.isArray(value) && (op === '=' || op === '!=')) op = op === '=' ? 'in' : 'not in';
      return { operator: op, value };
    }
    if (op === '==') op = '=';
    if (op === '=' || op === '!=') {
      const values = Array.isArray(value) ? (value.length ? value : [false]) : [value];
      return { operator: op === '=' ? 'in' : 'not in', value: values };
    }
    if ((op === 'in' || op === 'not in') && !Array.isArray(value)) return { operator: op, value: [value] };
    return { operator: op, value: value ?? false };
  }

  /** A column leaf, negated through the version's operator inverses where there is one. */
  private column(operand: ColumnOperand, operator: string, value: unknown, negate: boolean): Sql {
    if (!negate) return columnCondition(operand, operator, value);
    const inverse = inverseOperator(this.ctx.version, operator, operand.field);
    if (!inverse) return not(columnCondition(operand, operator, value));
    const s = columnCondition(operand, inverse.operator, value);
    return inverse.orNull && operand.nullable ? or([s, sql`${operand.expr} IS NULL`]) : s;
  }

  private operand(field: FieldInfo, path: string): ColumnOperand {
    const expr = field.compute !== undefined ? sql`(${computedSql(field.compute, this.ctx.now)})` : raw(column('t', field.name));
    return {
      version: this.ctx.version,
      field,
      path,
      expr,
      nullable: !field.store || (field.name !== 'id' && !field.required),
      now: this.ctx.now,
      tz: this.ctx.tz,
    };
  }

  /** `=?`: no condition when the value is not set (17/18: False/None only; 19: any falsy value). */
  private ifSet(model: ModelInfo, leaf: DomainLeaf, value: unknown, negate: boolean): Sql {
    const unset = this.traits.ifSetSkipsAnyFalsy ? !pyTruthy(value) : value === false || value === null || value === undefined;
    if (unset) return negate ? FALSE_SQL : TRUE_SQL;
    const equal: DomainLeaf = { kind: 'leaf', path: leaf.path, operator: '=', value };
    if (this.traits.ifSetNegatedAsNot && negate) return not(this.leaf(model, equal, false));
    return this.leaf(model, equal, negate);
  }

  // -------------------------------------------------------------- relational

  private anyOperator(model: ModelInfo, field: FieldInfo, leaf: DomainLeaf, operator: string, value: unknown, negate: boolean): Sql {
    if (!RELATIONAL.has(field.type) && field.name !== 'id') {
      throw valueError(`Cannot use 'any' with non-relational fields in condition ${pyTuple([leaf.path, operator, value])}`);
    }
    const sub = parseDomain(value, this.ctx.version);
    if (field.name === 'id') return this.node(model, sub, negate !== (operator === 'not any'));
    return this.any(field, sub, negate !== (operator === 'not any'));
  }

  /**
   * `field any sub`: many2one searches the comodel without `active_test`, x2many with the
   * request's; `not any` keeps the rows without a value.
   */
  private any(field: FieldInfo, sub: DomainNode, negate: boolean): Sql {
    const comodel = this.ctx.registry.require(field.relation!);
    const col = raw(column('t', field.name));
    if (field.type === 'many2one') {
      const ids = this.subquery(comodel, sub, false);
      return negate ? or([sql`${col} IS NULL`, sql`${col} NOT IN (${ids})`]) : sql`${col} IN (${ids})`;
    }
    return this.x2manyMembership(field, comodel, sub, negate);
  }

  /** `t.id [NOT] IN (ids of the rows linked to a comodel row matching sub)`. */
  private x2manyMembership(field: FieldInfo, comodel: ModelInfo, sub: DomainNode, negate: boolean): Sql {
    if (field.type === 'one2many') {
      const id = raw(column('t', 'id'));
      return sql`${id} ${raw(negate ? 'NOT IN' : 'IN')} (${this.subquery(comodel, sub, this.ctx.activeTest, field.inverse!)})`;
    }
    return this.linkedTo(field, comodel, this.subquery(comodel, sub, this.ctx.activeTest), negate);
  }

  /** Rows linked through an x2many to one of the comodel ids that `ids` (a SELECT) yields. */
  private linkedTo(field: FieldInfo, comodel: ModelInfo, ids: Sql, negate: boolean): Sql {
    const id = raw(column('t', 'id'));
    const op = raw(negate ? 'NOT IN' : 'IN');
    if (field.type === 'one2many') {
      const inverse = raw(column('c', field.inverse!));
      return sql`${id} ${op} (SELECT ${inverse} FROM ${raw(quoteIdent(comodel.table))} c WHERE c."id" IN (${ids}) AND ${inverse} IS NOT NULL)`;
    }
    return sql`${id} ${op} (SELECT r."a" FROM ${raw(quoteIdent(field.relationTable!))} r WHERE r."b" IN (${ids}))`;
  }

  /**
   * A relational field compared to a name: a search on the comodel's display name. Other values
   * of a mixed list (ids, False) keep their own meaning, OR-ed (AND-ed when negative) with it.
   */
  private nameSearch(model: ModelInfo, field: FieldInfo, operator: string, value: unknown, negate: boolean): Sql {
    let op = operator;
    if (['<', '>', '<=', '>='].includes(op)) {
      if (this.traits.relationalInequalityRaises) {
        throw typeError(`Inequality not supported for relational field using a string in condition ${pyTuple([field.name, op, value])}`);
      }
      op = 'in'; // 17/18: "special treatment to ill-formed domains"
    }
    const negative = op.startsWith('not ') || op === '!=';
    let positive = negative ? (op === '!=' ? '=' : op.slice(4)) : op;
    const override =
      this.traits.comodelNameSearch && field.type === 'many2one' && typeof value === 'string' ? this.ctx.registry.require(field.relation!).def.nameSearch17 : undefined;
    if (override) {
      const own = this.nameSearch17(field, override, negative !== negate ? `not ${positive}` : positive, value as string);
      if (own) return own;
    }
    if (LIKE.test(positive) && !pyTruthy(value)) {
      // An empty pattern on a relation: "is set" / "not set" (19's `_optimize_like_str`).
      const set = negative === positive.includes('=');
      return this.isSet(field, set !== negate);
    }
    let pattern: unknown = LIKE.test(positive) ? pyStr(value) : value;
    if (Array.isArray(pattern) && pattern.some((v) => typeof v !== 'string')) {
      const names = pattern.filter((v) => typeof v === 'string');
      const others = pattern.filter((v) => typeof v !== 'string');
      const byName = this.nameSearch(model, field, op, names, negate);
      const byValue = this.leaf(model, { kind: 'leaf', path: field.name, operator: op, value: others }, negate);
      return negative !== negate ? and([byName, byValue]) : or([byName, byValue]);
    }
    if (positive === 'in' && !Array.isArray(pattern)) positive = '=';
    if (positive === '=' && Array.isArray(pattern)) positive = 'in';
    if (this.traits.equalityAsSet && positive === '=') [positive, pattern] = ['in', [pattern]];
    const comodel = this.ctx.registry.require(field.relation!);
    const match = anyOf(nameSearchPaths(comodel).map((path) => leafNode(path, positive, pattern)));
    const exclude = negative !== negate;
    if (field.type !== 'many2one') return this.x2manyMembership(field, comodel, match, exclude);
    // 17 searches names without active_test (`with_context(active_test=False)._name_search`).
    const ids = this.subquery(comodel, match, false);
    const col = raw(column('t', field.name));
    return exclude ? or([sql`${col} IS NULL`, sql`${col} NOT IN (${ids})`]) : sql`${col} IN (${ids})`;
  }

  /**
   * A condition on the display name of a model with its own `_search_display_name`: the domain it
   * returns; where it returns NotImplemented, the positive condition negated.
   */
  private displayName(model: ModelInfo, search: SearchDisplayName, operator: string, value: unknown, negate: boolean): Sql {
    const domain = search(operator, value, this.traits);
    if (domain) return this.node(model, domain, negate);
    const positive = operator === '!=' ? '=' : operator.replace(/^not /, '');
    return this.node(model, search(positive, value, this.traits) ?? FALSE_NODE, !negate);
  }

  /**
   * 17's own `_name_search` of the comodel (`operator` with the negation pushed in), undefined
   * where it behaves as the generic one. The name search's ids are then kept (`in ids`), or with
   * a negative operator kept with the unset rows (`in ids or = False`), as 17's many2one leaf does.
   */
  private nameSearch17(field: FieldInfo, override: NameSearch17, operator: string, name: string): Sql | undefined {
    const comodel = this.ctx.registry.require(field.relation!);
    let match: DomainNode | undefined;
    if (override === 'ilike-always') {
      // `if operator != 'ilike' or name.strip()`: the fields `ilike` the name, else every record.
      if (operator !== 'ilike' || name.trim()) {
        match = anyOf(nameSearchPaths(comodel).map((path) => leafNode(path, 'ilike', name)));
      } else match = TRUE_NODE;
    } else if (!name) match = TRUE_NODE; // 'empty-matches-all': `if name: ... else: every record`
    if (!match) return undefined;
    const ids = this.subquery(comodel, match, false);
    const col = raw(column('t', field.name));
    const kept = sql`${col} IN (${ids})`;
    return operator.startsWith('not ') || operator === '!=' ? or([kept, sql`${col} IS NULL`]) : kept;
  }

  /** `field != False` (is set) or `field = False`. */
  private isSet(field: FieldInfo, set: boolean): Sql {
    if (field.type === 'many2one') return raw(`${column('t', field.name)} IS ${set ? 'NOT ' : ''}NULL`);
    const comodel = this.ctx.registry.require(field.relation!);
    return this.x2manyPresence(field, comodel, set);
  }

  /** Rows with (or without) at least one linked comodel row, archived ones included (17's rule). */
  private x2manyPresence(field: FieldInfo, comodel: ModelInfo, present: boolean): Sql {
    const id = raw(column('t', 'id'));
    const op = raw(present ? 'IN' : 'NOT IN');
    if (field.type === 'one2many') {
      const inverse = raw(column('c', field.inverse!));
      return sql`${id} ${op} (SELECT ${inverse} FROM ${raw(quoteIdent(comodel.table))} c WHERE ${inverse} IS NOT NULL)`;
    }
    return sql`${id} ${op} (SELECT r."a" FROM ${raw(quoteIdent(field.relationTable!))} r)`;
  }

  /**
   * x2many compared to ids (or False): "linked to one of these" / "linked to none of these";
   * `= False` means no linked row; strings are name searches.
   */
  private x2many(model: ModelInfo, field: FieldInfo, operator: string, value: unknown, negate: boolean): Sql {
    if (isNameSearch(operator, value)) return this.nameSearch(model, field, operator, value, negate);
    const comodel = this.ctx.registry.require(field.relation!);
    const values = Array.isArray(value) ? value : [value];
    const ids = values.filter((v) => v !== false && v !== null && v !== undefined);
    const withFalse = ids.length < values.length;
    let positive: boolean;
    switch (operator) {
      case '=':
      case 'in':
        positive = true;
        break;
      case '!=':
      case 'not in':
        positive = false;
        break;
      default: {
        const idLeaf: DomainLeaf = { kind: 'leaf', path: 'id', operator, value };
        return this.x2manyMembership(field, comodel, idLeaf, negate);
      }
    }
    if (negate) positive = !positive;
    const linked = ids.length ? this.x2manyMembership(field, comodel, { kind: 'leaf', path: 'id', operator: 'in', value: ids }, !positive) : positive ? FALSE_SQL : TRUE_SQL;
    if (!withFalse) return linked;
    const empty = this.x2manyPresence(field, comodel, !positive);
    return positive ? or([linked, empty]) : and([linked, empty]);
  }

  /**
   * `child_of` / `parent_of` through the model's `parent_id` (a recursive CTE from the given ids
   * or names), as Odoo does without `parent_store`: unrestricted walk, rights on names only.
   */
  private hierarchy(model: ModelInfo, field: FieldInfo, operator: string, value: unknown, negate: boolean): Sql {
    const target = field.name === 'id' ? model : field.relation ? this.ctx.registry.require(field.relation) : undefined;
    if (!target) {
      throw valueError(`Cannot execute ${operator} for ${model.name}.${field.name}, works only for relational fields`);
    }
    // A many2one to the model itself names the parent field, and the condition is on `id`.
    const selfParent = field.type === 'many2one' && target.name === model.name;
    const parent = selfParent ? field.name : target.parentField;
    if (!parent) throw new OdooException('builtins.KeyError', pyRepr('parent_id'));
    if (value === false || value === null) return negate ? TRUE_SQL : FALSE_SQL;
    const values = Array.isArray(value) ? value : [value];
    const ints = values.filter((v): v is number => typeof v === 'number' && v !== 0);
    const names = values.filter((v): v is string => typeof v === 'string');
    const starts: Sql[] = [];
    if (ints.length) starts.push(sql`t."id" IN ${list(ints)}`);
    for (const name of names) {
      this.ctx.access.check(this.ctx.uid, target.name, 'read');
      starts.push(this.column(this.operand(target.fields.get('display_name')!, 'display_name'), 'ilike', name, false));
    }
    if (!starts.length) return negate ? TRUE_SQL : FALSE_SQL;
    const table = raw(quoteIdent(target.table));
    const p = raw(quoteIdent(parent));
    const walk =
      operator === 'child_of'
        ? sql`SELECT c."id" FROM ${table} c JOIN _h ON c.${p} = _h."id"`
        : sql`SELECT p.${p} FROM ${table} p JOIN _h ON p."id" = _h."id" WHERE p.${p} IS NOT NULL`;
    const ids = sql`WITH RECURSIVE _h("id") AS (SELECT t."id" FROM ${table} t WHERE ${or(starts)} UNION ${walk}) SELECT "id" FROM _h`;
    if (field.type === 'one2many' || field.type === 'many2many') return this.linkedTo(field, target, ids, negate);
    const col = raw(column('t', selfParent ? 'id' : field.name));
    const member = sql`${col} IN (${ids})`;
    if (!negate) return member;
    // 17/18 wrap a negated hierarchy in NOT; 19 turned it into `in` first, so `not in` keeps NULLs.
    return this.traits.many2oneNotInAddsNull && field.type === 'many2one' && !selfParent ? or([sql`${col} IS NULL`, not(member)]) : not(member);
  }
}

/** A many2one (or x2many) compared to a string, or to a list of strings (17/18: all of them). */
function isNameSearch(operator: string, value: unknown): boolean {
  if (typeof value === 'string') return true;
  if (LIKE.test(operator)) return true;
  return Array.isArray(value) && value.length > 0 && value.some((v) => typeof v === 'string');
}

/** Whether a leaf of the flat domain (not inside `any`) names `field`. */
function mentions(node: DomainNode, field: string): boolean {
  switch (node.kind) {
    case 'leaf':
      return node.path === field;
    case 'not':
      return mentions(node.child, field);
    case 'and':
    case 'or':
      return node.children.some((child) => mentions(child, field));
    default:
      return false;
  }
}

/** The fields a name search on the model compares (Odoo's `_rec_names_search`, else the display name). */
function nameSearchPaths(model: ModelInfo): readonly string[] {
  return model.def?.nameSearch ?? ['display_name'];
}
