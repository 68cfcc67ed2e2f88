/**
 * @module Prepared statements cached by SQL text: compilers always emit the same text for the
 * same query shape (values are parameters), so a warm sandbox prepares nothing.
 */
import type { StatementSync } from 'node:sqlite';
import type { Sql, SqlParam } from '../orm/sql';
import type { Database } from './database';

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
