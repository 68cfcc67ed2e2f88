/**
 * @module The response cache in this process's memory: an LRU (lru-cache) bounded in bytes
 * (CACHE_MAX_BYTES), each entry kept for its own time, and every byte it holds charged to the
 * gateway's memory budget (memory-budget.ts) for as long as it is held: taken when an answer is
 * stored, given back when it is evicted, replaced or found expired. The cache can therefore never
 * take more than CACHE_MAX_BYTES of the budget (config.ts keeps that at most half of it), and when
 * the answers in flight leave no room an answer is simply not stored.
 */
import { LRUCache } from 'lru-cache';
import type { MemoryBudget } from '../admission/memory-budget';
import type { CachedAnswer, CacheStore } from './cache-store';

/** What an entry costs beyond its body and headers: the key, the objects and the LRU's own slots (measured order of magnitude). */
const ENTRY_OVERHEAD_BYTES = 256;
/** An answer larger than this share of the cache is not kept: it would push out many smaller ones. */
const LARGEST_ENTRY_SHARE = 4;

interface Entry {
  readonly answer: CachedAnswer;
  readonly size: number;
}

export class MemoryCacheStore implements CacheStore {
  private readonly entries: LRUCache<string, Entry>;
  readonly largestEntryBytes: number;

  constructor(
    maxBytes: number,
    private readonly budget: MemoryBudget,
  ) {
    this.largestEntryBytes = MemoryCacheStore.largestEntryOf(maxBytes);
    this.entries = new LRUCache<string, Entry>({
      maxSize: Math.max(1, maxBytes),
      maxEntrySize: this.largestEntryBytes,
      sizeCalculation: (entry) => entry.size,
      // Whatever the reason an entry goes (evicted, replaced, expired, deleted), its bytes go back to the budget.
      dispose: (entry) => budget.give(entry.size),
    });
  }

  /** The largest answer a cache of `maxBytes` keeps. */
  static largestEntryOf(maxBytes: number): number {
    return Math.max(1, Math.floor(maxBytes / LARGEST_ENTRY_SHARE));
  }

  /** The bytes an answer costs here. */
  static sizeOf(key: string, answer: CachedAnswer): number {
    let size = ENTRY_OVERHEAD_BYTES + key.length * 2 + answer.body.length + answer.etag.length * 2;
    for (const [name, value] of Object.entries(answer.headers)) size += (name.length + value.length) * 2;
    return size;
  }

  async get(key: string): Promise<CachedAnswer | undefined> {
    return this.entries.get(key)?.answer;
  }

  async set(key: string, answer: CachedAnswer, keepMs: number): Promise<void> {
    const size = MemoryCacheStore.sizeOf(key, answer);
    if (size > this.largestEntryBytes || keepMs <= 0) return;
    // The entry it replaces gives its bytes back first (dispose), so that a refresh never needs room for two.
    this.entries.delete(key);
    if (!this.budget.tryTake(size)) return;
    this.entries.set(key, { answer, size }, { ttl: keepMs });
  }

  /** Bytes held (for tests and the benchmark). */
  get bytes(): number {
    return this.entries.calculatedSize;
  }

  get size(): number {
    return this.entries.size;
  }
}
