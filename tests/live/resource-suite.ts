/**
 * The end-to-end checks of the data routes against a live ERP, data-agnostic: every served resource's
 * filters (with values taken from the ERP's own data), both pagings, every sort key, `fields`,
 * detail, scope; keys and rights; the unreadable-relation rule; every response valid against
 * generated/openapi.json. Run on a live Odoo from settings (odoo.live.test.ts) and, so that the
 * suite cannot rot where CI has no Odoo, on the sandbox (sandbox.live.test.ts).
 */
import { orderFields } from '@ops-data-gateway/gateway/runtime/drift/compare-catalogue';
import { WRONG_KEY } from '../../live/differential/wire';
import type { DomainLeaf } from '@ops-data-gateway/gateway/runtime/query/domain';
import type { ResourceSpec, ScopeTerm } from '@ops-data-gateway/gateway/runtime/resource-spec';
import type { LiveCheck, LivePlan } from '../../live/settings';
import { asText } from '../support/export-loaders';
import { datetimeBounds, EXAMPLE, exposedField, probe } from '../support/filter-probes';
import { readyAfterDriftCheck } from '../support/gateway';
import { expectDocumented } from '../support/openapi-responses';
import { expectSameRecords, walkBothWays, type Page } from '../support/paging-walk';
import { describeExportAndFeedChecks } from './export-feed-checks';
import type { LiveTarget } from './live-target';
import { RESOURCES as RESOURCE_SPECS } from '@ops-data-gateway/gateway/generated/routers/index';

type Row = Record<string, unknown>;
type Envelope = { error: { code: string; message: string } };
/** A list short enough to be read whole in one page (the spec's maximum limit). */
const WHOLE = 200;

/** Resources of the catalogue whose models stock Odoo's community modules provide (issue 9). */
export const STOCK_ODOO_RESOURCES = [
  'analytic/accounts',
  'analytic/dimensions',
  'events/events',
  'events/registrations',
  'fleet/vehicles',
  'fleet/services',
  'purchase/orders',
  'purchase/order-lines',
  'stock/pickings',
] as const;

export interface LiveSuiteOptions {
  /**
   * Resources whose exports and change feed are checked too (export-feed-checks.ts). Each walks its
   * whole list several times, so a caller bounds them (see odoo.live.test.ts, sandbox.live.test.ts).
   */
  readonly exportsAndFeed?: readonly string[];
}

export function describeLiveSuite(title: string, start: () => Promise<LiveTarget>, plan: LivePlan, resources: readonly string[], options: LiveSuiteOptions = {}): void {
  /**
   * A check that needs what this ERP or these settings may lack: declared skipped, with the reason in
   * its title, when the plan says it does not apply (jest decides skips before a test runs, so a check
   * that cannot run is never counted as passed).
   */
  const check = (name: LiveCheck, title: string, body: () => Promise<void>, timeout?: number) => {
    const reason = plan.skip[name];
    if (reason) it.skip(`${title} (skipped: ${reason})`, body);
    else it(title, body, timeout);
  };
  describe(title, () => {
    let target: LiveTarget;
    beforeAll(async () => {
      target = await start();
      const ready = await readyAfterDriftCheck(target.gateway.url);
      if (ready.drift?.state !== 'checked') throw new Error(`the gateway's drift check did not run: ${JSON.stringify(ready.drift)}`);
    }, 120_000);
    afterAll(() => target?.close());

    const key = () => target.settings.key;
    const driftNulls = (path: string) => {
      const resourcePath = /^\/api\/v1\/([^/?]+\/[^/?]+)/.exec(path)?.[1];
      const r = target.served.find((candidate) => candidate.path === resourcePath);
      return r ? target.gapsOf(r).apiFields : new Set<string>();
    };
    const call = async (path: string, bearer: string | null = key()) => expectDocumented(path, await target.gateway.get(path, bearer), 'GET', driftNulls(path));
    const ok = async (path: string): Promise<Page & { data: Row[] & Page['data'] }> => {
      const res = await call(path);
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const resource = (path: string): ResourceSpec => {
      const found = target.served.find((r) => r.path === path);
      if (!found)
        throw new Error(
          `${path} is not served by this ERP: ${target.drift
            .filter((p) => p.resource === path)
            .map((p) => p.detail)
            .join('; ')}`,
        );
      return found;
    };
    const unavailable = async (path: string, naming: string) => {
      const res = await call(path);
      expect([path, res.status, (res.body as Envelope).error?.code]).toEqual([path, 503, 'unavailable']);
      expect((res.body as Envelope).error.message).toContain(naming);
    };

    describe.each(resources.map((path) => [path]))('%s', (path) => {
      it('lists records with every field, missing ERP fields as null, and the total the ERP counts', async () => {
        const r = resource(path);
        const page = await ok(`/api/v1/${path}?limit=${WHOLE}`);
        expect(page.data.length).toBeGreaterThan(0);
        const nulls = target.gapsOf(r).apiFields;
        for (const row of page.data) {
          expect(Object.keys(row)).toEqual(r.fields.map((f) => f.name));
          for (const name of nulls) expect([name, row[name]]).toEqual([name, null]);
        }
        const count = await target.erp({ model: r.model, method: 'search_count', ids: null, kwargs: { domain: scopeDomain(r.scope), context: { active_test: false } } });
        expect(page.meta.total).toBe(count);
      });

      it('answers a detail equal to the list record, and 404 for an id that does not exist', async () => {
        const page = await ok(`/api/v1/${path}?limit=5`);
        for (const row of page.data) expect((await ok(`/api/v1/${path}/${row.id}`)).data).toEqual(row);
        const missing = await call(`/api/v1/${path}/2147483647`);
        expect([missing.status, (missing.body as Envelope).error.code]).toEqual([404, 'not_found']);
      });

      it('returns only the fields asked for, and id', async () => {
        const r = resource(path);
        const chosen = r.fields
          .filter((f) => f.name !== 'id')
          .slice(-2)
          .map((f) => f.name);
        const page = await ok(`/api/v1/${path}?limit=3&fields=${chosen.join(',')}`);
        for (const row of page.data) expect(Object.keys(row)).toEqual(['id', ...chosen]);
        const id = page.data[0]?.id;
        expect((await ok(`/api/v1/${path}/${id}?fields=${chosen[0]}`)).data).toEqual({ id, [chosen[0] as string]: page.data[0]?.[chosen[0] as string] });
      });

      it('narrows the list correctly with every filter, and names a filter the ERP cannot apply', async () => {
        const r = resource(path);
        const all = await ok(`/api/v1/${path}?limit=${WHOLE}`);
        const gaps = target.gapsOf(r);
        for (const filter of r.filters) {
          const example = EXAMPLE[filter.type](filter);
          if (gaps.filters.has(filter.name)) {
            await unavailable(`/api/v1/${path}?${filter.name}=${encodeURIComponent(example)}`, filter.name);
            continue;
          }
          const field = exposedField(r, filter);
          const sample = field && all.data.map((row) => row[field.name]).find((v) => v !== null && v !== '' && v !== undefined);
          const attempt = field && probe(filter, field, sample);
          if (field && attempt) {
            const [value, holds] = attempt;
            const page = await ok(`/api/v1/${path}?${filter.name}=${encodeURIComponent(value)}&limit=${WHOLE}`);
            expect([filter.name, page.data.length > 0]).toEqual([filter.name, true]);
            expect([filter.name, value, page.data.filter((row) => !holds(row[field.name])).map((row) => row[field.name])]).toEqual([filter.name, value, []]);
          } else {
            const page = await ok(`/api/v1/${path}?${filter.name}=${encodeURIComponent(example)}&limit=1`);
            expect([filter.name, (page.meta.total as number) <= (all.meta.total as number)]).toEqual([filter.name, true]);
          }
        }
      });

      const r0 = RESOURCE_SPECS.find((r) => r.path === path);
      if (r0?.filters.some((f) => f.type === 'date-time' && exposedField(r0, f)))
        it('takes in every record shown at a date-time bound, and no other (the ERP keeps fractions of a second it does not answer)', async () => {
          const r = resource(path);
          for (const filter of r.filters.filter((f) => f.type === 'date-time' && !target.gapsOf(r).filters.has(f.name))) {
            const field = exposedField(r, filter);
            if (!field) continue;
            const shown: unknown[] = [];
            for (let cursor: number | null = 0, pages = 0; cursor !== null; pages++) {
              if (pages > 50) throw new Error(`the list walk of ${path} did not end`);
              const page = await ok(`/api/v1/${path}?since_id=${cursor}&limit=${WHOLE}&total=false&fields=${field.name}`);
              shown.push(...page.data.map((row) => row[field.name]));
              cursor = (page.meta.next_since_id as number | null | undefined) ?? null;
            }
            // A record's own value (to the second), its day, and the value with half a second.
            for (const { value, holds } of datetimeBounds(filter, shown, 3)) {
              const page = await ok(`/api/v1/${path}?${filter.name}=${encodeURIComponent(value)}&limit=${WHOLE}&fields=${field.name}`);
              expect([filter.name, value, page.meta.total]).toEqual([filter.name, value, shown.filter(holds).length]);
              expect([filter.name, value, page.data.filter((row) => !holds(row[field.name])).map((row) => row[field.name])]).toEqual([filter.name, value, []]);
            }
          }
        });

      it('sorts by every sort key both ways (same records, monotonic where the API value is the ERP value), and names a key the ERP cannot sort on', async () => {
        const r = resource(path);
        const gaps = target.gapsOf(r);
        const total = (await ok(`/api/v1/${path}?limit=1&fields=id`)).meta.total as number;
        for (const [api, erp] of Object.entries(r.sortable)) {
          if (gaps.sortKeys.has(api)) {
            await unavailable(`/api/v1/${path}?order=${api}`, erp);
            continue;
          }
          const asc = await ok(`/api/v1/${path}?order=${api}%20asc&limit=${WHOLE}`);
          const desc = await ok(`/api/v1/${path}?order=${api}%20desc&limit=${WHOLE}`);
          if (total <= WHOLE) expect([api, ids(desc.data).sort()]).toEqual([api, ids(asc.data).sort()]);
          const field = r.fields.find(
            (f) => f.name === api && f.source.kind === 'field' && (f.type === 'integer' || f.type === 'number' || f.format === 'date' || f.format === 'date-time'),
          );
          if (field) {
            expect([
              api,
              monotonic(
                asc.data.map((row) => row[api]),
                1,
              ),
            ]).toEqual([api, true]);
            expect([
              api,
              monotonic(
                desc.data.map((row) => row[api]),
                -1,
              ),
            ]).toEqual([api, true]);
          }
        }
      });

      it('meets the same records by offset paging and by cursor paging', async () => {
        expectSameRecords(await walkBothWays(ok, path, 4));
      });

      it('sends the default order the ERP can apply, with id last', async () => {
        const r = resource(path);
        await ok(`/api/v1/${path}?limit=2`);
        const sent = target.gateway.erpCalls.filter((c) => c.model === r.model && c.method === 'search_read').at(-1);
        const kept = orderFields(r.defaultOrder).filter((name) => !target.gapsOf(r).defaultOrderDrops.has(name));
        expect(orderFields(String(sent?.kwargs['order']))).toEqual(kept.includes('id') ? kept : [...kept, 'id']);
      });
    });

    describeExportAndFeedChecks({ target: () => target, resource, ok }, options.exportsAndFeed ?? []);

    it('hides every record outside a resource scope, in list and detail', async () => {
      const scoped = target.served.filter((r) => resources.includes(r.path) && r.scope.length);
      expect(scoped.length).toBeGreaterThan(0);
      for (const r of scoped) {
        const outside = (await target.erp({
          model: r.model,
          method: 'search_read',
          ids: null,
          kwargs: { domain: outsideScope(r.scope), fields: ['id'], limit: 5, context: { active_test: false } },
        })) as { id: number }[];
        if (outside.length === 0) throw new Error(`the ERP has no ${r.model} record outside the scope of ${r.path}: create one (archive a record) to prove the scope`);
        const listed = new Set(ids((await ok(`/api/v1/${r.path}?limit=${WHOLE}&fields=id`)).data));
        for (const { id } of outside) {
          expect([r.path, id, listed.has(id)]).toEqual([r.path, id, false]);
          const detail = await call(`/api/v1/${r.path}/${id}`);
          expect([r.path, id, detail.status]).toEqual([r.path, id, 404]);
        }
      }
    });

    describe('keys and rights', () => {
      const first = () => `/api/v1/${resources[0]}?limit=1`;
      const json2 = () => target.transport === 'json2';

      it('401 with WWW-Authenticate: Bearer without a key, and for a wrong key', async () => {
        const none = await call(first(), null);
        expect([none.status, none.headers['www-authenticate'], (none.body as Envelope).error.code]).toEqual([401, 'Bearer', 'unauthorized']);
        const wrong = await call(first(), WRONG_KEY);
        expect([wrong.status, (wrong.body as Envelope).error.code]).toEqual([401, 'unauthorized']);
      });

      check('forbiddenKey', 'refuses a key of an account outside the API group: 403 over JSON-2, 401 over RPC (a key is checked with the technical login)', async () => {
        const res = await call(first(), target.settings.forbiddenKey as string);
        expect([res.status, (res.body as Envelope).error.code]).toEqual(json2() ? [403, 'forbidden'] : [401, 'unauthorized']);
      });

      check('expiredKey', '401 for an expired key (Odoo 18+)', async () => {
        const res = await call(first(), target.settings.expiredKey as string);
        expect([res.status, (res.body as Envelope).error.code]).toEqual([401, 'unauthorized']);
      });

      check('noRead', '403 when the API account has no read right on the model (JSON-2; 401 over RPC)', async () => {
        const res = await call(`/api/v1/${target.settings.noReadResource}?limit=1`, target.settings.noReadKey as string);
        expect([res.status, (res.body as Envelope).error.code]).toEqual(json2() ? [403, 'forbidden'] : [401, 'unauthorized']);
      });

      check(
        'unreadable',
        'answers an unreadable relation with null, names it in meta.unreadable_fields and X-Unreadable-Fields, succeeds, and logs resource, field and model once',
        async () => {
          for (const { resource: path, field, model } of target.settings.unreadable) {
            const once = await call(`/api/v1/${path}?limit=5`);
            const again = await call(`/api/v1/${path}?limit=4`);
            for (const res of [once, again]) {
              expect([path, res.status]).toEqual([path, 200]);
              const page = res.body as { data: Row[]; meta: Record<string, unknown> };
              expect(page.data.length).toBeGreaterThan(0);
              for (const row of page.data) expect([field, row[field]]).toEqual([field, null]);
              expect([path, page.meta['unreadable_fields']]).toEqual([path, expect.arrayContaining([field])]);
              expect([path, res.headers['x-unreadable-fields']?.split(', ')]).toEqual([path, page.meta['unreadable_fields']]);
            }
            // Logged once per account, model and field set while the gateway remembers it (AUTH_CACHE_TTL_MS, 60 s here), not per request.
            const warnings = target.gateway.logLines.map((line) => JSON.parse(line)).filter((line) => line.msg?.startsWith('unreadable relation') && line.resource === path);
            expect(warnings[0]).toMatchObject({ level: 'warn', resource: path, fields: expect.arrayContaining([{ field, model }]) });
            const sets = new Map<string, number[]>();
            for (const line of warnings) {
              const set = `${line.erp_uid}|${JSON.stringify(line.fields)}`;
              sets.set(set, [...(sets.get(set) ?? []), Date.parse(line.time as string)]);
            }
            for (const times of sets.values()) for (let i = 1; i < times.length; i++) expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(60_000);
          }
        },
      );

      // An administrator takes the read right away while the gateway still trusts its cached check, the
      // account asks (403), the right is given back, the account asks again: every answer is the one
      // from before, value for value, on each route. With an account of its own, so that no other
      // live run sees its right change; through a gateway of its own, whose technical login it is.
      check(
        'rightsRestored',
        'answers 403 while a read right is away, and every value as before once it is given back (list, detail, exports, change feed)',
        async () => {
          const rights = target.rights as NonNullable<LiveTarget['rights']>;
          const gateway = await target.startGatewayAs(rights.login);
          try {
            const fetch = async (path: string) => {
              const res = await gateway.get(path, rights.key).buffer(true).parse(asText);
              return { status: res.status, text: res.body as string, unreadable: res.headers['x-unreadable-fields'] as string | undefined };
            };
            const list = `/api/v1/${rights.resource}?limit=${WHOLE}`;
            const feed = `/api/v1/${rights.resource}?changed_since=1970-01-01T00:00:00Z&limit=${WHOLE}`;
            const routes = [list, `/api/v1/${rights.resource}?format=ndjson`, `/api/v1/${rights.resource}?format=csv`, feed];
            const before = new Map<string, Awaited<ReturnType<typeof fetch>>>();
            for (const path of routes) before.set(path, await fetch(path));
            const records = (JSON.parse(before.get(list)?.text ?? '{}') as { data?: Row[] }).data ?? [];
            expect([before.get(list)?.status, records.length > 0]).toEqual([200, true]);
            const detail = `/api/v1/${rights.resource}/${records[0]?.id}`;
            before.set(detail, await fetch(detail));
            for (const [path, answer] of before) expect([path, answer.status]).toEqual([path, 200]);
            // Only what the feed says of the records (its token moves with the clock).
            const feedPart = (text: string) => {
              const { data, meta } = JSON.parse(text) as { data: Row[]; meta: Record<string, unknown> };
              return { data, removed: meta['removed_ids'], unreadable: meta['unreadable_fields'] };
            };
            const same = (path: string, answer: Awaited<ReturnType<typeof fetch>>) => {
              const was = before.get(path) as Awaited<ReturnType<typeof fetch>>;
              expect([path, answer.status, answer.unreadable]).toEqual([path, 200, was.unreadable]);
              if (path === feed) expect(feedPart(answer.text)).toEqual(feedPart(was.text));
              else expect([path, answer.text]).toEqual([path, was.text]);
            };

            await rights.setRead(false);
            try {
              for (const path of [...before.keys()]) {
                const answer = await fetch(path);
                expect([path, answer.status, (JSON.parse(answer.text) as Envelope).error?.code]).toEqual([path, 403, 'forbidden']);
              }
            } finally {
              await rights.setRead(true);
            }
            for (const path of before.keys()) same(path, await fetch(path));
          } finally {
            await gateway.close();
          }
        },
        180_000,
      );

      it('sends nothing but read methods to the ERP, and never logs a key', () => {
        const methods = new Set(target.gateway.erpCalls.map((c) => c.method));
        expect(
          [...methods].filter((m) => !['search_read', 'search_count', 'read', 'fields_get', 'has_group', 'has_access', 'check_access_rights', 'context_get'].includes(m)),
        ).toEqual([]);
        const log = target.gateway.logLines.join('\n');
        for (const k of [target.settings.key, target.settings.forbiddenKey, target.settings.expiredKey, target.settings.noReadKey]) if (k) expect(log).not.toContain(k);
      });
    });
  });
}

function ids(rows: readonly { id: number }[]): number[] {
  return rows.map((row) => row.id);
}

/**
 * Every value the client receives, in order (`sign` 1 ascending, -1 descending), 0 and null included.
 * Numbers: Odoo reads an unset number as 0 and the gateway sends number sort keys with NULLS FIRST
 * ascending / NULLS LAST descending, so a 0 stands where 0 sorts. Dates and texts: an unset value
 * (null) sorts above every value, as PostgreSQL puts it: last ascending, first descending.
 */
function monotonic(values: readonly unknown[], sign: 1 | -1): boolean {
  return values.every((v, i) => i === 0 || sign * compareWithNullHighest(values[i - 1], v) <= 0);
}

function compareWithNullHighest(a: unknown, b: unknown): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return compare(a as number | string, b as number | string);
}

function compare(a: number | string, b: number | string): number {
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

function scopeDomain(scope: readonly ScopeTerm[]): DomainLeaf[] {
  return scope.map((t): DomainLeaf => [t.erp, t.op, t.value]);
}

/** Records failing at least one scope term. */
function outsideScope(scope: readonly ScopeTerm[]): unknown[] {
  const negated = scope.map((t) => [t.erp, t.op === '=' ? '!=' : t.op === '!=' ? '=' : 'not in', t.value]);
  return [...Array(Math.max(0, negated.length - 1)).fill('|'), ...negated];
}
