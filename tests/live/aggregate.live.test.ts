/**
 * The aggregate route on a real ERP given by LIVE_ERP_* (skipped, with the reason, without one): for
 * every served resource with a dimension the ERP has, each such dimension's groups (counts, sums,
 * extremes, distinct ids) equal the same grouping computed by DuckDB from the NDJSON export of the
 * route's list, over JSON-RPC (or the first of LIVE_ERP_TRANSPORTS). Date-time buckets are compared with UTC days, weeks,
 * months computed from the export's UTC instants: equality says the ERP cut them in UTC, the time zone
 * the gateway sends in the call's context, not the API account's own preference (Europe/Brussels on
 * the loopback servers). A dimension or measure whose field the ERP lacks or does not store (catalogue drift: Odoo 17's analytic plan applicability) answers 503.
 */
import { liveErpSettings } from '../../live/settings';
import { askableDimensions, duckDbGroups, routeGroups, type AskedDimension, type Group } from '../support/aggregate-oracle';
import { asText } from '../support/export-loaders';
import { startLiveTarget, type LiveTarget } from './live-target';

const found = liveErpSettings();
const close = (a: number | null, b: number | null): boolean => (a === null || b === null ? a === b : Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b)));

if (!found.ok) {
  it.skip(`live aggregate suite skipped: ${found.reason}; see docs/compatibility.md`, () => undefined);
} else {
  const settings = found.settings;
  describe(`aggregate route on the live ERP ${settings.url}`, () => {
    let target: LiveTarget;
    beforeAll(async () => {
      // JSON-RPC is served by every version; LIVE_ERP_TRANSPORTS chooses another (the sandbox suite covers all three).
      target = await startLiveTarget(settings, settings.transports?.[0] ?? 'jsonrpc');
    }, 120_000);
    afterAll(() => target?.close());

    const get = (path: string) => target.gateway.get(path, settings.key);

    it('groups every served resource by each of its dimensions as DuckDB does over the NDJSON export', async () => {
      let compared = 0;
      const unavailable: string[] = [];
      for (const resource of target.served) {
        const gaps = target.gapsOf(resource);
        const dimensions = askableDimensions(resource);
        if (!dimensions.length) continue;
        const exported = await get(`/api/v1/${resource.path}?format=ndjson`).buffer(true).parse(asText);
        expect({ resource: resource.path, status: exported.status }).toEqual({ resource: resource.path, status: 200 });
        const measures = (resource.aggregate?.measures ?? [])
          .filter(
            (m) =>
              !gaps.erpFields.has(m.erp) && !gaps.sortKeys.has(m.name) && (m.aggregators.includes('sum') || resource.fields.find((f) => f.name === m.name)?.type === 'integer'),
          )
          .flatMap((m) => (m.aggregators.includes('sum') ? [`${m.name}:sum`, `${m.name}:max`] : [`${m.name}:count_distinct`]))
          .slice(0, 12);
        for (const dimension of dimensions) {
          const path = `/api/v1/${resource.path}/aggregate?group_by=${encodeURIComponent(dimension.spelling)}&measures=${encodeURIComponent(['count', ...measures].join(','))}&limit=1000`;
          const res = await get(path);
          if (gaps.erpFields.has(dimension.dimension.erp) || gaps.sortKeys.has(dimension.dimension.name) || res.status === 503) {
            expect({ path, status: res.status, code: res.body.error?.code }).toEqual({ path, status: 503, code: 'unavailable' });
            unavailable.push(`${path}: ${res.body.error?.message}`);
            continue;
          }
          expect({ path, status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ path, status: 200, body: 'ok' });
          expect(res.body.meta.next_offset).toBeNull();
          const asked: AskedDimension[] = [dimension];
          const got = routeGroups(res.body.data as Group[], asked, measures);
          const expected = await duckDbGroups(exported.body as string, asked, measures);
          expect({ path, keys: [...got.keys()].sort() }).toEqual({ path, keys: [...expected.keys()].sort() });
          for (const [key, want] of expected) {
            const have = got.get(key) as { count: number; measures: (number | null)[]; merged: number };
            expect({ path, key, count: have.count }).toEqual({ path, key, count: want.count });
            for (const [i, spelling] of measures.entries()) {
              if (spelling.endsWith(':count_distinct') && have.merged > 1) continue;
              const [a, b] = [have.measures[i] ?? null, want.measures[i] ?? null];
              if (!close(a, b)) expect({ path, key, spelling, value: a }).toEqual({ path, key, spelling, value: b });
            }
          }
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(10);
      // What drift made unavailable, said in the run's output (none on the loopback 18 and 19).
      if (unavailable.length) process.stdout.write(`aggregate: unavailable on this ERP (catalogue drift):\n${unavailable.join('\n')}\n`);
    }, 600_000);
  });
}
