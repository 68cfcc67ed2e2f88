/**
 * @module Opening the sandbox's SQLite file (Node's built-in `node:sqlite`), with the pragmas and
 * the SQL functions the ORM relies on.
 */
import { DatabaseSync } from 'node:sqlite';

export type Database = DatabaseSync;

export interface OpenOptions {
  /** Bulk loading (init, scale): no journal and no fsync until the file is complete. */
  readonly bulk?: boolean;
}

export function openDatabase(path: string, options: OpenOptions = {}): Database {
  const db = new DatabaseSync(path);
  if (options.bulk) {
    // `threads`: CREATE INDEX may sort with a helper thread.
    db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA threads = 2;');
  } else {
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  }
  db.exec('PRAGMA temp_store = MEMORY; PRAGMA cache_size = -65536; PRAGMA busy_timeout = 5000;');
  registerFunctions(db);
  return db;
}

/**
 * `ulower(x)`: Unicode-aware lower case (SQLite's `lower()` and `LIKE` fold ASCII only). Used by
 * `ilike` when the pattern holds non-ASCII letters, so `é` matches `É` as in PostgreSQL.
 */
function registerFunctions(db: Database): void {
  db.function('ulower', { deterministic: true }, (value) =>
    value === null || value === undefined ? null : String(value).toLowerCase(),
  );
}
