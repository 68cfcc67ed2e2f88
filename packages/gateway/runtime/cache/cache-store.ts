/** @module Where cached answers live: this process's memory, or Redis shared by several gateway processes. */
export interface CachedAnswer {
  /** The JSON body exactly as sent. */
  readonly body: Buffer;
  readonly etag: string;
  /** Epoch milliseconds when the ERP answered (Age counts from here). */
  readonly storedAt: number;
  /** Headers that belong to the body (e.g. Deprecation). */
  readonly headers: Readonly<Record<string, string>>;
}
export interface CacheStore {
  /** The answer, or undefined when absent, expired, or the store cannot answer (a bypass, never an error). */
  get(key: string): Promise<CachedAnswer | undefined>;
  /**
   * Keeps the answer for keepMs (TTL plus any stale window), with the tags of the models it depends
   * on (change-watch.ts). Never throws.
   */
  set(key: string, answer: CachedAnswer, keepMs: number, tags?: readonly string[]): Promise<void>;
  /**
   * Frees the answers stored with `tag` now (a change made them unreachable: their keys name an older
   * generation); how many. A store that cannot (Redis) lets them expire: 0.
   */
  drop(tag: string): number;
}
