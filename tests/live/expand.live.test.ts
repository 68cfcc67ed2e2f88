/**
 * `expand` on a real Odoo (issue 30): for every relation of the catalogue whose two ends the live ERP
 * serves (stock Odoo has purchase orders and lines, events and registrations, vehicles and services,
 * analytic accounts and plans), the expanded answer is compared with both routes joined by hand
 * (tests/support/expand-join.ts), over the ERP's first transport, and a page of records costs the ERP
 * one read per relation whatever its size. Skipped, with the reason, without LIVE_ERP_* settings.
 */
import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import { liveErpSettings } from '../../live/settings';
import { expectExpandedIsTheJoin } from '../support/expand-join';
import { startLiveTarget, type LiveTarget } from './live-target';
import { STOCK_ODOO_RESOURCES } from './resource-suite';

const found = liveErpSettings();
const RESOURCES_RUN: readonly string[] = process.env['LIVE_ERP_RESOURCES']?.split(',').map((s) => s.trim()) ?? STOCK_ODOO_RESOURCES;
const RELATIONS = RESOURCES.flatMap((resource) => resource.relations.map((relation) => [`${resource.path} ${relation.name}`, resource, relation] as const));

if (!found.ok) {
  it.skip(`live expand suite skipped: ${found.reason}; see docs/compatibility.md`, () => undefined);
} else {
  const settings = found.settings;
  describe(`expand on the live ERP ${settings.url} (${settings.database})`, () => {
    let target: LiveTarget;
    beforeAll(async () => {
      // JSON-RPC: every Odoo the gateway supports speaks it (LIVE_ERP_TRANSPORTS chooses another).
      target = await startLiveTarget(settings, settings.transports?.[0] ?? 'jsonrpc');
    }, 120_000);
    afterAll(async () => {
      await target?.close();
    });

    // Which relations apply is known before any test is declared: both ends among the resources the
    // live suites run (stock Odoo's, or LIVE_ERP_RESOURCES); the others are reported skipped with the reason.
    for (const [name, resource, relation] of RELATIONS) {
      const missing = [resource.path, relation.target].find((path) => !RESOURCES_RUN.includes(path));
      if (missing) {
        it.skip(`${name}: skipped, ${missing} is not among the resources the live ERP is checked on (custom models of the organisation)`, () => undefined);
        continue;
      }
      it(`${name}: the expanded answer is the two routes joined by hand`, async () => {
        const served = new Set(target.served.map((r) => r.path));
        expect([resource.path, relation.target].filter((path) => !served.has(path))).toEqual([]);
        const get = (path: string) => target.gateway.get(path, settings.key).then((res) => ({ status: res.status, body: res.body as unknown }));
        expect(await expectExpandedIsTheJoin(get, resource, relation, 12)).toBeGreaterThan(0);
      }, 120_000);
    }

    it('a page of purchase orders with their lines costs one read of the lines whatever its size', async () => {
      expect(target.served.map((r) => r.path)).toContain('purchase/orders');
      const calls = async (path: string) => {
        const before = target.gateway.erpCalls.length;
        const res = await target.gateway.get(path, settings.key);
        expect(res.status).toBe(200);
        return target.gateway.erpCalls.slice(before).filter((call) => call.model === 'purchase.order.line' && call.method === 'search_read').length;
      };
      await calls('/api/v1/purchase/orders?limit=1&expand=lines');
      expect(await calls('/api/v1/purchase/orders?limit=200&expand=lines')).toBe(1);
    }, 120_000);
  });
}
