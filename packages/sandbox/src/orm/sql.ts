/**
 * @module Parameterised SQL fragments. Compilers return `{ sql, params }` pairs and join them;
 * a value never enters SQL text, so statements stay cacheable by their text.
 */

import type { Sql, SqlParam } from '../store/statements';
import { valueError } from './errors';

export const TRUE_SQL: Sql = { sql: '1', params: [] };
export const FALSE_SQL: Sql = { sql: '0', params: [] };

/** Raw SQL text without parameters. */
export function raw(sql: string): Sql {
  return { sql, params: [] };
}

/**
 * One placeholder bound to `value` (booleans as 0/1, as the store keeps them). A text with a NUL
 * character is refused as Odoo on PostgreSQL refuses it (psycopg2 raises before the query is sent,
 * and the caller gets the ValueError); SQLite would store and compare it.
 */
export function param(value: SqlParam | boolean): Sql {
  if (typeof value === 'string' && value.includes('\0')) throw valueError('A string literal cannot contain NUL (0x00) characters.');
  return { sql: '?', params: [typeof value === 'boolean' ? (value ? 1 : 0) : value] };
}

/** Tagged template: `${}` holes take `Sql` fragments, spliced with their parameters. */
export function sql(strings: TemplateStringsArray, ...parts: Sql[]): Sql {
  let text = strings[0] ?? '';
  const params: SqlParam[] = [];
  parts.forEach((part, i) => {
    text += part.sql + (strings[i + 1] ?? '');
    params.push(...part.params);
  });
  return { sql: text, params };
}

export function join(parts: readonly Sql[], separator: string): Sql {
  return {
    sql: parts.map((p) => p.sql).join(separator),
    params: parts.flatMap((p) => p.params),
  };
}

/** `(a AND b ...)`, simplifying constants so that trivial domains stay trivial. */
export function and(parts: readonly Sql[]): Sql {
  const kept = parts.filter((p) => p !== TRUE_SQL);
  if (kept.some((p) => p === FALSE_SQL)) return FALSE_SQL;
  if (kept.length === 0) return TRUE_SQL;
  if (kept.length === 1) return kept[0]!;
  return wrap(join(kept, ' AND '));
}

export function or(parts: readonly Sql[]): Sql {
  const kept = parts.filter((p) => p !== FALSE_SQL);
  if (kept.some((p) => p === TRUE_SQL)) return TRUE_SQL;
  if (kept.length === 0) return FALSE_SQL;
  if (kept.length === 1) return kept[0]!;
  return wrap(join(kept, ' OR '));
}

export function not(part: Sql): Sql {
  if (part === TRUE_SQL) return FALSE_SQL;
  if (part === FALSE_SQL) return TRUE_SQL;
  return sql`(NOT ${part})`;
}

function wrap(part: Sql): Sql {
  return { sql: `(${part.sql})`, params: part.params };
}

/** `(?, ?, ?)` for a non-empty list of values. */
export function list(values: readonly (SqlParam | boolean)[]): Sql {
  return wrap(join(values.map(param), ', '));
}
