/**
 * @module API keys, stored as Odoo stores them (`res.users.apikeys`, table `res_users_apikeys`):
 * the first 8 characters in clear as a lookup index, the whole key only as a pbkdf2-sha512 hash.
 * A key is 40 lowercase hex characters (20 random bytes), shown once when generated and never
 * stored or logged in clear. Lookup follows `_check_credentials`: rows with that index, an active
 * owner, scope NULL or the requested one, not expired (from 18.0 on), then hash verification.
 */
import { randomBytes } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { OdooVersion } from '../orm/types';
import { ormTraits } from '../orm/version-traits';
import { hashSecret, verifySecret } from './pbkdf2-sha512';

export const API_KEY_TABLE = 'res_users_apikeys';
const INDEX_SIZE = 8;
const KEY_PATTERN = /^[0-9a-f]{40}$/;

/** `YYYY-MM-DD HH:MM:SS` in UTC, the form Odoo stores datetimes in (and that sorts as text). */
function toUtcText(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

export interface KeyOwner {
  readonly userId: number;
  /** UTC text, or null when the key never expires (or expiry is not honoured). */
  readonly expiresAt: string | null;
}

export interface ApiKeysOptions {
  readonly version: OdooVersion;
  /** The clock expiry is judged by; tests move it. */
  readonly now?: () => Date;
}

export class ApiKeys {
  private readonly now: () => Date;

  constructor(
    private readonly db: DatabaseSync,
    private readonly options: ApiKeysOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    ensureApiKeyTable(db);
  }

  /** Creates a key for a user and returns it: the only time it exists in clear. */
  generateKey(userId: number, name: string, expiresAt?: Date | null, scope: string | null = null): string {
    const key = randomBytes(20).toString('hex');
    this.db
      .prepare(`INSERT INTO ${API_KEY_TABLE} (name, user_id, scope, "index", key, create_date, expiration_date) VALUES (?, ?, ?, ?, ?, ?, ?)`)
      .run(name, userId, scope, key.slice(0, INDEX_SIZE), hashSecret(key), toUtcText(this.now()), expiresAt ? toUtcText(expiresAt) : null);
    return key;
  }

  /** The owner of a valid key for that scope, or undefined; never throws for a bad key. */
  async ownerOf(key: unknown, scope = 'rpc'): Promise<KeyOwner | undefined> {
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) return undefined;
    const expiryHonoured = ormTraits(this.options.version).apiKeyExpiry;
    const rows = this.db
      .prepare(
        `SELECT k.user_id AS userId, k.key AS hash, k.expiration_date AS expiresAt
           FROM ${API_KEY_TABLE} k JOIN res_users u ON u.id = k.user_id
          WHERE u.active AND k."index" = ? AND (k.scope IS NULL OR k.scope = ?)
            AND (? = 0 OR k.expiration_date IS NULL OR k.expiration_date >= ?)`,
      )
      .all(key.slice(0, INDEX_SIZE), scope, expiryHonoured ? 1 : 0, toUtcText(this.now())) as unknown as {
      userId: number;
      hash: string;
      expiresAt: string | null;
    }[];
    for (const row of rows) {
      if (await verifySecret(key, row.hash)) return { userId: row.userId, expiresAt: expiryHonoured ? row.expiresAt : null };
    }
    return undefined;
  }
}

/** Creates the table if missing (the seeder's database does not have it). */
function ensureApiKeyTable(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS ${API_KEY_TABLE} (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL,
      user_id INTEGER NOT NULL REFERENCES res_users (id) ON DELETE CASCADE,
      scope TEXT,
      "index" TEXT NOT NULL CHECK (length("index") = ${INDEX_SIZE}),
      key TEXT NOT NULL,
      create_date TEXT NOT NULL,
      expiration_date TEXT
    );
    CREATE INDEX IF NOT EXISTS ${API_KEY_TABLE}_user_id_index_idx ON ${API_KEY_TABLE} (user_id, "index");
  `);
}
