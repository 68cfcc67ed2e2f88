/**
 * The in-memory cache store charges every byte it holds to the gateway's memory budget, gives it
 * back when an entry goes (evicted, replaced, expired), stays within its own bound, and stores
 * nothing when the budget has no room (the answers in flight come first).
 */
import { MemoryCacheStore } from '@ops-data-gateway/gateway/runtime/cache/memory-store';
import { MemoryBudget } from '@ops-data-gateway/gateway/runtime/admission/memory-budget';

const answer = (bytes: number) => ({ body: Buffer.alloc(bytes, 0x61), etag: '"x"', storedAt: Date.now(), headers: {} });

describe(MemoryCacheStore.name, () => {
  it('charges what it holds to the budget, and gives it back as entries are evicted or replaced', async () => {
    const budget = new MemoryBudget(1_000_000);
    const store = new MemoryCacheStore(40_000, budget);
    for (let i = 0; i < 10; i++) await store.set(`k${i}`, answer(9000), 60_000);
    expect(store.bytes).toBeLessThanOrEqual(40_000);
    expect(budget.inUse).toBe(store.bytes);
    expect(await store.get('k0')).toBeUndefined();
    expect(await store.get('k9')).toBeDefined();
    await store.set('k9', answer(100), 60_000);
    expect(budget.inUse).toBe(store.bytes);
  });

  it('forgets an entry once its time is up, and gives its bytes back', async () => {
    const budget = new MemoryBudget(1_000_000);
    const store = new MemoryCacheStore(40_000, budget);
    await store.set('short', answer(1000), 30);
    expect(budget.inUse).toBeGreaterThan(1000);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await store.get('short')).toBeUndefined();
    expect(budget.inUse).toBe(0);
  });

  it('stores nothing when the memory budget is full, and nothing larger than a quarter of its bound', async () => {
    const budget = new MemoryBudget(100_000);
    const store = new MemoryCacheStore(40_000, budget);
    await store.set('too large', answer(10_001), 60_000);
    expect([await store.get('too large'), budget.inUse]).toEqual([undefined, 0]);
    expect(budget.tryTake(99_000)).toBe(true);
    await store.set('no room', answer(5000), 60_000);
    expect([await store.get('no room'), budget.inUse]).toEqual([undefined, 99_000]);
  });
});
