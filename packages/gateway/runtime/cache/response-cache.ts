/**
 * @module The response cache as the data handlers use it (docs/caching.md, "Caching and conditional
 * requests"): only 200 answers are stored, whole (body, ETag, the headers that belong to the body),
 * keyed by account, resource, parsed query and drift (cache-key.ts); an answer is fresh for the
 * resource's TTL, then within its stale window it is still served while one background read (per
 * entry, however many requests find it stale) replaces it. Past both it is gone.
 *
 * The cache sits behind authentication and the read-right check, which every request still passes
 * (data-routes/guard.ts): it only saves the ERP reads of the answer itself.
 */
import type { GatewayConfig } from '../config';
import type { ResourceSpec } from '../resource-spec';
import { cachePolicyOf, type CachePolicy } from './cache-policy';
import type { CachedAnswer, CacheStore } from './cache-store';

export interface Found {
  readonly answer: CachedAnswer;
  readonly state: 'hit' | 'stale';
}

export class ResponseCache {
  private readonly policies = new Map<ResourceSpec, CachePolicy>();
  /** Entries being read again in the background: one refresh each at a time. */
  private readonly refreshing = new Set<string>();
  /** Answers being read for a miss: requests missing the same entry meanwhile wait for that read. */
  private readonly filling = new Map<string, Promise<CachedAnswer>>();

  constructor(
    private readonly store: CacheStore,
    private readonly settings: GatewayConfig['cache'],
    /** Names the ERP and the catalogue in every key (cache-key.ts). */
    readonly namespace: string,
    /** Answers larger than this are not offered to the store. */
    private readonly largestEntryBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  policyOf(resource: ResourceSpec): CachePolicy {
    let policy = this.policies.get(resource);
    if (!policy) {
      policy = cachePolicyOf(resource, this.settings);
      this.policies.set(resource, policy);
    }
    return policy;
  }

  /** The stored answer, fresh or within its stale window; undefined otherwise. */
  async find(key: string, policy: CachePolicy): Promise<Found | undefined> {
    const answer = await this.store.get(key);
    if (!answer) return undefined;
    const age = this.now() - answer.storedAt;
    if (age < 0 || age >= (policy.ttlS + policy.staleS) * 1000) return undefined;
    return { answer, state: age < policy.ttlS * 1000 ? 'hit' : 'stale' };
  }

  /** Stores a 200 answer; false when it was not offered (too large for the cache). */
  async keep(key: string, answer: CachedAnswer, policy: CachePolicy): Promise<boolean> {
    if (answer.body.length > this.largestEntryBytes) return false;
    await this.store.set(key, answer, (policy.ttlS + policy.staleS) * 1000);
    return true;
  }

  /**
   * The answer of a miss: the one another request is already reading for `key` (and keeping), else
   * `read`'s, kept. The ERP's answer to a page and its count arrive at different times, so coalescing
   * the ERP calls alone would let a request arriving between the two send the page again; this waits
   * for the whole answer. An error is never shared: a request whose shared read failed reads for
   * itself (the error may be about the key the other request sent, not about this one's).
   */
  async fill(key: string, policy: CachePolicy, read: () => Promise<CachedAnswer>): Promise<{ readonly answer: CachedAnswer; readonly kept: boolean }> {
    const pending = this.filling.get(key);
    if (pending) {
      const answer = await pending.catch(() => undefined);
      if (answer) return { answer, kept: answer.body.length <= this.largestEntryBytes };
    }
    const reading = read();
    this.filling.set(key, reading);
    try {
      const answer = await reading;
      return { answer, kept: await this.keep(key, answer, policy) };
    } finally {
      if (this.filling.get(key) === reading) this.filling.delete(key);
    }
  }

  /** Runs `refresh` unless one is already running for `key`; never throws (its failure is `onError`'s). */
  refreshOnce(key: string, refresh: () => Promise<void>, onError: (error: unknown) => void): void {
    if (this.refreshing.has(key)) return;
    this.refreshing.add(key);
    refresh()
      .catch(onError)
      .finally(() => this.refreshing.delete(key));
  }

  /** Seconds since the ERP answered (the Age header: whole seconds, rounded down). */
  ageOf(answer: CachedAnswer): number {
    return Math.max(0, Math.floor((this.now() - answer.storedAt) / 1000));
  }
}
