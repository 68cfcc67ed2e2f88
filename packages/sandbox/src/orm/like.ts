/**
 * @module `like` family operators on SQLite, with PostgreSQL's semantics: `%` and `_` are
 * wildcards, a backslash escapes the next character, `like` is case-sensitive and `ilike`
 * folds case for every letter (SQLite's LIKE folds ASCII only and is case-insensitive).
 */
import type { Sql } from '../store/statements';
import { param, sql } from './sql';

/**
 * Case-sensitive match: LIKE pattern translated to GLOB (`*`, `?`, bracket-escaped literals),
 * which SQLite evaluates natively.
 */
export function likeSql(left: Sql, pattern: string): Sql {
  return sql`${left} GLOB ${param(likeToGlob(pattern))}`;
}

/**
 * Case-insensitive match. An ASCII pattern uses SQLite's LIKE as is (it folds ASCII and compares
 * other characters exactly, which is what lower-casing both sides would give); a pattern with
 * other letters lower-cases both sides with the Unicode-aware `ulower()`.
 */
export function ilikeSql(left: Sql, pattern: string): Sql {
  if (/^\p{ASCII}*$/u.test(pattern)) return sql`${left} LIKE ${param(pattern)} ESCAPE '\\'`;
  return sql`ulower(${left}) LIKE ${param(pattern.toLowerCase())} ESCAPE '\\'`;
}

function likeToGlob(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\' && i + 1 < pattern.length) {
      out += literal(pattern[++i]!);
    } else if (ch === '%') {
      out += '*';
    } else if (ch === '_') {
      out += '?';
    } else {
      out += literal(ch);
    }
  }
  return out;
}

function literal(ch: string): string {
  return ch === '*' || ch === '?' || ch === '[' ? `[${ch}]` : ch;
}
