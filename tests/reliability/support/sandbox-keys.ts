/**
 * API keys minted in a running sandbox's database, as the technical account's holder would create
 * them in the ERP: fresh keys (never seen by the gateway), keys that expire soon, and revocation.
 */
import { DatabaseSync } from 'node:sqlite';
import { API_KEY_TABLE, ApiKeys } from '@ops-data-gateway/sandbox/security/api-keys';
import { findUserByLogin } from '@ops-data-gateway/sandbox/seed/init';
import { GATEWAY_LOGIN } from '@ops-data-gateway/sandbox/seed/security';

/** A new key of the gateway's API user, expiring at `expiresAt` (never when omitted). */
export function mintKey(dbPath: string, options: { name?: string; expiresAt?: Date; now?: () => Date } = {}): string {
  const db = new DatabaseSync(dbPath);
  try {
    const user = findUserByLogin(db, GATEWAY_LOGIN);
    if (!user) throw new Error(`no user ${GATEWAY_LOGIN} in ${dbPath}`);
    const keys = new ApiKeys(db, { version: 19, ...(options.now ? { now: options.now } : {}) });
    return keys.generateKey(user.id, options.name ?? 'reliability test', options.expiresAt ?? null);
  } finally {
    db.close();
  }
}

/** Deletes the key, as "revoke" in the ERP's security settings does. */
export function revokeKey(dbPath: string, key: string): void {
  const db = new DatabaseSync(dbPath);
  try {
    // Keys are stored hashed: the row is found by its clear 8-character index.
    const removed = db.prepare(`DELETE FROM ${API_KEY_TABLE} WHERE "index" = ?`).run(key.slice(0, 8));
    if (removed.changes !== 1) throw new Error(`expected to revoke one key, revoked ${removed.changes}`);
  } finally {
    db.close();
  }
}
