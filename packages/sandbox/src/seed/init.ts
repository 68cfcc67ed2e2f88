/**
 * @module Creating a sandbox database (schema, demo data, optional scaling, indexes) and opening
 * one for the transports: the entry points the CLI and the end-to-end tests use. The store opens
 * and closes the file (`store/database.ts`); the seeder fills the database it is handed.
 */
import { createHash } from 'node:crypto';
import { loadRegistry } from '../models';
import { SandboxOrm } from '../orm/orm';
import type { Registry } from '../orm/registry';
import { applyRegistryDrift, type RegistryDrift } from '../orm/registry-drift';
import { createIndexes, createTables } from '../orm/schema';
import type { OdooVersion, Orm } from '../orm/types';
import { createDatabase, openExistingDatabase, readUserVersion, type Database } from '../store/database';
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
  const rows = createDatabase(options.path, schemaVersion(registry), (db) => seedDatabase(db, registry, seed, options.scale ?? {}));
  return { path: options.path, seed, rows, durationMs: performance.now() - started };
}

/** Fills an empty, open database: tables, demo data, scaling, then indexes. Rows per model. */
function seedDatabase(db: Database, registry: Registry, seed: number, scale: Readonly<Record<string, number>>): Record<string, number> {
  db.exec('BEGIN');
  createTables(db, registry);
  const state = seedDemoData(db, registry, seed);
  for (const [model, rows] of Object.entries(scale)) growModel(db, state, model, rows);
  db.exec('COMMIT');
  // Indexes after the bulk load: building them once is much faster than maintaining them.
  createIndexes(db, registry);
  const rows: Record<string, number> = {};
  for (const model of registry.models.values()) {
    rows[model.name] = (db.prepare(`SELECT COUNT(*) AS n FROM "${model.table}"`).get() as { n: number }).n;
  }
  return rows;
}

/**
 * What the seeder stores, beyond the tables and columns: raised when stored values change form
 * (2: datetimes with the microseconds Odoo stores), so that a database of the older form is remade.
 */
const DATA_FORM = 2;

/**
 * A number that changes with the registry's tables and columns (and `DATA_FORM`), kept in the
 * database's `user_version`: a database made by an older sandbox is recognised (and `make run` remakes it).
 */
export function schemaVersion(registry: Registry = loadRegistry()): number {
  const shape = [DATA_FORM, ...[...registry.models.values()].map((m) => [m.table, m.columns.map((c) => c.name)])];
  return createHash('sha256').update(JSON.stringify(shape)).digest().readUInt32BE(0) >>> 1;
}

/** Whether the database at `path` was made for this registry. */
export function isCurrentDatabase(path: string, registry: Registry = loadRegistry()): boolean {
  return readUserVersion(path) === schemaVersion(registry);
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
  const db = openExistingDatabase(options.path);
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
  const row = db.prepare('SELECT "id", "active" FROM "res_users" WHERE "login" = ?').get(login) as { id: number; active: number | null } | undefined;
  return row && { id: row.id, active: row.active === 1 };
}

export function isUserActive(db: Database, uid: number): boolean {
  return db.prepare('SELECT 1 AS ok FROM "res_users" WHERE "id" = ? AND "active" = 1').get(uid) !== undefined;
}
