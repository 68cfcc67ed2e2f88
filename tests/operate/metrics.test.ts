/**
 * The Prometheus metrics over real HTTP: served on their own listener and never on the public port,
 * an exposition `promtool check metrics` (Prometheus's own linter, Debian package `prometheus`)
 * accepts, values that count exactly the requests made, label values from bounded sets only (route
 * templates, never an id or a raw path), and the same names and labels as docs/operating.md's list.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { startStack, type Stack } from '../support/stack';

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The samples of a Prometheus text exposition (label values here hold no escaped quotes). */
function samplesOf(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="([^"]*)"/g)) labels[pair[1] as string] = pair[2] as string;
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The `odg_*` metrics docs/operating.md's "Operating it" table lists: name, type and label names. */
function readmeMetrics(): Map<string, { type: string; labels: string[] }> {
  const readme = readFileSync(join(__dirname, '../../docs/operating.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Operating it'));
  const listed = new Map<string, { type: string; labels: string[] }>();
  for (const row of section.matchAll(/^\| `(odg_[a-z_]+)` \| (counter|gauge|histogram) \|([^|]*)\|/gm)) {
    const labels = [...(row[3] as string).matchAll(/`([a-z_]+)`/g)].map((label) => label[1] as string);
    listed.set(row[1] as string, { type: row[2] as string, labels });
  }
  return listed;
}

describe('Prometheus metrics (METRICS_PORT)', () => {
  let stack: Stack;
  let tripId: number;
  let exposition: string;
  let samples: Sample[];
  const value = (name: string, labels: Record<string, string> = {}) =>
    samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);

  beforeAll(async () => {
    stack = await startStack({ transport: 'json2', env: { METRICS_PORT: '0' } });
    // Known traffic: one key check (miss), then cached (hits); a 401, an unrouted path, a 405, a document.
    tripId = (await stack.get('/api/v1/fleet/trips?limit=1')).body.data[0].id as number;
    // A change-feed page from a date-time: the feed measures what a write_date check costs on the model.
    expect((await stack.get('/api/v1/fleet/trips?changed_since=2000-01-01T00:00:00Z&limit=1')).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await stack.get(`/api/v1/fleet/trips/${tripId}`)).status).toBe(200);
    expect((await stack.get('/api/v1/fleet/trips/999999')).status).toBe(404);
    expect((await request(stack.url).get('/api/v1/fleet/trips')).status).toBe(401);
    expect((await request(stack.url).get('/api/v1/fleet/trips/12345/secret-path')).status).toBe(404);
    expect((await request(stack.url).delete('/api/v1/fleet/trips/1')).status).toBe(405);
    // A misspelt path is no route (paths are matched exactly), whatever it resembles.
    expect((await request(stack.url).get('/API/OpenAPI.json/')).status).toBe(404);
    expect((await request(stack.url).get('/api/openapi.json')).status).toBe(200);
    // The request metrics are recorded as each answer finishes: the scrape comes after.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const res = await request(stack.metricsUrl as string).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    exposition = res.text;
    samples = samplesOf(exposition);
  });
  afterAll(() => stack.close());

  it('serves metrics on their own listener, never on the public port', async () => {
    expect(stack.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(stack.metricsUrl).not.toBe(stack.url);
    expect((await request(stack.url).get('/metrics')).status).toBe(404);
    expect((await request(stack.metricsUrl as string).get('/api/v1/fleet/trips')).status).toBe(404);
    expect((await request(stack.metricsUrl as string).post('/metrics')).status).toBe(405);
  });

  it('gives an exposition promtool check metrics accepts', () => {
    const check = spawnSync('promtool', ['check', 'metrics'], { input: exposition, encoding: 'utf8' });
    expect(check.error).toBeUndefined();
    expect([check.status, check.stdout, check.stderr]).toEqual([0, '', '']);
  });

  it('counts requests by full route template, method and status', () => {
    const requests = (route: string, method: string, status: string) => value('odg_http_request_duration_seconds_count', { route, method, status });
    expect(requests('/api/v1/fleet/trips/{id}', 'GET', '200')).toBe(2);
    expect(requests('/api/v1/fleet/trips/{id}', 'GET', '404')).toBe(1);
    expect(requests('/api/v1/fleet/trips', 'GET', '200')).toBe(2);
    expect(requests('/api/v1/fleet/trips', 'GET', '401')).toBe(1);
    expect(requests('(no route)', 'GET', '404')).toBe(2);
    expect(requests('(no route)', 'OTHER', '405')).toBe(1);
    expect(requests('/api/openapi.json', 'GET', '200')).toBe(1);
    // Every request is in some bucket: the +Inf bucket equals the count.
    expect(value('odg_http_request_duration_seconds_bucket', { route: '/api/v1/fleet/trips/{id}', status: '200', le: '+Inf' })).toBe(2);
  });

  it('counts ERP calls by transport, model, method and outcome, with nothing in flight or queued after', () => {
    const calls = (labels: Record<string, string>) => value('odg_erp_call_duration_seconds_count', { transport: 'json2', ...labels });
    // The one key check (the others came from the cache), the group check, the read right probe.
    expect(calls({ model: 'res.users', method: 'authenticate', outcome: 'ok' })).toBe(1);
    expect(calls({ model: 'res.users', method: 'has_group', outcome: 'ok' })).toBe(1);
    const tripsModel = stack.erpCalls.find((call) => call.method === 'search_read')?.model as string;
    expect(calls({ model: tripsModel, method: 'search_read', outcome: 'ok' })).toBe(stack.erpCalls.filter((c) => c.model === tripsModel && c.method === 'search_read').length);
    expect(calls({})).toBe(stack.erpCalls.length + 1);
    expect([value('odg_erp_calls_in_flight'), value('odg_erp_calls_queued'), value('odg_erp_queue_full_total')]).toEqual([0, 0, 0]);
    expect(value('odg_memory_budget_limit_bytes')).toBe(96 * 1024 * 1024);
    expect(value('odg_memory_budget_used_bytes')).toBe(0);
  });

  it('counts authentication cache hits, misses and refusals', () => {
    // Data requests with the valid key: 1 list + 1 change-feed page + 2 details + 1 missing detail = 5, one of them checked with the ERP.
    expect(value('odg_auth_cache_lookups_total', { outcome: 'miss' })).toBe(1);
    expect(value('odg_auth_cache_lookups_total', { outcome: 'hit' })).toBe(4);
    expect(value('odg_auth_failures_total', { reason: 'unauthorized' })).toBe(1);
    expect(value('odg_auth_failures_total', { reason: 'forbidden' })).toBe(0);
    expect(value('odg_auth_failures_total', { reason: 'rate_limited' })).toBe(0);
  });

  it('registers the cache and rate-limit counters at zero, every data answer counted as cache off (the change-feed page as bypass)', () => {
    expect(value('odg_cache_answers_total', { outcome: 'off' })).toBe(5);
    expect(value('odg_cache_answers_total', { outcome: 'bypass' })).toBe(1);
    for (const outcome of ['hit', 'miss', 'stale']) expect([outcome, value('odg_cache_answers_total', { outcome })]).toEqual([outcome, 0]);
    expect(samples.some((s) => s.name === 'odg_rate_limit_refusals_total' && s.value === 0)).toBe(true);
    expect(samples.some((s) => s.name === 'odg_erp_calls_coalesced_total' && s.value === 0)).toBe(true);
  });

  it('says what runs: version, catalogue hash, transport, ERP version; and the drift problems by kind', () => {
    const info = samples.filter((s) => s.name === 'odg_build_info');
    expect(info).toEqual([
      {
        name: 'odg_build_info',
        labels: { version: '1.0.0', catalogue_hash: expect.stringMatching(/^[0-9a-f]{12}$/), transport: 'json2', erp_version: expect.stringMatching(/^19\./) },
        value: 1,
      },
    ]);
    const drift = samples.filter((s) => s.name === 'odg_drift_problems');
    expect(drift.map((s) => s.labels['kind']).sort()).toEqual([
      'missing_field',
      'missing_model',
      'not_groupable',
      'not_searchable',
      'not_sortable',
      'selection_unknown_to_catalogue',
      'selection_unknown_to_erp',
      'type_mismatch',
    ]);
    expect(drift.every((s) => s.value === 0)).toBe(true);
    expect(value('process_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('never makes a label of an id, a key, a query value or a raw path', () => {
    const routes = new Set<string>();
    for (const sample of samples.filter((s) => s.name.startsWith('odg_'))) {
      if (sample.labels['route'] !== undefined) routes.add(sample.labels['route']);
      for (const labelValue of Object.values(sample.labels)) {
        expect([sample.name, labelValue]).not.toEqual([sample.name, expect.stringMatching(/secret|12345|999999/)]);
        expect(labelValue).not.toContain(stack.keys.valid);
      }
    }
    // Route templates only: no digit but the API version's, the record id as {id}.
    for (const route of routes) expect(route.replace('/api/v1/', '/')).toMatch(/^(\(no route\)|\/[a-z/._-]*(\{id\})?)$/);
    expect([...routes].sort()).toEqual(['(no route)', '/api/openapi.json', '/api/v1/fleet/trips', '/api/v1/fleet/trips/{id}']);
  });

  it('says what a write_date check costs on each model the change feed read, and which case it is', () => {
    const tripsModel = stack.erpCalls.find((call) => call.method === 'search_read')?.model as string;
    const costs = samples.filter((s) => s.name === 'odg_change_feed_write_date_check_seconds');
    expect(costs).toEqual([{ name: 'odg_change_feed_write_date_check_seconds', labels: { model: tripsModel, case: 'small' }, value: expect.any(Number) }]);
    expect(costs[0]?.value).toBeGreaterThan(0);
    expect(costs[0]?.value).toBeLessThan(5);
  });

  it('exposes exactly the metrics docs/operating.md lists, with the same types and labels', async () => {
    const listed = readmeMetrics();
    expect(listed.size).toBeGreaterThan(10);
    // The change checks' metrics have samples (and labels) once a cached answer was read: a gateway with a cache.
    const cached = await startStack({ transport: 'json2', env: { METRICS_PORT: '0', CACHE_DEFAULT_TTL_S: '60' } });
    let withCache: Sample[];
    try {
      expect((await cached.get('/api/v1/fleet/trips?limit=1')).status).toBe(200);
      withCache = samplesOf((await request(cached.metricsUrl as string).get('/metrics')).text);
    } finally {
      await cached.close();
    }
    const exposed = new Map<string, { type: string; labels: string[] }>();
    for (const match of exposition.matchAll(/^# TYPE (odg_[a-z_]+) (\w+)$/gm)) {
      const name = match[1] as string;
      const own = [...samples, ...withCache].filter((s) => s.name === name || s.name === `${name}_count`);
      const labels = [...new Set(own.flatMap((s) => Object.keys(s.labels)))].sort();
      exposed.set(name, { type: match[2] as string, labels });
    }
    const sorted = (map: Map<string, { type: string; labels: string[] }>) => [...map].map(([name, m]) => [name, m.type, [...m.labels].sort()]).sort();
    expect(sorted(listed)).toEqual(sorted(exposed));
  });
});

describe('Prometheus metrics with per-key rate limits (RATE_LIMIT_POINTS)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ transport: 'json2', env: { METRICS_PORT: '0', RATE_LIMIT_POINTS: '2', RATE_LIMIT_WINDOW_SECONDS: '600' } });
  });
  afterAll(() => stack.close());

  it('counts each 429 of a per-key limit in odg_rate_limit_refusals_total', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await stack.get('/api/v1/fleet/trips?limit=1')).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
    const samples = samplesOf((await request(stack.metricsUrl as string).get('/metrics')).text);
    expect(samples.filter((s) => s.name === 'odg_rate_limit_refusals_total').map((s) => s.value)).toEqual([2]);
  });
});
