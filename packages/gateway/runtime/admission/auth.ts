/**
 * @module Authentication and authorisation of a request, checked by the ERP itself: the client's API
 * key must belong to a member of the API group (403 otherwise), and the account needs read right on
 * the resource's model (403 otherwise). Results are cached briefly, keyed by a hash of the key (never
 * the key), bounded in size and time; the ERP re-checks the key on every data call anyway, so a key
 * it stops accepting fails at once and is evicted.
 */
import { createHash } from 'node:crypto';
import type { GatewayConfig } from '../config';
import { ErpFault } from '../erp/erp-error';
import type { ErpClient, ErpStats } from '../erp/erp-client';
import type { ErpCredentials } from '../erp/transport';
import { forbidden, GatewayError, unauthorized } from '../errors';
import { TtlCache } from '../ttl-cache';

export interface Principal extends ErpCredentials {
  /** SHA-256 of the key: the cache key, never the key itself. */
  readonly keyHash: string;
  /** Short prefix of the hash: names the key in logs without revealing it. */
  readonly keyId: string;
}

interface Verdict {
  readonly principal?: Principal;
  /** Why the key is refused, when it is. */
  readonly refusal?: 'unauthorized' | 'forbidden';
  /**
   * The models the account may read, learned on demand, each with the related fields found
   * unreadable while that right was held (resource-reader.ts). Only granted rights are kept: a
   * refusal is asked again on the next request, so a right given back counts at once. A right is
   * forgotten, with what was learned under it, when the ERP refuses a read on its model.
   */
  readonly readable: Map<string, ReadRight>;
}

/** What is known of an account's read right on a model while it is cached. */
interface ReadRight {
  /** ERP fields of the model whose reading needs another model the account cannot read, with that model. */
  unreadable?: ReadonlyMap<string, string>;
}

/**
 * Where the reader keeps the related fields it found unreadable: with the account's read right on
 * the model, so that they are forgotten with it (and never outlive a change of that right the
 * gateway sees).
 */
export interface UnreadableMemory {
  unreadableOn(principal: Principal, model: string): ReadonlyMap<string, string> | undefined;
  rememberUnreadable(principal: Principal, model: string, fields: ReadonlyMap<string, string>): void;
  /** The account's read right on a model other than the request's (a relation expanded), cached as the request's is. */
  canRead(principal: Principal, model: string, stats: ErpStats): Promise<boolean>;
  forgetRight(principal: Principal, model: string): void;
}

/** What the metrics learn of authentication (telemetry/metrics.ts); nothing about the key itself. */
export interface AuthObserver {
  /** A key was found in the cache (hit) or had to be checked with the ERP (miss). */
  cacheLookup(hit: boolean): void;
  /** A request was refused: no or a bad key (401), a key outside the API group (403), too many failures (429). */
  refused(reason: 'unauthorized' | 'forbidden' | 'rate_limited'): void;
}

const BEARER = /^bearer[ \t]+([^\s]+)[ \t]*$/i;
const MAX_KEY_LENGTH = 512;
/** Refused keys are kept apart, in a small cache of their own: a flood of junk keys can never evict accepted ones. */
const REFUSED_MAX_ENTRIES = 1000;

export class Authenticator implements UnreadableMemory {
  private readonly verdicts: TtlCache<string, Verdict>;
  private readonly refused: TtlCache<string, Verdict>;
  private readonly pending = new Map<string, Promise<Verdict>>();

  constructor(
    private readonly erp: ErpClient,
    private readonly apiGroup: string,
    private readonly config: GatewayConfig['auth'],
    private readonly observer?: AuthObserver,
  ) {
    this.verdicts = new TtlCache(config.cacheMaxEntries);
    this.refused = new TtlCache(REFUSED_MAX_ENTRIES);
  }

  /**
   * The principal of a request's Authorization header; throws 401 or 403. `beforeErp` runs only when
   * the key is not in the cache, i.e. before the ERP would be asked (the failure limit hooks there,
   * and may refuse with 429); what it resolves to is called with whether the ERP refused the key,
   * once it has answered.
   */
  async authenticate(header: string | undefined, stats: ErpStats, beforeErp?: () => Promise<(failed: boolean) => void>): Promise<Principal> {
    if (!this.observer) return this.principalOf(header, stats, beforeErp);
    try {
      return await this.principalOf(header, stats, beforeErp);
    } catch (error) {
      if (error instanceof GatewayError && (error.code === 'unauthorized' || error.code === 'forbidden' || error.code === 'rate_limited')) this.observer.refused(error.code);
      throw error;
    }
  }

  private async principalOf(header: string | undefined, stats: ErpStats, beforeErp?: () => Promise<(failed: boolean) => void>): Promise<Principal> {
    const key = header === undefined ? undefined : BEARER.exec(header)?.[1];
    if (!key || key.length > MAX_KEY_LENGTH) throw unauthorized();
    const hash = createHash('sha256').update(key).digest('hex');
    let verdict = this.verdicts.get(hash) ?? this.refused.get(hash);
    this.observer?.cacheLookup(verdict !== undefined);
    if (!verdict) {
      // Requests arriving while the same key is being checked wait for that check: only the one that
      // asks the ERP counts against the limits (a burst of a new dashboard's requests is one check).
      // The entry is made before the limits are asked (they may wait for Redis), so a burst still
      // finds it; a joiner refused by the starter's limits (429, the starter's address) asks again
      // for itself, once.
      for (let attempt = 1; ; attempt++) {
        let inFlight = this.pending.get(hash);
        const joined = inFlight !== undefined;
        if (!inFlight) {
          inFlight = this.limitedCheck(key, hash, stats, beforeErp).finally(() => this.pending.delete(hash));
          this.pending.set(hash, inFlight);
        }
        try {
          // Waiting for the check another request sent is waiting for the ERP (Server-Timing `erp`).
          verdict = joined ? await stats.waitFor(inFlight) : await inFlight;
          break;
        } catch (error) {
          if (!(joined && attempt === 1 && error instanceof GatewayError && error.code === 'rate_limited')) throw error;
        }
      }
    }
    if (verdict.refusal === 'forbidden') throw forbidden('This API key belongs to an account that is not authorised to use the API.');
    if (!verdict.principal) throw unauthorized('The API key is invalid or expired.');
    return verdict.principal;
  }

  /** Throws 403 unless the principal's account may read `model`. */
  async assertCanRead(principal: Principal, model: string, stats: ErpStats): Promise<void> {
    if (!(await this.canRead(principal, model, stats))) throw forbidden(`The API account has no read right on the data of this resource (${model}).`);
  }

  /** Whether the account may read `model`: asked of the ERP once, then cached with the key (a refusal is not cached). */
  async canRead(principal: Principal, model: string, stats: ErpStats): Promise<boolean> {
    const verdict = this.verdicts.get(principal.keyHash);
    if (verdict?.readable.has(model)) return true;
    if (!(await this.probeRead(principal, model, stats))) return false;
    verdict?.readable.set(model, {});
    return true;
  }

  /**
   * Forgets the account's read right on `model`, and what was learned under it: the ERP refused a
   * read the cached right allowed (the right was taken away). The next request asks again.
   */
  forgetRight(principal: Principal, model: string): void {
    this.verdicts.get(principal.keyHash)?.readable.delete(model);
  }

  unreadableOn(principal: Principal, model: string): ReadonlyMap<string, string> | undefined {
    return this.verdicts.get(principal.keyHash)?.readable.get(model)?.unreadable;
  }

  rememberUnreadable(principal: Principal, model: string, fields: ReadonlyMap<string, string>): void {
    const right = this.verdicts.get(principal.keyHash)?.readable.get(model);
    if (right) right.unreadable = fields;
  }

  /** Forgets a key the ERP no longer accepts. */
  evict(principal: Principal): void {
    this.verdicts.delete(principal.keyHash);
  }

  /** The key check, counted by the limits first (which may refuse it with 429 before the ERP is asked). */
  private async limitedCheck(key: string, hash: string, stats: ErpStats, beforeErp?: () => Promise<(failed: boolean) => void>): Promise<Verdict> {
    const settle = await beforeErp?.();
    let verdict: Verdict | undefined;
    try {
      verdict = await this.check(key, hash, stats);
      return verdict;
    } finally {
      settle?.(verdict?.refusal === 'unauthorized');
    }
  }

  private async check(key: string, hash: string, stats: ErpStats): Promise<Verdict> {
    const uid = await this.erp.identify(key, stats);
    if (uid === false) return this.remember(this.refused, hash, { refusal: 'unauthorized', readable: new Map() }, this.config.negativeTtlMs);
    const principal: Principal = Object.freeze({ uid, key, keyHash: hash, keyId: hash.slice(0, 12) });
    const member = await this.inApiGroup(principal, stats);
    if (!member) return this.remember(this.refused, hash, { refusal: 'forbidden', readable: new Map() }, this.config.cacheTtlMs);
    return this.remember(this.verdicts, hash, { principal, readable: new Map() }, this.config.cacheTtlMs);
  }

  private remember(cache: TtlCache<string, Verdict>, hash: string, verdict: Verdict, ttlMs: number): Verdict {
    if (ttlMs > 0) cache.set(hash, verdict, ttlMs);
    return verdict;
  }

  private async inApiGroup(principal: Principal, stats: ErpStats): Promise<boolean> {
    const { version } = await this.erp.connect();
    // Odoo 17: @api.model has_group(group) on the caller; 18+: a record method on the user.
    const result = await this.erp.call(
      principal,
      { model: 'res.users', method: 'has_group', ids: version.major >= 18 ? [principal.uid] : null, kwargs: { group_ext_id: this.apiGroup } },
      stats,
    );
    return result === true;
  }

  private async probeRead(principal: Principal, model: string, stats: ErpStats): Promise<boolean> {
    const { version } = await this.erp.connect();
    try {
      const result =
        version.major >= 18
          ? await this.erp.call(principal, { model, method: 'has_access', ids: [], kwargs: { operation: 'read' } }, stats)
          : await this.erp.call(principal, { model, method: 'check_access_rights', ids: null, kwargs: { operation: 'read', raise_exception: false } }, stats);
      return result === true;
    } catch (error) {
      if (error instanceof ErpFault && error.kind === 'access_error') return false;
      throw error;
    }
  }
}
