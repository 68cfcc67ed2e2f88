/**
 * The live suite run where CI can run it: on the sandbox standing in for a live ERP, given the same
 * settings a live Odoo gets (live/settings.ts), so the suite itself is proven and cannot rot. On the
 * sandbox every resource of the catalogue is served.
 *
 * The export and change-feed checks (export-feed-checks.ts) walk a resource's whole list about six
 * times, some 0.5 s a resource here: all 45 would add 22 s to `make test`. They run on the nine
 * resources odoo.live.test.ts runs them on (so the very checks a live Odoo gets are proven here),
 * plus it/tickets (array fields, the CSV's JSON-text case, and a many2one to users) as 19, and on the
 * three resources of the 17 run (the feed and exports over XML-RPC, as a 17 answers them).
 */
import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import { livePlan, type LiveErpSettings, type LivePlanSettings } from '../../live/settings';
import { ErpWriter } from '../support/erp-writes';
import { startStack, type Stack } from '../support/stack';
import { DELETION_RESOURCE, LIVE_SETTLE_MS } from './export-feed-checks';
import { describeLiveSuite, STOCK_ODOO_RESOURCES } from './resource-suite';
import { sandboxRightsSwitch, startLiveTarget, type LiveTarget } from './live-target';

/**
 * What the sandbox stands in with: every optional setting a live Odoo can be given. The rights check
 * uses the technical account (this stack is the suite's own) and the group that gives it its read
 * rights, switched in the sandbox's tables as an administrator's `ir.model.access.write` would.
 */
const GIVEN = 'given by the sandbox stack';
const SANDBOX_SETTINGS: LivePlanSettings = {
  forbiddenKey: GIVEN,
  expiredKey: GIVEN,
  noReadKey: GIVEN,
  noReadResource: GIVEN,
  unreadable: [{ resource: 'fleet/vehicles', field: 'odometer', model: 'fleet.vehicle.odometer' }],
  rights: { login: GIVEN, key: GIVEN, group: 'ops_api.group_data_reader', resource: 'fleet/vehicles' },
  adminLogin: GIVEN,
  adminKey: GIVEN,
};

async function sandboxAsLiveErp(version: 17 | 19, transport: 'json2' | 'xmlrpc'): Promise<LiveTarget> {
  const stack: Stack = await startStack({ version });
  const settings: LiveErpSettings = {
    url: stack.sandbox.url,
    database: stack.sandbox.database,
    login: stack.keys.logins.api,
    key: stack.keys.valid,
    forbiddenKey: stack.keys.forbidden,
    expiredKey: stack.keys.expired,
    noReadKey: stack.keys.no_read.key,
    noReadResource: stack.keys.no_read.resource,
    unreadable: SANDBOX_SETTINGS.unreadable,
  };
  const target = await startLiveTarget(settings, transport, { CHANGES_SETTLE_MS: String(LIVE_SETTLE_MS) });
  const { group, resource } = SANDBOX_SETTINGS.rights as NonNullable<LivePlanSettings['rights']>;
  const rights = sandboxRightsSwitch(stack.dbPath, { login: settings.login, key: settings.key }, group, resource);
  // The sandbox serves reads only: the administrator's writes are made in its database, as Odoo's ORM would.
  const erp = new ErpWriter(stack.dbPath);
  return {
    ...target,
    rights,
    admin: {
      copy: async (model, id, values) => erp.copy(model, id, values),
      // As Odoo's ORM does: a partner's stored complete_name (its display name) follows its name.
      // SQLite stores a boolean as 0 or 1, as the sandbox's schema reads it.
      write: async (model, id, values) => {
        const stored = Object.fromEntries(Object.entries(values).map(([field, value]) => [field, typeof value === 'boolean' ? Number(value) : value]));
        erp.write(model, id, model === 'res.partner' && stored['name'] ? { ...stored, complete_name: stored['name'] } : stored);
      },
      unlink: async (model, id) => erp.delete(model, id),
    },
    close: async () => {
      rights.close();
      erp.close();
      await target.close();
      await stack.close();
    },
  };
}

describeLiveSuite(
  'the live suite on the sandbox as Odoo 19 over JSON-2',
  () => sandboxAsLiveErp(19, 'json2'),
  livePlan(SANDBOX_SETTINGS, 19),
  RESOURCES.map((r) => r.path),
  { exportsAndFeed: [...STOCK_ODOO_RESOURCES, 'it/tickets'], deletions: DELETION_RESOURCE, cacheWatch: DELETION_RESOURCE },
);
describeLiveSuite(
  'the live suite on the sandbox as Odoo 17 over XML-RPC',
  () => sandboxAsLiveErp(17, 'xmlrpc'),
  livePlan(SANDBOX_SETTINGS, 17),
  ['fleet/vehicles', 'purchase/orders', 'stock/pickings'],
  { exportsAndFeed: ['fleet/vehicles', 'purchase/orders', 'stock/pickings'], deletions: 'stock/pickings' },
);
