/**
 * @module The two questions authentication asks of the users table (`res_users`, kept by the
 * ORM's store): which active user has this login, and is this uid an active user.
 */
import type { DatabaseSync } from 'node:sqlite';

/** The active user with exactly this login (Odoo's `_login` searches `login = <login>`). */
export function findActiveUserId(db: DatabaseSync, login: string): number | undefined {
  const row = db.prepare('SELECT id FROM res_users WHERE login = ? AND active ORDER BY id LIMIT 1').get(login) as { id: number } | undefined;
  return row?.id;
}

export function isActiveUser(db: DatabaseSync, uid: number): boolean {
  return db.prepare('SELECT 1 AS ok FROM res_users WHERE id = ? AND active').get(uid) !== undefined;
}
