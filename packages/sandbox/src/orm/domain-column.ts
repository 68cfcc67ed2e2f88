/**
 * @module One domain condition on one column (or computed expression), with the NULL rules of
 * each version (reference section 9.2):
 *  - 17 (`expression.__leaf_to_sql`): NULL only matches `= false`; negative operators with a
 *    truthy value and empty like patterns add `OR col IS NULL`.
 *  - 18 (`BaseModel._condition_to_sql`): numbers treat NULL as 0 and strings as '' in
 *    equalities; numeric inequalities that 0 satisfies add NULL rows; `ilike ''` is TRUE.
 *  - 19 (`Field._condition_to_sql` after the domain optimizations): `=` is `in`, each field's
 *    `falsy_value` (0, 0.0, '') stands for NULL, inequalities included; datetimes are compared to
 *    whole seconds and date-only values are local midnights.
 */
import { typeError, valueError } from './errors';
import { ilikeSql, likeSql } from './like';
import { pyRepr, pyTruthy, pyTuple } from './python';
import type { FieldInfo } from './registry';
import type { Sql } from '../store/statements';
import { FALSE_SQL, TRUE_SQL, and, list, not, or, param, raw, sql } from './sql';
import { formatDate, formatDatetime, localToUtc, parseDate17, parseDate19, parseDatetime17, shift, type Naive } from './temporal';
import type { OdooVersion } from './types';
import { ormTraits } from './version-traits';

/** A column as a domain operand. */
export interface ColumnOperand {
  readonly version: OdooVersion;
  readonly field: FieldInfo;
  /** The dotted path or name as written, for messages. */
  readonly path: string;
  /** SQL of the value (`t."col"` or a computed expression). */
  readonly expr: Sql;
  readonly nullable: boolean;
  /** 19: request clock and time zone for date-only and relative values. */
  readonly now: Date;
  readonly tz: string;
}

const NEGATIVE = new Set(['!=', 'not like', 'not ilike', 'not in', 'not =like', 'not =ilike']);
const INEQUALITIES = new Set(['<', '<=', '>', '>=']);
const WILDCARD = new Set(['like', 'ilike', 'not like', 'not ilike']);

type Category = 'number' | 'char' | 'boolean' | 'date' | 'datetime' | 'other';

function category(field: FieldInfo): Category {
  switch (field.type) {
    case 'integer':
      return field.name === 'id' ? 'other' : 'number';
    case 'float':
    case 'monetary':
      return 'number';
    case 'char':
    case 'text':
    case 'html':
      return 'char';
    case 'boolean':
    case 'date':
    case 'datetime':
      return field.type;
    default:
      return 'other';
  }
}

/** Operator inverses used to push `!` into a leaf (`distribute_not` / `Domain.__invert__`). */
export function inverseOperator(version: OdooVersion, operator: string, field: FieldInfo): { operator: string; orNull: boolean } | undefined {
  if (ormTraits(version).negation === 'distribute_not') {
    const inverse = INVERSE_17[operator];
    return inverse ? { operator: inverse, orNull: false } : undefined;
  }
  const inverse = INVERSE_19[operator];
  if (inverse) return { operator: inverse, orNull: false };
  const inequality = INVERSE_INEQUALITY[operator];
  if (!inequality) return undefined;
  // 19 `_negate`: inverting an inequality adds "or not set" unless the field has a falsy value.
  const c = category(field);
  return { operator: inequality, orNull: c !== 'number' && c !== 'char' };
}

const INVERSE_INEQUALITY: Record<string, string> = { '<': '>=', '>': '<=', '<=': '>', '>=': '<' };
const INVERSE_17: Record<string, string> = {
  ...INVERSE_INEQUALITY,
  '=': '!=',
  '!=': '=',
  in: 'not in',
  'not in': 'in',
  like: 'not like',
  'not like': 'like',
  ilike: 'not ilike',
  'not ilike': 'ilike',
};
const INVERSE_19: Record<string, string> = {
  in: 'not in',
  'not in': 'in',
  like: 'not like',
  'not like': 'like',
  ilike: 'not ilike',
  'not ilike': 'ilike',
  '=like': 'not =like',
  'not =like': '=like',
  '=ilike': 'not =ilike',
  'not =ilike': '=ilike',
};

/**
 * SQL of `(column operator value)`, the operator already normalized by the domain compiler
 * (lower case, aliases resolved, 19's `=` turned into `in`).
 */
export function columnCondition(operand: ColumnOperand, operator: string, value: unknown): Sql {
  return ormTraits(operand.version).optimizedConditions ? condition19(operand, operator, value) : condition1718(operand, operator, value);
}

// ------------------------------------------------------------------------ 17 / 18

function condition1718(o: ColumnOperand, operator: string, input: unknown): Sql {
  // 18 (`_condition_to_sql`): NULL stands for 0 / '' (17 `__leaf_to_sql`: NULL only matches `= false`).
  const nullIsFalsy = ormTraits(o.version).nullMatchesFalsy;
  // A date-only value against a datetime is padded in UTC: end of day for `>` and `<=`.
  const value =
    o.field.type === 'datetime' && typeof input === 'string' && input.length === 10 ? `${input} ${operator === '>' || operator === '<=' ? '23:59:59' : '00:00:00'}` : input;
  const cat = category(o.field);
  const isNull = sql`${o.expr} IS NULL`;
  const withNull = (s: Sql) => (o.nullable ? or([s, isNull]) : s);

  if (operator === 'in' || operator === 'not in') {
    if (!Array.isArray(value)) throw valueError(`Invalid domain term ${pyTuple([o.path, operator, value])}`);
    let params: unknown[];
    let checkNull: boolean;
    if (cat === 'boolean' && !nullIsFalsy) {
      // `[it for it in (True, False) if it in right]`: Python's True == 1 and False == 0.
      params = [true, false].filter((b) => value.some((v) => v === b || v === (b ? 1 : 0)));
      checkNull = value.some((v) => v === false || v === 0);
    } else {
      params = value.filter((v) => v !== false && v !== null && v !== undefined);
      checkNull = params.length < value.length;
      if (nullIsFalsy && cat === 'boolean') {
        params = params.some(pyTruthy) ? [true] : [];
        if (checkNull) params.push(false);
      } else if (nullIsFalsy && (cat === 'number' || cat === 'char')) {
        const empty = cat === 'number' ? 0 : '';
        params = params.map((p) => toColumn17(o, p));
        if (checkNull && !params.includes(empty)) params.push(empty);
        checkNull = checkNull || params.includes(empty);
      }
    }
    const converted = params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : toColumn17(o, p)));
    let s = converted.length ? sql`${o.expr} ${raw(operator === 'in' ? 'IN' : 'NOT IN')} ${list(converted)}` : operator === 'in' ? FALSE_SQL : TRUE_SQL;
    if ((operator === 'in' && checkNull) || (operator === 'not in' && !checkNull)) s = or([s, isNull]);
    else if (operator === 'not in' && checkNull) s = and([s, sql`${o.expr} IS NOT NULL`]);
    return s;
  }

  if (cat === 'boolean' && (operator === '=' || operator === '!=') && typeof value === 'boolean') {
    const wanted = operator === '!=' ? !value : value;
    return wanted ? sql`${o.expr} = 1` : or([isNull, sql`${o.expr} = 0`]);
  }

  let right = value;
  if (nullIsFalsy && o.field.name === 'id' && (operator === '=' || operator === '!=') && !pyTruthy(right)) right = false;
  if (nullIsFalsy && o.field.type === 'many2one' && (operator === '=' || operator === '!=') && !pyTruthy(right)) right = false;
  if ((operator === '=' || operator === '!=') && (right === false || right === null || right === undefined)) {
    if (nullIsFalsy && cat === 'number') right = 0;
    else if (nullIsFalsy && cat === 'char') right = '';
    else return operator === '=' ? isNull : sql`${o.expr} IS NOT NULL`;
  }

  const wildcard = WILDCARD.has(operator);
  const negative = NEGATIVE.has(operator);
  if (nullIsFalsy && wildcard && !pyTruthy(right)) return negative ? FALSE_SQL : TRUE_SQL;

  let s: Sql;
  if (operator.endsWith('like')) {
    const pattern = wildcard ? `%${pyStr(right)}%` : pyStr(toColumn17(o, right));
    s = likeCondition(o, operator, pattern);
  } else {
    s = sql`${o.expr} ${raw(operator)} ${param(toColumn17(o, right))}`;
  }

  if (!nullIsFalsy) {
    if ((wildcard && !pyTruthy(right)) || (pyTruthy(right) && negative)) s = or([s, isNull]);
    return s;
  }
  if (pyTruthy(right) === negative && !INEQUALITIES.has(operator)) s = withNull(s);
  if (!wildcard && cat === 'number' && INEQUALITIES.has(operator)) {
    const cmp = Number(toColumn17(o, right));
    const zeroMatches = (operator === '>=' && cmp <= 0) || (operator === '<=' && cmp >= 0) || (operator === '<' && cmp > 0) || (operator === '>' && cmp < 0);
    if (zeroMatches) s = withNull(s);
  }
  return s;
}

/** 17/18 `convert_to_column` of a domain value (dates checked with `strptime`'s wording). */
function toColumn17(o: ColumnOperand, value: unknown): string | number | null {
  if (value === false || value === null || value === undefined) return null;
  switch (o.field.type) {
    case 'date':
      return typeof value === 'string' ? parseDate17(value) : pyStr(value);
    case 'datetime':
      return typeof value === 'string' ? parseDatetime17(value) : pyStr(value);
    default:
      return toColumnValue(o.field, value);
  }
}

// ------------------------------------------------------------------------ 19

function condition19(o: ColumnOperand, operator: string, value: unknown): Sql {
  const cat = category(o.field);
  // Operator rewrites come before the type's: an empty pattern is settled before booleans refuse `like`.
  if (operator.endsWith('like') && !(cat === 'boolean' && pyTruthy(value))) return like19(o, operator, value);
  if (cat === 'boolean') return boolean19(o, operator, value);
  if (cat === 'date' || cat === 'datetime') {
    if (INEQUALITIES.has(operator) || operator === 'in' || operator === 'not in') {
      return cat === 'date' ? date19(o, operator, value) : datetime19(o, operator, value);
    }
  }
  if (operator === 'in' || operator === 'not in') return in19(o, operator, asArray(value));
  if (INEQUALITIES.has(operator)) return inequality19(o, operator, value);
  throw valueError(`Invalid operator ${pyRepr(operator)} for SQL in domain term ${pyTuple([o.path, operator, value])}`);
}

/** `Field._condition_to_sql` for `in` / `not in`, with the field's falsy value standing for NULL. */
function in19(o: ColumnOperand, operator: string, values: readonly unknown[]): Sql {
  if (values.length === 0) return operator === 'in' ? FALSE_SQL : TRUE_SQL;
  const cat = category(o.field);
  let params = values.filter((v) => v !== false && v !== null && v !== undefined).map((v) => toColumnValue(o.field, v));
  let nullIn = params.length < values.length;
  const falsy = cat === 'number' ? 0 : cat === 'char' ? '' : undefined;
  if (falsy !== undefined) {
    if (standsForNull(o.field, values, params, falsy)) nullIn = true;
    else if (nullIn) params = [...params, falsy];
  }
  params = [...new Set(params)];
  const s = params.length ? sql`${o.expr} ${raw(operator === 'in' ? 'IN' : 'NOT IN')} ${list(params)}` : undefined;
  if ((operator === 'in') === nullIn) {
    if (!o.nullable) return s ?? FALSE_SQL;
    const isNull = sql`${o.expr} IS NULL`;
    return s ? or([s, isNull]) : isNull;
  }
  if (operator === 'not in' && nullIn && !s) return o.nullable ? sql`${o.expr} IS NOT NULL` : TRUE_SQL;
  return s!;
}

/**
 * Whether a value of an `in` list is the field's falsy value. Integer and Float convert the value
 * first (`int(0) == 0`), but Monetary keeps Field's `convert_to_column`, `str(value)`, and compares
 * it with `str(0.0)`: only a float zero (`'0.0'`) stands for NULL, never the `0` a JSON or XML-RPC
 * integer gives. The sandbox reads every JSON number as a JavaScript number, so it treats a JSON
 * `0.0` as `0` there (docs/compatibility.md).
 */
function standsForNull(field: FieldInfo, values: readonly unknown[], params: readonly unknown[], falsy: unknown): boolean {
  if (field.type === 'monetary') return values.some((v) => v === '0.0');
  return params.includes(falsy);
}

function inequality19(o: ColumnOperand, operator: string, value: unknown): Sql {
  const cat = category(o.field);
  let acceptNull = false;
  let right: string | number | null;
  if (cat === 'number' || cat === 'char') {
    const falsy = cat === 'number' ? 0 : '';
    const converted = value === false || value === null ? falsy : toColumnValue(o.field, value);
    right = converted === null || converted === 0 || converted === '' ? falsy : converted;
    acceptNull = o.nullable && compare(falsy, operator, right);
  } else {
    right = value === false || value === null ? null : toColumnValue(o.field, value);
  }
  const s = sql`${o.expr} ${raw(operator)} ${param(right)}`;
  return acceptNull ? or([s, sql`${o.expr} IS NULL`]) : s;
}

function compare(a: string | number, operator: string, b: string | number | null): boolean {
  if (b === null) return false;
  switch (operator) {
    case '<':
      return a < b;
    case '>':
      return a > b;
    case '<=':
      return a <= b;
    default:
      return a >= b;
  }
}

/** `_optimize_like_str` then the like branch of `_condition_to_sql`. */
function like19(o: ColumnOperand, operator: string, value: unknown): Sql {
  const negative = NEGATIVE.has(operator);
  const exact = operator.includes('=');
  if (!pyTruthy(value)) {
    // An empty pattern: `ilike ''` is TRUE, `not ilike ''` FALSE, `=like ''` means "not set".
    const result = negative === exact;
    if (!exact) return result ? TRUE_SQL : FALSE_SQL;
    return in19(o, result ? 'not in' : 'in', [false]);
  }
  if (typeof value !== 'string' && exact) {
    throw typeError(`The pattern to match must be a string in condition ${pyTuple([o.path, operator, value])}`);
  }
  const text = pyStr(value);
  const s = likeCondition(o, operator, exact ? text : `%${text}%`);
  return negative && o.nullable ? or([s, sql`${o.expr} IS NULL`]) : s;
}

/** `_optimize_boolean_in`: compare to `[True]` whenever possible; `in [True, False]` is TRUE. */
function boolean19(o: ColumnOperand, operator: string, value: unknown): Sql {
  if ((operator !== 'in' && operator !== 'not in') || !Array.isArray(value)) {
    throw valueError(`Cannot compare ${pyRepr(o.path)} to <class '${pyTypeName(value)}'> which is not a collection of length 1 in condition ${pyTuple([o.path, operator, value])}`);
  }
  const values = new Set(value.map((v) => (typeof v === 'string' ? str2bool(v) : pyTruthy(v))));
  if (values.size === 0) return operator === 'in' ? FALSE_SQL : TRUE_SQL;
  if (values.size === 2) return operator === 'in' ? TRUE_SQL : FALSE_SQL;
  let op = operator;
  if (values.has(false)) op = operator === 'in' ? 'not in' : 'in';
  return in19(o, op, [true]);
}

/** Odoo's `str2bool(s, default=False)`. */
function str2bool(s: string): boolean {
  return ['y', 'yes', '1', 'true', 't', 'on'].includes(s.toLowerCase());
}

function date19(o: ColumnOperand, operator: string, value: unknown): Sql {
  const values = asArray(value).map((v) => {
    if (v === false || v === null) return false;
    if (typeof v !== 'string') throw valueError(`Failed to cast ${pyRepr(v)} into a date`);
    return formatDate(parseDate19(v, o.now, o.tz).value);
  });
  if (INEQUALITIES.has(operator)) {
    if (values[0] === false) return FALSE_SQL;
    return sql`${o.expr} ${raw(operator)} ${param(values[0]!)}`;
  }
  return in19(o, operator, values);
}

/** `_optimize_type_datetime`: date-only values are local midnights, equality is a 1 s window. */
function datetime19(o: ColumnOperand, operator: string, value: unknown): Sql {
  const values = asArray(value).map((v) => toDatetime19(o, v));
  if (INEQUALITIES.has(operator)) {
    const first = values[0];
    if (!first) return FALSE_SQL;
    let op = operator;
    let at = first.value;
    const step = first.isDate ? 'd' : 'S';
    if (operator === '>') [op, at] = ['>=', shift(at, 1, step)];
    else if (operator === '<=') [op, at] = ['<', shift(at, 1, step)];
    return sql`${o.expr} ${raw(op)} ${param(formatDatetime(at))}`;
  }
  if (!values.some(Boolean))
    return in19(
      o,
      operator,
      values.map(() => false),
    );
  const windows = values.map((v) =>
    v ? and([sql`${o.expr} >= ${param(formatDatetime(v.value))}`, sql`${o.expr} < ${param(formatDatetime(shift(v.value, 1, 'S')))}`]) : sql`${o.expr} IS NULL`,
  );
  if (operator === 'in') return or(windows);
  // `~domain`: each window negated, inequalities adding "or not set" (datetimes have no falsy value).
  return and(
    values.map((v) =>
      v
        ? or([sql`${o.expr} < ${param(formatDatetime(v.value))}`, sql`${o.expr} >= ${param(formatDatetime(shift(v.value, 1, 'S')))}`, sql`${o.expr} IS NULL`])
        : sql`${o.expr} IS NOT NULL`,
    ),
  );
}

function toDatetime19(o: ColumnOperand, v: unknown): { value: Naive; isDate: boolean } | false {
  if (v === false || v === null) return false;
  if (typeof v !== 'string') throw valueError(`Failed to cast ${pyRepr(v)} into a datetime`);
  const parsed = parseDate19(v, o.now, o.tz);
  if (parsed.isDate) {
    const midnight = { ...parsed.value, h: 0, mi: 0, s: 0 };
    return { value: localToUtc(midnight, o.tz), isDate: true };
  }
  return { value: parsed.local ? localToUtc(parsed.value, o.tz) : parsed.value, isDate: false };
}

// ------------------------------------------------------------------------ shared

function likeCondition(o: ColumnOperand, operator: string, pattern: string): Sql {
  const text = o.field.type === 'char' || o.field.type === 'text' || o.field.type === 'html' ? o.expr : sql`CAST(${o.expr} AS TEXT)`;
  const positive = operator.replace(/^not /, '');
  const s = positive.endsWith('ilike') ? ilikeSql(text, pattern) : likeSql(text, pattern);
  return positive === operator ? s : not(s);
}

function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [value];
}

/** `convert_to_column` of a scalar value, raising Python's conversion errors. */
function toColumnValue(field: FieldInfo, value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  switch (field.type) {
    case 'integer':
    case 'many2one':
    case 'one2many':
    case 'many2many':
      return toInt(value);
    case 'float':
    case 'monetary':
      return toFloat(value);
    case 'boolean':
      return pyTruthy(value) ? 1 : 0;
    case 'json':
      return JSON.stringify(value);
    default:
      return value === false ? null : sized(field, pyStr(value));
  }
}

/**
 * A sized Char's value as Odoo compares it: `convert_to_column` is `convert_to_cache`, which keeps
 * `s[:size]` (code points). So `name = 'EURO'` on `res.currency` matches 'EUR', and a NUL past the
 * size never reaches PostgreSQL (measured on a live 19.0, 2026-11-25).
 */
function sized(field: FieldInfo, text: string): string {
  if (field.size === undefined || field.type !== 'char') return text;
  const points = Array.from(text);
  return points.length > field.size ? points.slice(0, field.size).join('') : text;
}

function toInt(value: unknown): number {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return Math.trunc(value);
  if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)) return parseInt(value, 10);
  if (typeof value === 'string') throw valueError(`invalid literal for int() with base 10: ${pyRepr(value)}`);
  throw typeError(`int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(value)}'`);
}

function toFloat(value: unknown): number {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  if (typeof value === 'string') throw valueError(`could not convert string to float: ${pyRepr(value)}`);
  throw typeError(`float() argument must be a string or a real number, not '${pyTypeName(value)}'`);
}

/** Python `str()` of a JSON value. */
export function pyStr(value: unknown): string {
  return typeof value === 'string' ? value : pyRepr(value);
}

function pyTypeName(value: unknown): string {
  if (value === null || value === undefined || value === false) return value === false ? 'bool' : 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}
