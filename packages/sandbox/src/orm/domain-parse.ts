/**
 * @module Domains (prefix notation, implicit AND) to a tree, with the checks and messages of each
 * version: 17/18 `normalize_domain` ("Domain … is syntactically not correct."), 19's `Domain()`
 * constructor ("Domain() malformed domain …", "Invalid operator in condition (…)").
 */
import { typeError, valueError, attributeError } from './errors';
import { pyRepr, pyTuple } from './python';
import type { OdooVersion } from './types';
import { ormTraits } from './version-traits';

export type DomainNode =
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'not'; readonly child: DomainNode }
  | { readonly kind: 'and' | 'or'; readonly children: readonly DomainNode[] }
  | DomainLeaf;

export interface DomainLeaf {
  readonly kind: 'leaf';
  /** Field name or dotted path. */
  readonly path: string;
  /** As given (17/18 check it when the leaf is compiled, 19 when the domain is built). */
  readonly operator: string;
  readonly value: unknown;
}

export const TRUE_NODE: DomainNode = { kind: 'bool', value: true };
export const FALSE_NODE: DomainNode = { kind: 'bool', value: false };

/** Operators of 17/18 (`TERM_OPERATORS` plus `<>`). */
export const OPERATORS_17 = new Set([
  '=',
  '!=',
  '<>',
  '<=',
  '<',
  '>',
  '>=',
  '=?',
  '=like',
  '=ilike',
  'like',
  'not like',
  'ilike',
  'not ilike',
  'in',
  'not in',
  'child_of',
  'parent_of',
  'any',
  'not any',
]);

/** Operators of 19 (`CONDITION_OPERATORS`: the standard ones and those optimized away). */
const OPERATORS_19 = new Set([
  'any',
  'not any',
  'any!',
  'not any!',
  'in',
  'not in',
  '<',
  '>',
  '<=',
  '>=',
  'like',
  'not like',
  'ilike',
  'not ilike',
  '=like',
  'not =like',
  '=ilike',
  'not =ilike',
  '=?',
  '<>',
  '==',
  '=',
  '!=',
  'child_of',
  'parent_of',
]);

export function parseDomain(domain: unknown, version: OdooVersion): DomainNode {
  return ormTraits(version).domainParser === 'Domain' ? parse19(domain) : parse17(domain);
}

/** The constant leaves `[1, "=", 1]` (true) and `[0, "=", 1]` (false); Python's `True == 1` holds. */
function constantLeaf(item: readonly unknown[]): DomainNode | undefined {
  if (item.length !== 3 || item[1] !== '=' || (item[2] !== 1 && item[2] !== true)) return undefined;
  if (item[0] === 1 || item[0] === true) return TRUE_NODE;
  if (item[0] === 0 || item[0] === false) return FALSE_NODE;
  return undefined;
}

// ---------------------------------------------------------------- 17 / 18

function parse17(domain: unknown): DomainNode {
  if (!Array.isArray(domain)) {
    throw valueError(`Domains to normalize must have a 'domain' form: a list or tuple of domain components`);
  }
  if (domain.length === 0) return TRUE_NODE;
  // normalize_domain: count the expected operands, adding the implicit '&'s.
  const tokens: unknown[] = [];
  let expected = 1;
  for (const token of domain) {
    if (expected === 0) {
      tokens.unshift('&');
      expected = 1;
    }
    if (Array.isArray(token)) expected -= 1;
    else expected += (token === '!' ? 1 : token === '&' || token === '|' ? 2 : 0) - 1;
    tokens.push(token);
  }
  if (expected !== 0) throw valueError(`Domain ${pyRepr(domain)} is syntactically not correct.`);
  let position = 0;
  const next = (): DomainNode => {
    const token = tokens[position++];
    if (token === '!') return { kind: 'not', child: next() };
    if (token === '&' || token === '|') {
      const a = next();
      const b = next();
      return { kind: token === '&' ? 'and' : 'or', children: [a, b] };
    }
    return leaf17(token);
  };
  return next();
}

/** `_anyfy_leaves` unpacks every term as `left, operator, right = tuple(item)`. */
function leaf17(token: unknown): DomainNode {
  let item: readonly unknown[];
  if (Array.isArray(token)) item = token;
  else if (typeof token === 'string') item = [...token];
  else throw typeError(`'${pythonTypeName(token)}' object is not iterable`);
  if (item.length < 3) throw valueError(`not enough values to unpack (expected 3, got ${item.length})`);
  if (item.length > 3) throw valueError('too many values to unpack (expected 3)');
  const constant = constantLeaf(item);
  if (constant) return constant;
  const [left, operator, value] = item;
  if (typeof left !== 'string' || !left || typeof operator !== 'string') {
    throw valueError(`Invalid leaf ${pyTuple(item)}`);
  }
  return { kind: 'leaf', path: left, operator, value };
}

// ---------------------------------------------------------------- 19

function parse19(domain: unknown): DomainNode {
  if (domain === true) return TRUE_NODE;
  if (domain === false) return FALSE_NODE;
  if (!Array.isArray(domain)) throw typeError(`Domain() invalid argument type for domain: ${pyRepr(domain)}`);
  const stack: DomainNode[] = [];
  const pop = (): DomainNode => {
    const node = stack.pop();
    if (!node) throw valueError(`Domain() malformed domain ${pyRepr(domain)}`);
    return node;
  };
  for (let i = domain.length - 1; i >= 0; i--) {
    const item: unknown = domain[i];
    if (Array.isArray(item) && item.length === 3) {
      if (item[1] === 'any!' || item[1] === 'not any!') {
        throw valueError(`Domain() invalid item in domain: ${pyRepr(item)}`);
      }
      stack.push(condition19(item));
    } else if (item === '&' || item === '|') {
      const a = pop();
      const b = pop();
      stack.push({ kind: item === '&' ? 'and' : 'or', children: [a, b] });
    } else if (item === '!') {
      stack.push({ kind: 'not', child: pop() });
    } else {
      throw valueError(`Domain() invalid item in domain: ${pyRepr(item)}`);
    }
  }
  if (stack.length === 0) return TRUE_NODE;
  if (stack.length === 1) return stack[0]!;
  return { kind: 'and', children: stack.reverse() };
}

/** `Domain(field, operator, value)` and `DomainCondition.checked()`. */
function condition19(item: readonly unknown[]): DomainNode {
  const [left, operator, rawValue] = item;
  if (typeof left !== 'string') {
    const constant = constantLeaf(item);
    if (constant) return constant;
    throw typeError(`Domain() invalid arguments: ${pyTuple(item)}`);
  }
  const value = rawValue === null || rawValue === undefined ? false : rawValue;
  if (!left) throw typeError(`Empty field name in condition ${pyTuple([left, operator, rawValue])}`);
  if (typeof operator !== 'string') {
    throw attributeError(`'${pythonTypeName(operator)}' object has no attribute 'lower'`);
  }
  const lower = operator.toLowerCase();
  if (!OPERATORS_19.has(lower)) throw valueError(`Invalid operator in condition ${pyTuple([left, lower, value])}`);
  return { kind: 'leaf', path: left, operator: lower, value };
}

function pythonTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}
