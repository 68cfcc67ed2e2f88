/**
 * The settings of the per-key limits, the shared state and the workers: off unless set, read as the
 * README's Configuration table says, and a wrong value stops start-up naming the variable (a Redis
 * password never shown).
 */
import { ConfigError, loadConfig } from '@ops-data-gateway/gateway/runtime/config';

const base = { ERP_URL: 'http://127.0.0.1:8069', ERP_DATABASE: 'db' };

describe('per-key limits, shared state and workers settings', () => {
  it('leaves limits and Redis off and runs one process unless set', () => {
    const config = loadConfig(base);
    expect([config.rateLimit, config.redis, config.workers]).toEqual([undefined, undefined, 1]);
  });

  it('reads the limit, its window and costs, Redis and the workers', () => {
    const config = loadConfig({
      ...base,
      RATE_LIMIT_POINTS: '600',
      RATE_LIMIT_COSTS: 'counted_list=3, not_modified=0',
      REDIS_URL: 'rediss://user:pw@redis.example.org:6380/2',
      WORKERS: '4',
    });
    expect(config.rateLimit).toEqual({
      points: 600,
      windowSeconds: 60,
      costs: { list: 1, counted_list: 3, detail: 1, expanded: 1, export: 1, aggregate: 1, not_modified: 0, cached: 1 },
    });
    expect(config.redis).toEqual({ url: 'rediss://user:pw@redis.example.org:6380/2', timeoutMs: 200, keyPrefix: 'odg:' });
    expect(config.workers).toBe(4);
    expect(loadConfig({ ...base, WORKERS: 'auto' }).workers).toBeGreaterThanOrEqual(1);
  });

  it.each([
    ['RATE_LIMIT_POINTS', { RATE_LIMIT_POINTS: '0' }],
    ['RATE_LIMIT_WINDOW_SECONDS', { RATE_LIMIT_WINDOW_SECONDS: '60' }],
    ['RATE_LIMIT_WINDOW_SECONDS', { RATE_LIMIT_POINTS: '10', RATE_LIMIT_WINDOW_SECONDS: '0.5' }],
    ['RATE_LIMIT_COSTS', { RATE_LIMIT_POINTS: '10', RATE_LIMIT_COSTS: 'cached=11' }],
    ['RATE_LIMIT_COSTS', { RATE_LIMIT_POINTS: '10', RATE_LIMIT_COSTS: 'hit=0' }],
    ['RATE_LIMIT_COSTS', { RATE_LIMIT_POINTS: '10', RATE_LIMIT_COSTS: 'list=0' }],
    ['RATE_LIMIT_COSTS', { RATE_LIMIT_POINTS: '10', RATE_LIMIT_COSTS: 'counted_list=11' }],
    ['RATE_LIMIT_COSTS', { RATE_LIMIT_POINTS: '10', RATE_LIMIT_COSTS: 'list:2' }],
    ['REDIS_URL', { REDIS_URL: 'http://secret:hunter2@cache:6379' }],
    ['REDIS_TIMEOUT_MS', { REDIS_TIMEOUT_MS: '100' }],
    ['REDIS_TIMEOUT_MS', { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_TIMEOUT_MS: '0' }],
    ['REDIS_KEY_PREFIX', { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: 'has space' }],
    ['WORKERS', { WORKERS: '0' }],
    ['WORKERS', { WORKERS: 'many' }],
  ])('refuses a wrong %s, naming it', (variable, env) => {
    let error: unknown;
    try {
      loadConfig({ ...base, ...env });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as ConfigError).message).not.toContain('hunter2');
  });
});
