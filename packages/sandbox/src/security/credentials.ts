/**
 * @module Who is calling, per transport. Over RPC the "password" slot of `authenticate` and of
 * every `object` call may hold an API key of that same user (the seeded users have no password,
 * so only keys work); JSON-2's bearer key identifies its user alone. Bad credentials are never
 * counted or throttled over RPC (odoo-external-api.md, section 6.3).
 */
import { createHash } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { ApiKeys } from './api-keys';
import { findUserByLogin, isUserActive } from '../seed/init';

/** How long a successful `object` credential check is remembered (Odoo memoizes it for good). */
const SUCCESS_TTL_MS = 60_000;
const SUCCESS_CACHE_LIMIT = 10_000;

export class Credentials {
  /** sha256(uid, secret) → time the entry stops being valid; the secret itself is not kept. */
  private readonly successes = new Map<string, number>();

  constructor(
    private readonly db: DatabaseSync,
    private readonly apiKeys: ApiKeys,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** `common.authenticate` / `common.login`: the uid, or false for any bad credential. */
  async authenticate(login: unknown, secret: unknown): Promise<number | false> {
    if (typeof login !== 'string' || typeof secret !== 'string' || secret === '') return false;
    const user = findUserByLogin(this.db, login);
    if (!user?.active) return false;
    const uid = user.id;
    const owner = await this.apiKeys.ownerOf(secret);
    return owner?.userId === uid ? uid : false;
  }

  /**
   * `object` calls (`res.users.check` / `_check_uid_passwd`): true when the secret is a valid key
   * of that active user. Successes are cached like Odoo's `ormcache('uid', 'passwd')`, but only
   * until the key expires, and for a minute at most.
   */
  async checkUid(uid: number, secret: unknown): Promise<boolean> {
    if (typeof secret !== 'string' || secret === '') return false;
    const cacheKey = createHash('sha256').update(`${uid}\0${secret}`).digest('hex');
    const now = this.clock().getTime();
    const validUntil = this.successes.get(cacheKey);
    if (validUntil !== undefined && now < validUntil) return true;
    this.successes.delete(cacheKey);

    if (!isUserActive(this.db, uid)) return false;
    const owner = await this.apiKeys.ownerOf(secret);
    if (owner?.userId !== uid) return false;
    if (this.successes.size >= SUCCESS_CACHE_LIMIT) this.successes.clear();
    const expiry = owner.expiresAt === null ? Infinity : Date.parse(`${owner.expiresAt.replace(' ', 'T')}Z`);
    this.successes.set(cacheKey, Math.min(now + SUCCESS_TTL_MS, expiry));
    return true;
  }

  /** JSON-2 `Authorization: bearer <key>`: the key's user, or undefined. */
  async bearerUser(key: string): Promise<number | undefined> {
    return (await this.apiKeys.ownerOf(key))?.userId;
  }
}
