/**
 * @module The aggregate route's bounds, as the generator documents them; the runtime's
 * data-routes/kinds/aggregate/aggregate-query.ts enforces the same numbers (a test holds them equal).
 */
export const AGGREGATE_LIMITS = Object.freeze({
  /** Groups per answer when `limit` is not given. */
  limitDefault: 100,
  /** Groups per answer at most: a larger `limit` is 422; more groups are paged with `offset`. */
  limitMax: 1000,
  /** Dimensions in one `group_by`. */
  dimensionsMax: 4,
  /** Measures in one `measures` (`count` included). */
  measuresMax: 16,
});

export const GRANULARITY_NAMES = ['day', 'week', 'month', 'quarter', 'year'] as const;
