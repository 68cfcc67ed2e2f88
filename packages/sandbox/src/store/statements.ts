/**
 * @module Prepared statements cached by SQL text: compilers always emit the same text for the
 * same query shape (values are parameters), so a warm sandbox prepares nothing.
 */
import type { StatementSync } from 'node:sqlite';
import type { Database } from './database';

/** A value bound to a placeholder: the store keeps booleans as 0/1. */
export type SqlParam = string | number | null;

/** Parameterised SQL, as the ORM's compilers build it (`orm/sql.ts`) and statements run it. */
export interface Sql {
  readonly sql: string;
  readonly params: readonly SqlParam[];
}

const MAX_CACHED = 2000;

export class StatementCache {
  private readonly statements = new Map<string, StatementSync>();

  constructor(private readonly db: Database) {}

  prepare(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (!statement) {
      if (this.statements.size >= MAX_CACHED) this.statements.clear();
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  all<T = Record<string, SqlParam>>(query: Sql): T[] {
    return this.prepare(query.sql).all(...query.params) as T[];
  }

  get<T = Record<string, SqlParam>>(query: Sql): T | undefined {
    return this.prepare(query.sql).get(...query.params) as T | undefined;
  }
}
