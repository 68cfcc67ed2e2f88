/**
 * @module How long a resource's answers are kept: the catalogue's `cache` (a resource's keys over its
 * domain's, generated into the resource spec), else the settings' defaults, each bounded by the
 * ceiling (CACHE_MAX_TTL_S). A TTL of 0 is "off": the resource is served exactly as without a cache.
 * Change detection (change-watch.ts) applies to every cached resource unless CACHE_WATCH is off or the
 * catalogue says `cache.watch: false`.
 */
import type { GatewayConfig } from '../config';
import type { ResourceSpec } from '../resource-spec';

export interface CachePolicy {
  /** Seconds an answer is fresh; 0: the resource is not cached. */
  readonly ttlS: number;
  /** Seconds after that during which it is still served while one background read refreshes it. */
  readonly staleS: number;
  /** Whether changes in the ERP drop its answers before their TTL (CACHE_WATCH, the catalogue's `cache.watch`; change-watch.ts). */
  readonly watch: boolean;
}

const CACHE_OFF: CachePolicy = Object.freeze({ ttlS: 0, staleS: 0, watch: false });

export function cachePolicyOf(resource: ResourceSpec, settings: GatewayConfig['cache']): CachePolicy {
  if (settings.maxBytes === 0 || settings.maxTtlS === 0) return CACHE_OFF;
  const ttlS = Math.min(resource.cache?.ttlSeconds ?? settings.defaultTtlS, settings.maxTtlS);
  if (ttlS === 0) return CACHE_OFF;
  return {
    ttlS,
    staleS: Math.min(resource.cache?.staleSeconds ?? settings.defaultStaleS, settings.maxTtlS),
    watch: settings.watch.enabled && resource.cache?.watch !== false,
  };
}
