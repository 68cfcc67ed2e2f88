/**
 * @module Opening and closing the sandbox's SQLite file (Node's built-in `node:sqlite`), with the
 * pragmas and the SQL functions the ORM relies on. The only place that opens one: the seeder and
 * the ORM get an open `Database`.
 */
import { existsSync, rmSync } from 'node:fs';
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

/** Opens an existing file for serving; refuses a missing one (which SQLite would create empty). */
export function openExistingDatabase(path: string): Database {
  if (!existsSync(path)) throw new Error(`No sandbox database at ${path}: run the init first`);
  return openDatabase(path);
}

/**
 * Creates the file at `path` afresh (an existing one and its journals deleted), opened for bulk
 * loading while `fill` loads it; then analyses it, switches it to WAL, stamps `userVersion` (the
 * schema it was made for) and closes it. Returns what `fill` returns.
 */
export function createDatabase<T>(path: string, userVersion: number, fill: (db: Database) => T): T {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
  const db = openDatabase(path, { bulk: true });
  try {
    const result = fill(db);
    db.exec(`PRAGMA analysis_limit = 1000; ANALYZE; PRAGMA journal_mode = WAL; PRAGMA user_version = ${userVersion};`);
    return result;
  } finally {
    db.close();
  }
}

/** The `user_version` stamped by `createDatabase`, read without opening the file for writing. */
export function readUserVersion(path: string): number {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  } finally {
    db.close();
  }
}

/**
 * `ulower(x)`: Unicode-aware lower case (SQLite's `lower()` and `LIKE` fold ASCII only). Used by
 * `ilike` when the pattern holds non-ASCII letters, so `é` matches `É` as in PostgreSQL.
 */
function registerFunctions(db: Database): void {
  db.function('ulower', { deterministic: true }, (value) => (value === null || value === undefined ? null : String(value).toLowerCase()));
}
