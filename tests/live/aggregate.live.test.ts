/**
 * The aggregate route on a real ERP given by LIVE_ERP_* (skipped, with the reason, without one): for
 * every resource with dimensions, each dimension's groups (counts, sums, extremes, distinct ids) equal
 * the same grouping computed by DuckDB from the NDJSON export of the route's list, over JSON-RPC (or
 * the first of LIVE_ERP_TRANSPORTS), one test per dimension. Date-time buckets are compared with UTC
 * days, weeks, months computed from the export's UTC instants: equality says the ERP cut them in UTC,
 * the time zone the gateway sends in the call's context, not the API account's own preference
 * (Europe/Brussels on the loopback servers).
 *
 * What the ERP lacks (catalogue drift: a model, a field, a field it does not store) is known before
 * the tests are declared, from the drift check run then (`check-erp --json`): each dimension and
 * measure it takes is reported skipped with the reason, and the route's 503 for it is checked once
 * per resource.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import { driftGapsOf, type DriftGaps } from '@ops-data-gateway/gateway/runtime/drift/drift-gaps';
import type { DriftProblem } from '@ops-data-gateway/gateway/runtime/drift/drift-problem';
import type { MeasureSpec, ResourceSpec } from '@ops-data-gateway/gateway/runtime/resource-spec';
import { type LiveErpSettings, liveErpSettings, type LiveTransport } from '../../live/settings';
import { askableDimensions, duckDbGroups, routeGroups, type AskedDimension, type Group } from '../support/aggregate-oracle';
import { asText } from '../support/export-loaders';
import { startLiveTarget, type LiveTarget } from './live-target';

const CHECK_ERP = join(__dirname, '..', '..', 'packages', 'gateway', 'dist', 'runtime', 'drift', 'check-erp.js');
const found = liveErpSettings();
const close = (a: number | null, b: number | null): boolean => (a === null || b === null ? a === b : Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b)));

/** The drift check's problems, asked before any test is declared (jest declares tests synchronously). */
function driftProblemsOf(settings: LiveErpSettings, transport: LiveTransport): readonly DriftProblem[] {
  const env = {
    ...process.env,
    ERP_URL: settings.url,
    ERP_DATABASE: settings.database,
    ERP_LOGIN: settings.login,
    ERP_TRANSPORT: transport,
    ERP_CHECK_KEY: settings.key,
    ...(settings.apiGroup ? { ERP_API_GROUP: settings.apiGroup } : {}),
  };
  const run = spawnSync(process.execPath, [CHECK_ERP, '--json'], { env, encoding: 'utf8', timeout: 120_000 });
  // 0: no drift, 1: drift (listed); anything else is a failure to ask.
  if (run.status !== 0 && run.status !== 1) throw new Error(`check-erp against the live ERP failed (status ${run.status}): ${run.stderr || run.error?.message}`);
  return (JSON.parse(run.stdout) as { problems: DriftProblem[] }).problems;
}

/** Why the ERP cannot aggregate `name` (its ERP field `erp`) on this resource; undefined when it can. */
function driftReason(gaps: DriftGaps, name: string, erp: string): string | undefined {
  if (gaps.erpFields.has(erp)) return `the ERP has no field ${erp} (catalogue drift)`;
  return gaps.aggregates.get(name) ?? gaps.sortKeys.get(name);
}

/** The measures compared: every aggregator-bearing measure the ERP has, at most 12 spellings. */
function measuresOf(resource: ResourceSpec, gaps: DriftGaps): { compared: string[]; skipped: { measure: MeasureSpec; reason: string }[] } {
  const skipped: { measure: MeasureSpec; reason: string }[] = [];
  const compared: string[] = [];
  for (const measure of resource.aggregate?.measures ?? []) {
    const reason = driftReason(gaps, measure.name, measure.erp);
    if (reason) {
      skipped.push({ measure, reason });
      continue;
    }
    if (measure.aggregators.includes('sum')) compared.push(`${measure.name}:sum`, `${measure.name}:max`);
    else if (resource.fields.find((f) => f.name === measure.name)?.type === 'integer') compared.push(`${measure.name}:count_distinct`);
  }
  return { compared: compared.slice(0, 12), skipped };
}

if (!found.ok) {
  it.skip(`live aggregate suite skipped: ${found.reason}; see docs/compatibility.md`, () => undefined);
} else {
  const settings = found.settings;
  // JSON-RPC is served by every version; LIVE_ERP_TRANSPORTS chooses another (the sandbox suite covers all three).
  const transport = settings.transports?.[0] ?? 'jsonrpc';
  const problems = driftProblemsOf(settings, transport);
  describe(`aggregate route on the live ERP ${settings.url}`, () => {
    let target: LiveTarget;
    beforeAll(async () => {
      target = await startLiveTarget(settings, transport);
    }, 120_000);
    afterAll(() => target?.close());
    const get = (path: string) => target.gateway.get(path, settings.key);

    for (const resource of RESOURCES) {
      const dimensions = askableDimensions(resource);
      if (!dimensions.length) continue;
      const gaps = driftGapsOf(resource, problems);
      describe(resource.path, () => {
        if (gaps.unavailable) {
          it.skip(`skipped: ${gaps.unavailable}`, () => undefined);
          return;
        }
        const measures = measuresOf(resource, gaps);
        let exported: Promise<string> | undefined;
        /** The NDJSON export of the whole resource, read once for all its dimensions. */
        const exportOnce = () => {
          exported ??= get(`/api/v1/${resource.path}?format=ndjson`)
            .buffer(true)
            .parse(asText)
            .then((res) => {
              expect({ resource: resource.path, status: res.status }).toEqual({ resource: resource.path, status: 200 });
              return res.body as string;
            });
          return exported;
        };
        for (const { measure, reason } of measures.skipped) it.skip(`measure ${measure.name}: skipped: ${reason}`, () => undefined);
        const drifted: AskedDimension[] = [];
        for (const dimension of dimensions) {
          const reason = driftReason(gaps, dimension.dimension.name, dimension.dimension.erp);
          if (reason) {
            drifted.push(dimension);
            it.skip(`${dimension.spelling}: skipped: ${reason}`, () => undefined);
            continue;
          }
          it(`${dimension.spelling}: the groups DuckDB computes from the NDJSON export`, async () => {
            const path = `/api/v1/${resource.path}/aggregate?group_by=${encodeURIComponent(dimension.spelling)}&measures=${encodeURIComponent(['count', ...measures.compared].join(','))}&limit=1000`;
            const res = await get(path);
            expect({ path, status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ path, status: 200, body: 'ok' });
            expect(res.body.meta.next_offset).toBeNull();
            const asked: AskedDimension[] = [dimension];
            const got = routeGroups(res.body.data as Group[], asked, measures.compared);
            const expected = await duckDbGroups(await exportOnce(), asked, measures.compared);
            expect({ path, keys: [...got.keys()].sort() }).toEqual({ path, keys: [...expected.keys()].sort() });
            for (const [key, want] of expected) {
              const have = got.get(key) as { count: number; measures: (number | null)[]; merged: number };
              expect({ path, key, count: have.count }).toEqual({ path, key, count: want.count });
              for (const [i, spelling] of measures.compared.entries()) {
                if (spelling.endsWith(':count_distinct') && have.merged > 1) continue;
                const [a, b] = [have.measures[i] ?? null, want.measures[i] ?? null];
                if (!close(a, b)) expect({ path, key, spelling, value: a }).toEqual({ path, key, spelling, value: b });
              }
            }
          }, 120_000);
        }
        const firstDrifted = drifted[0];
        if (firstDrifted)
          it(`answers 503 'unavailable' for a dimension the ERP lacks (${firstDrifted.spelling}), never groups without it`, async () => {
            const res = await get(`/api/v1/${resource.path}/aggregate?group_by=${encodeURIComponent(firstDrifted.spelling)}`);
            expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 503, code: 'unavailable' });
          });
      });
    }
  });
}
