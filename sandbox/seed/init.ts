/**
 * @module Creating a sandbox database (schema, demo data, optional scaling, indexes) and opening
 * one for the transports: the entry points the CLI and the end-to-end tests use.
 */
import { createHash } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { SandboxOrm } from '../orm/orm';
import { loadRegistry } from '../models';
import type { Registry } from '../orm/registry';
import { applyRegistryDrift, type RegistryDrift } from '../orm/registry-drift';
import type { OdooVersion, Orm } from '../orm/types';
import { openDatabase, type Database } from '../store/database';
import { createIndexes, createTables } from '../orm/schema';
import { seedDemoData } from './demo';
import { growModel } from './scale';

export interface InitOptions {
  /** SQLite file to create; an existing one is deleted first. */
  readonly path: string;
  /** PRNG seed of the demo data (default 1): same seed, same data. */
  readonly seed?: number;
  /** Row counts to grow models to, e.g. `{ 'fleet.vehicle': 1_000_000 }`. */
  readonly scale?: Readonly<Record<string, number>>;
  readonly registry?: Registry;
}

export interface InitReport {
  readonly path: string;
  readonly seed: number;
  /** Rows per model after seeding and scaling. */
  readonly rows: Readonly<Record<string, number>>;
  readonly durationMs: number;
}

export function initDatabase(options: InitOptions): InitReport {
  const started = performance.now();
  const registry = options.registry ?? loadRegistry();
  const seed = options.seed ?? 1;
  for (const model of Object.keys(options.scale ?? {})) {
    if (!registry.get(model)) throw new Error(`Cannot scale ${model}: no such model`);
  }
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${options.path}${suffix}`, { force: true });

  const db = openDatabase(options.path, { bulk: true });
  try {
    db.exec('BEGIN');
    createTables(db, registry);
    const state = seedDemoData(db, registry, seed);
    for (const [model, rows] of Object.entries(options.scale ?? {})) growModel(db, state, model, rows);
    db.exec('COMMIT');
    // Indexes after the bulk load: building them once is much faster than maintaining them.
    createIndexes(db, registry);
    db.exec(`PRAGMA analysis_limit = 1000; ANALYZE; PRAGMA journal_mode = WAL; PRAGMA user_version = ${schemaVersion(registry)};`);
    const rows: Record<string, number> = {};
    for (const model of registry.models.values()) {
      rows[model.name] = (db.prepare(`SELECT COUNT(*) AS n FROM "${model.table}"`).get() as { n: number }).n;
    }
    return { path: options.path, seed, rows, durationMs: performance.now() - started };
  } finally {
    db.close();
  }
}

/**
 * A number that changes with the registry's tables and columns, kept in the database's
 * `user_version`: a database made by an older sandbox is recognised (and `make run` remakes it).
 */
export function schemaVersion(registry: Registry = loadRegistry()): number {
  const shape = [...registry.models.values()].map((m) => [m.table, m.columns.map((c) => c.name)]);
  return createHash('sha256').update(JSON.stringify(shape)).digest().readUInt32BE(0) >>> 1;
}

/** Whether the database at `path` was made for this registry. */
export function isCurrentDatabase(path: string, registry: Registry = loadRegistry()): boolean {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version === schemaVersion(registry);
  } finally {
    db.close();
  }
}

export interface OpenOptions {
  readonly path: string;
  /** Odoo version to imitate (default 19). */
  readonly version?: OdooVersion;
  /** Request clock (tests freeze it); default real time. */
  readonly now?: () => Date;
  /** Models and fields to serve differently from the model files (drift-check tests). */
  readonly drift?: RegistryDrift;
}

export interface SandboxHandle {
  readonly orm: Orm;
  /** The same connection, for the transports' own tables (API keys). */
  readonly db: Database;
  readonly version: OdooVersion;
  /** `res_users` row with this login (active or not). */
  findUserByLogin(login: string): { id: number; active: boolean } | undefined;
  /** Whether `uid` is an existing, active user. */
  isUserActive(uid: number): boolean;
  close(): void;
}

/** Opens an initialised sandbox database for serving. */
export function openOrm(options: OpenOptions): SandboxHandle {
  if (!existsSync(options.path)) throw new Error(`No sandbox database at ${options.path}: run the init first`);
  const db = openDatabase(options.path);
  const version = options.version ?? 19;
  const registry = options.drift ? applyRegistryDrift(loadRegistry(), options.drift) : loadRegistry();
  const orm = new SandboxOrm(db, { version, registry, ...(options.now ? { now: options.now } : {}) });
  return {
    orm,
    db,
    version,
    findUserByLogin: (login) => findUserByLogin(db, login),
    isUserActive: (uid) => isUserActive(db, uid),
    close: () => db.close(),
  };
}

export function findUserByLogin(db: Database, login: string): { id: number; active: boolean } | undefined {
  const row = db.prepare('SELECT "id", "active" FROM "res_users" WHERE "login" = ?').get(login) as
    | { id: number; active: number | null }
    | undefined;
  return row && { id: row.id, active: row.active === 1 };
}

export function isUserActive(db: Database, uid: number): boolean {
  return db.prepare('SELECT 1 AS ok FROM "res_users" WHERE "id" = ? AND "active" = 1').get(uid) !== undefined;
}
