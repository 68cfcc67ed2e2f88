/**
 * @module Python's calling conventions where the RPC services apply them to wire values: `int()`
 * of a uid, positional arity checks with Python's `TypeError` texts, `signature.bind` checks with
 * `inspect`'s texts, and `browse()` of an ids argument.
 */
import { pyRepr } from '../../orm/python';
import type { MethodSpec } from '../../orm/types';
import { PyException, pyTypeName } from '../py-exception';

/** `int(value)`, as Odoo casts the uid of an `object` call. */
export function pyInt(value: unknown): number {
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return Math.trunc(value);
    throw new PyException('builtins.OverflowError', 'cannot convert float infinity to integer');
  }
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    if (/^\s*[+-]?\d+\s*$/.test(value)) return Number(value);
    throw new PyException('builtins.ValueError', `invalid literal for int() with base 10: ${pyRepr(value)}`);
  }
  throw new PyException('builtins.TypeError', `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(value)}'`);
}

/**
 * Checks a positional call `name(*params)` against a signature of `names`, the first `required`
 * of them without default; raises Python's `TypeError` on a mismatch.
 */
export function checkArity(functionName: string, names: readonly string[], required: number, given: number): void {
  if (given < required) {
    const missing = names.slice(given, required).map((n) => `'${n}'`);
    const count = missing.length;
    const list = count === 1 ? missing[0] : count === 2 ? missing.join(' and ') : `${missing.slice(0, -1).join(', ')}, and ${missing[count - 1]}`;
    throw new PyException('builtins.TypeError', `${functionName}() missing ${count} required positional argument${count === 1 ? '' : 's'}: ${list}`);
  }
  if (given > names.length) {
    const takes = required === names.length ? `${names.length}` : `from ${required} to ${names.length}`;
    const plural = names.length === 1 && required === names.length ? '' : 's';
    throw new PyException('builtins.TypeError', `${functionName}() takes ${takes} positional argument${plural} but ${given} ${given === 1 ? 'was' : 'were'} given`);
  }
}

/**
 * `inspect.signature(method).bind(records, **named)`, as JSON-2 checks arguments before calling:
 * the first missing required parameter, else the first unknown keyword, in Python's words.
 */
export function bindError(spec: MethodSpec, named: Readonly<Record<string, unknown>>): string | undefined {
  if (Object.hasOwn(named, 'self')) return "multiple values for argument 'self'";
  // `*args` and `**kwargs` parameters cannot be bound by their own names.
  const known = new Set(spec.params.filter((p) => !p.variadicKeywords && !p.variadicPositional).map((p) => p.name));
  for (const param of spec.params) {
    if (param.required && known.has(param.name) && !Object.hasOwn(named, param.name)) return `missing a required argument: '${param.name}'`;
  }
  if (spec.params.some((p) => p.variadicKeywords)) return undefined;
  const unknown = Object.keys(named).find((key) => !known.has(key));
  return unknown === undefined ? undefined : `got an unexpected keyword argument '${unknown}'`;
}

/** `Model.browse(ids)`: an id, a list of ids, or a falsy value for the empty recordset. */
export function browseIds(value: unknown): number[] {
  if (value === false || value === null || value === undefined) return [];
  const items = Array.isArray(value) ? value : [value];
  return items.map((item) => {
    if (typeof item === 'number' && Number.isInteger(item)) return item;
    throw new PyException('builtins.ValueError', `invalid id ${pyRepr(item)}: record ids are integers`);
  });
}

/** `kwargs.pop('context', None) or {}`: the call's context and the remaining keywords. */
export function splitContext(kwargs: Readonly<Record<string, unknown>>): { context: Record<string, unknown>; named: Record<string, unknown> } {
  const { context, ...named } = kwargs;
  if (context === undefined || context === null || context === false) return { context: {}, named };
  if (typeof context !== 'object' || Array.isArray(context)) {
    throw new PyException('builtins.ValueError', 'dictionary update sequence element #0 has length 1; 2 is required');
  }
  return { context: context as Record<string, unknown>, named };
}

/** A keyword-argument dict from the wire, or Python's refusal of anything else. */
export function asKwargs(value: unknown): Record<string, unknown> {
  if (value === null || value === undefined) return {};
  if (typeof value === 'object' && !Array.isArray(value) && !(value instanceof Uint8Array)) return value as Record<string, unknown>;
  throw new PyException('builtins.TypeError', `'${pyTypeName(value)}' object is not a mapping`);
}
