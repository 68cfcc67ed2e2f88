/**
 * @module Fresh API keys for the seeded demo users, in the shape the gateway's tests and
 * `make run` read from `npm run sandbox -- demo-keys --json`.
 */
import type { DatabaseSync } from 'node:sqlite';
import { findUserByLogin } from '../seed/init';
import { ADMIN_LOGIN, GATEWAY_LOGIN, NO_FLEET_LOGIN } from '../seed/security';
import { ApiKeys } from './api-keys';

export interface DemoKeys {
  readonly db: string;
  readonly logins: { readonly api: string; readonly admin: string; readonly no_read: string };
  /** A key of the gateway's API user. */
  readonly valid: string;
  /** A key of the administrator, who is not in the API group. */
  readonly forbidden: string;
  /** A key of the API user that expired a day ago (still valid when imitating Odoo 17). */
  readonly expired: string;
  /** A key of the API user without read right on this resource's model. */
  readonly no_read: { readonly key: string; readonly resource: string };
}

export function createDemoKeys(db: DatabaseSync, database: string, now: Date = new Date()): DemoKeys {
  // Expiry is only judged when keys are verified; generation works the same for every version.
  const keys = new ApiKeys(db, { version: 19, now: () => now });
  const userId = (login: string): number => {
    const user = findUserByLogin(db, login);
    if (!user?.active) throw new Error(`no active user with login ${JSON.stringify(login)}: is the database seeded?`);
    return user.id;
  };
  return {
    db: database,
    logins: { api: GATEWAY_LOGIN, admin: ADMIN_LOGIN, no_read: NO_FLEET_LOGIN },
    valid: keys.generateKey(userId(GATEWAY_LOGIN), 'demo: valid'),
    forbidden: keys.generateKey(userId(ADMIN_LOGIN), 'demo: forbidden'),
    expired: keys.generateKey(userId(GATEWAY_LOGIN), 'demo: expired', new Date(now.getTime() - 86_400_000)),
    no_read: { key: keys.generateKey(userId(NO_FLEET_LOGIN), 'demo: no read'), resource: 'fleet/vehicles' },
  };
}
