/**
 * How long a resource's answers are cached: the catalogue's `cache` (generated into the resource
 * spec) over the settings' defaults, both under the ceiling; off when the ceiling or the byte bound
 * is 0. The catalogue → spec step is proved in tests/codegen/catalogue-errors.test.ts.
 */
import { cachePolicyOf } from '@ops-data-gateway/gateway/runtime/cache/cache-policy';
import type { GatewayConfig } from '@ops-data-gateway/gateway/runtime/config';
import type { ResourceSpec } from '@ops-data-gateway/gateway/runtime/resource-spec';
import { FLEET_VEHICLES } from '@ops-data-gateway/gateway/generated/resources/fleet';

const WATCH = { enabled: true, share: 0.02, minIntervalMs: 1000, settleMs: 10_000 };
const settings = (over: Partial<GatewayConfig['cache']> = {}): GatewayConfig['cache'] => ({
  defaultTtlS: 0,
  defaultStaleS: 0,
  maxTtlS: 300,
  maxBytes: 1 << 20,
  watch: WATCH,
  ...over,
});
const withCache = (cache: ResourceSpec['cache']): ResourceSpec => ({ ...FLEET_VEHICLES, cache });

describe(cachePolicyOf.name, () => {
  it.each([
    ['off by default: no catalogue cache, no default TTL', FLEET_VEHICLES, settings(), { ttlS: 0, staleS: 0, watch: false }],
    [
      'the default TTL and stale window for a resource the catalogue says nothing of',
      FLEET_VEHICLES,
      settings({ defaultTtlS: 5, defaultStaleS: 10 }),
      { ttlS: 5, staleS: 10, watch: true },
    ],
    [
      "the catalogue's TTL over the default, the default stale window kept",
      withCache({ ttlSeconds: 30 }),
      settings({ defaultTtlS: 5, defaultStaleS: 10 }),
      { ttlS: 30, staleS: 10, watch: true },
    ],
    ["the catalogue's TTL 0: off, whatever the default", withCache({ ttlSeconds: 0 }), settings({ defaultTtlS: 5 }), { ttlS: 0, staleS: 0, watch: false }],
    ['the ceiling bounds the TTL and the stale window', withCache({ ttlSeconds: 3600, staleSeconds: 7200 }), settings({ maxTtlS: 60 }), { ttlS: 60, staleS: 60, watch: true }],
    ['a ceiling of 0 turns every resource off', withCache({ ttlSeconds: 30 }), settings({ maxTtlS: 0 }), { ttlS: 0, staleS: 0, watch: false }],
    ["the catalogue's watch: false keeps the TTL, without change detection", withCache({ ttlSeconds: 30, watch: false }), settings(), { ttlS: 30, staleS: 0, watch: false }],
    [
      'CACHE_WATCH=off: every cached resource without change detection',
      withCache({ ttlSeconds: 30 }),
      settings({ watch: { ...WATCH, enabled: false } }),
      { ttlS: 30, staleS: 0, watch: false },
    ],
    ['a byte bound of 0 turns every resource off', withCache({ ttlSeconds: 30 }), settings({ maxBytes: 0 }), { ttlS: 0, staleS: 0, watch: false }],
  ])('%s', (_name, resource, given, want) => {
    expect(cachePolicyOf(resource, given)).toEqual(want);
  });
});
