/**
 * @module Domains as lists, the way a grouped read hands them back (`__domain`, `__extra_domain`):
 * 17/18 combine lists with `expression.AND` (`normalize_domain` puts the implicit `&`s in front);
 * 19 builds `Domain` objects (`&` and `|` flattened, `!` pushed into a condition that has an inverse
 * operator, true and false absorbed) and lists them again with `list(domain)`.
 */
import { typeError } from './errors';
import { pyTuple } from './python';

export type DomainList = readonly unknown[];

// ---------------------------------------------------------------- 17 / 18

const TRUE_LEAF = [1, '=', 1] as const;
const FALSE_LEAF = [0, '=', 1] as const;
const ARITY: Readonly<Record<string, number>> = { '!': 1, '&': 2, '|': 2 };

function isLeafToken(token: unknown): token is readonly unknown[] {
  return Array.isArray(token);
}

/** `normalize_domain`: the implicit `&`s made explicit, `any` subdomains normalized too. */
function normalizeDomain17(domain: DomainList): unknown[] {
  if (!domain.length) return [[...TRUE_LEAF]];
  const result: unknown[] = [];
  let expected = 1;
  for (let token of domain) {
    if (expected === 0) {
      result.unshift('&');
      expected = 1;
    }
    if (isLeafToken(token)) {
      expected -= 1;
      if (token.length === 3 && (token[1] === 'any' || token[1] === 'not any') && Array.isArray(token[2])) {
        token = [token[0], token[1], normalizeDomain17(token[2] as unknown[])];
      }
    } else {
      expected += (ARITY[token as string] ?? 0) - 1;
    }
    result.push(token);
  }
  return result;
}

/**
 * `expression.AND(domains)` (`combine`): the unit `[(1, '=', 1)]` as Odoo writes it is skipped (a
 * caller's `[[1, "=", 1]]` is a list of lists, never equal to it), empty domains too.
 */
export function andDomains17(domains: readonly { readonly domain: DomainList; readonly built: boolean }[]): unknown[] {
  const isConstant = (d: { domain: DomainList; built: boolean }, leaf: readonly unknown[]) =>
    d.built && d.domain.length === 1 && JSON.stringify(d.domain[0]) === JSON.stringify(leaf);
  const result: unknown[] = [];
  let count = 0;
  for (const d of domains) {
    if (isConstant(d, TRUE_LEAF)) continue;
    if (isConstant(d, FALSE_LEAF)) return [[...FALSE_LEAF]];
    if (d.domain.length) {
      result.push(...normalizeDomain17(d.domain));
      count += 1;
    }
  }
  const out = [...Array<string>(Math.max(0, count - 1)).fill('&'), ...result];
  return out.length ? out : [[...TRUE_LEAF]];
}

// ---------------------------------------------------------------- 19

export type Domain19 =
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'condition'; readonly field: string; readonly operator: string; readonly value: unknown }
  | { readonly kind: 'not'; readonly child: Domain19 }
  | { readonly kind: 'and' | 'or'; readonly children: readonly Domain19[] };

export const TRUE_19: Domain19 = { kind: 'bool', value: true };
const FALSE_19: Domain19 = { kind: 'bool', value: false };

const INVERSE: Readonly<Record<string, string>> = {
  'not any': 'any',
  'not any!': 'any!',
  'not in': 'in',
  'not like': 'like',
  'not ilike': 'ilike',
  'not =like': '=like',
  'not =ilike': '=ilike',
  '!=': '=',
  '<>': '=',
  any: 'not any',
  'any!': 'not any!',
  in: 'not in',
  like: 'not like',
  ilike: 'not ilike',
  '=like': 'not =like',
  '=ilike': 'not =ilike',
  '=': '!=',
};

/** `Domain(list)`, on a domain the caller's search already accepted (its syntax is checked). */
export function domain19(list: DomainList): Domain19 {
  if (!list.length) return TRUE_19;
  const stack: Domain19[] = [];
  for (let i = list.length - 1; i >= 0; i--) {
    const item = list[i];
    if (Array.isArray(item) && item.length === 3) stack.push(condition19(item));
    else if (item === '&') stack.push(and19(stack.pop()!, stack.pop()!));
    else if (item === '|') stack.push(or19(stack.pop()!, stack.pop()!));
    else if (item === '!') stack.push(not19(stack.pop()!));
  }
  if (stack.length === 1) return stack[0]!;
  return nary('and', stack.reverse());
}

/** `Domain(field, operator, value)`: `True`/`False` leaves as constants, the operator lower-cased, None as False. */
function condition19(item: readonly unknown[]): Domain19 {
  const [field, operator, value] = item;
  if (typeof field !== 'string') {
    const constant = (item[1] === '=' && (item[2] === 1 || item[2] === true)) || undefined;
    if (constant && (field === 1 || field === true)) return TRUE_19;
    if (constant && (field === 0 || field === false)) return FALSE_19;
    throw typeError(`Domain() invalid arguments: ${pyTuple(item)}`);
  }
  return { kind: 'condition', field, operator: String(operator).toLowerCase(), value: value === null || value === undefined ? false : value };
}

/** `DomainAnd.apply` / `DomainOr.apply`: nested ones flattened, constants absorbed or dropped. */
function nary(kind: 'and' | 'or', items: readonly Domain19[]): Domain19 {
  const zero = kind === 'and' ? TRUE_19 : FALSE_19;
  const children: Domain19[] = [];
  for (const child of items) {
    if (child.kind === 'bool') {
      if (child.value !== (zero as { value: boolean }).value) return child;
    } else if (child.kind === kind) {
      children.push(...child.children);
    } else {
      children.push(child);
    }
  }
  if (!children.length) return zero;
  if (children.length === 1) return children[0]!;
  return { kind, children };
}

/** `a & b`. */
export function and19(a: Domain19, b: Domain19): Domain19 {
  if (a.kind === 'bool') return a.value ? b : a;
  if (a.kind === 'and' && b.kind === 'and') return { kind: 'and', children: [...a.children, ...b.children] };
  return nary('and', [a, b]);
}

function or19(a: Domain19, b: Domain19): Domain19 {
  if (a.kind === 'bool') return a.value ? a : b;
  if (a.kind === 'or' && b.kind === 'or') return { kind: 'or', children: [...a.children, ...b.children] };
  return nary('or', [a, b]);
}

/** `~domain`. */
function not19(d: Domain19): Domain19 {
  switch (d.kind) {
    case 'bool':
      return d.value ? FALSE_19 : TRUE_19;
    case 'not':
      return d.child;
    case 'and':
    case 'or':
      return { kind: d.kind === 'and' ? 'or' : 'and', children: d.children.map(not19) };
    case 'condition': {
      const inverse = INVERSE[d.operator];
      if (!d.field.includes('.') && inverse) return { ...d, operator: inverse };
      return { kind: 'not', child: d };
    }
  }
}

/** `Domain.AND(items)`. */
export function andAll19(items: readonly Domain19[]): Domain19 {
  return nary('and', items);
}

/** `list(domain)`: prefix notation, conditions as `[field, operator, value]`. */
export function listDomain19(d: Domain19): unknown[] {
  switch (d.kind) {
    case 'bool':
      return [d.value ? [...TRUE_LEAF] : [...FALSE_LEAF]];
    case 'condition':
      return [[d.field, d.operator, d.value]];
    case 'not':
      return ['!', ...listDomain19(d.child)];
    case 'and':
    case 'or':
      return [...Array<string>(d.children.length - 1).fill(d.kind === 'and' ? '&' : '|'), ...d.children.flatMap(listDomain19)];
  }
}
