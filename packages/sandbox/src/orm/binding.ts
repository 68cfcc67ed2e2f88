/**
 * @module Python argument binding for RPC calls (`method(recs, *args, **kwargs)`), with CPython's
 * `TypeError` texts in CPython's order: keyword errors, then too many positional arguments, then
 * missing ones. Counts include `self`, as Python's do.
 */
import { typeError } from './errors';
import type { MethodSpec } from './types';

export interface BoundArguments {
  /** Declared parameters that received a value (defaults are the callee's business). */
  readonly values: Readonly<Record<string, unknown>>;
  /** `**kwargs` of the method, when it has some. */
  readonly extraKeywords: Readonly<Record<string, unknown>>;
  readonly extraPositional: readonly unknown[];
}

/** Binds `positional` and `named` to `spec` as `qualname(self, ...)` would, or raises TypeError. */
export function bindArguments(qualname: string, spec: MethodSpec, positional: readonly unknown[], named: Readonly<Record<string, unknown>>): BoundArguments {
  const params = spec.params.filter((p) => !p.variadicKeywords && !p.variadicPositional);
  const acceptsKeywords = spec.params.some((p) => p.variadicKeywords);
  const acceptsPositional = spec.params.some((p) => p.variadicPositional);
  const values: Record<string, unknown> = {};
  const extraKeywords: Record<string, unknown> = {};

  for (const [i, p] of params.slice(0, positional.length).entries()) values[p.name] = positional[i];
  const extraPositional = positional.slice(params.length);

  for (const [key, value] of Object.entries(named)) {
    const param = params.find((p) => p.name === key);
    if (key === 'self' || (param && Object.hasOwn(values, key))) {
      throw typeError(`${qualname}() got multiple values for argument '${key}'`);
    }
    if (param) values[key] = value;
    else if (acceptsKeywords) extraKeywords[key] = value;
    else throw typeError(`${qualname}() got an unexpected keyword argument '${key}'`);
  }

  if (extraPositional.length && !acceptsPositional) {
    const max = params.length + 1;
    const min = params.filter((p) => p.required).length + 1;
    const given = positional.length + 1;
    const takes = min === max ? `${max} positional argument${max === 1 ? '' : 's'}` : `from ${min} to ${max} positional arguments`;
    throw typeError(`${qualname}() takes ${takes} but ${given} ${given === 1 ? 'was' : 'were'} given`);
  }

  const missing = params.filter((p) => p.required && !Object.hasOwn(values, p.name)).map((p) => `'${p.name}'`);
  if (missing.length) {
    throw typeError(`${qualname}() missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${pythonList(missing)}`);
  }
  return { values, extraKeywords, extraPositional: acceptsPositional ? extraPositional : [] };
}

/** CPython's `format_missing`: `'a'`, `'a' and 'b'`, `'a', 'b', and 'c'`. */
function pythonList(names: readonly string[]): string {
  if (names.length === 1) return names[0]!;
  if (names.length === 2) return `${names[0]} and ${names[1]}`;
  return `${names.slice(0, -1).join(', ')}, and ${names[names.length - 1]}`;
}
