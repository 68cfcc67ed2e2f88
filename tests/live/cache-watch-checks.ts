/**
 * Change detection for cached answers on a live ERP (runtime/cache/change-watch.ts): a gateway of its
 * own caching for five minutes, in front of the live ERP; an administrator creates, renames, archives
 * and deletes a record of a resource, and renames a vendor that purchase/orders shows: each change
 * reaches the cached answers within seconds, as the ERP (read straight, as the technical account)
 * holds it. Its ERP call (`web_search_read`: the count and the records written last) is the one this
 * check proves Odoo answers. Everything created is deleted and the name restored,
 * whatever happens.
 */
import type { SuiteAccess } from './export-feed-checks';

type Row = { id: number; [field: string]: unknown };
/** Well under the TTL (300 s): a change is seen within one check interval (about a second on a small table), or the settle window plus one. */
const SEEN_WITHIN_MS = 30_000;

export function describeCacheWatchCheck(
  suite: SuiteAccess,
  /** A resource whose records the administrator may copy and delete (its `name` renamed). */
  path: string,
  check: (title: string, body: () => Promise<void>, timeout?: number) => void,
): void {
  check(
    `cached answers follow the ERP (TTL 300 s): a ${path} record created, renamed, archived and deleted, and a vendor renamed in purchase/orders, within seconds`,
    async () => {
      const target = suite.target();
      const admin = target.admin;
      if (!admin) throw new Error('the plan runs the change-detection check, but the target has no administrator');
      const gateway = await target.startGatewayAs(target.settings.login, { CACHE_DEFAULT_TTL_S: '300', CACHE_WATCH_SETTLE_MS: '2000', CACHE_WATCH_SHARE_PCT: '20' });
      const model = suite.resource(path).model;
      // Archived records are in this resource's scope: an archiving shows as `active` false.
      const archivable = suite.resource(path).fields.some((field) => field.name === 'active');
      const list = `/api/v1/${path}?limit=200&fields=name${archivable ? ',active' : ''}&total=false`;
      const rows = async (url: string): Promise<Row[]> => {
        const res = await gateway.get(url, target.settings.key);
        if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${JSON.stringify(res.body)}`);
        // A detail's record, as a list of one.
        return Array.isArray(res.body.data) ? (res.body.data as Row[]) : [res.body.data as Row];
      };
      /** Polls the cached answer until `holds`; how long it took. */
      const until = async (url: string, holds: (data: Row[]) => boolean): Promise<number> => {
        const started = Date.now();
        for (;;) {
          if (holds(await rows(url))) return Date.now() - started;
          if (Date.now() - started > SEEN_WITHIN_MS) throw new Error(`${url}: the cached answer did not follow the ERP within ${SEEN_WITHIN_MS} ms`);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      };
      let created: number | undefined;
      let renamed: { id: number; name: string } | undefined;
      const seen: Record<string, number> = {};
      try {
        const before = await rows(list);
        const again = await gateway.get(list, target.settings.key);
        expect([again.headers['cache-control'], JSON.stringify(again.body.data)]).toEqual(['private, max-age=300', JSON.stringify(before)]);
        const name = `odg live cache check ${target.transport} ${Date.now()}`;
        const copy = await admin.copy(model, (before[0] as Row).id, { name });
        created = copy;
        seen['created'] = await until(list, (data) => data.some((row) => row.id === copy && row['name'] === name));
        await admin.write(model, copy, { name: `${name} renamed` });
        seen['renamed'] = await until(list, (data) => data.some((row) => row.id === copy && row['name'] === `${name} renamed`));
        if (archivable) {
          await admin.write(model, copy, { active: false });
          seen['archived'] = await until(list, (data) => data.some((row) => row.id === copy && row['active'] === false));
        }
        await admin.unlink(model, copy);
        created = undefined;
        seen['deleted'] = await until(list, (data) => !data.some((row) => row.id === copy));

        // A name another resource shows: the vendor of a purchase order.
        const [order] = (await target.erp({
          model: 'purchase.order',
          method: 'search_read',
          ids: null,
          kwargs: { domain: [], fields: ['partner_id'], limit: 1, order: 'id asc' },
        })) as {
          id: number;
          partner_id: [number, string];
        }[];
        if (!order) throw new Error('no purchase order in the live ERP');
        const orders = `/api/v1/purchase/orders/${order.id}?fields=vendor`;
        const [partner] = (await target.erp({ model: 'res.partner', method: 'read', ids: [order.partner_id[0]], kwargs: { fields: ['name'] } })) as { id: number; name: string }[];
        if (!partner) throw new Error('the vendor of the first purchase order cannot be read');
        await rows(orders);
        renamed = { id: partner.id, name: partner.name };
        await admin.write('res.partner', partner.id, { name: `${partner.name} (odg check)` });
        seen['vendor renamed'] = await until(orders, (data) => String(data.find((row) => row.id === order.id)?.['vendor']).includes('(odg check)'));
        await admin.write('res.partner', partner.id, { name: partner.name });
        renamed = undefined;
        seen['vendor restored'] = await until(orders, (data) => !String(data.find((row) => row.id === order.id)?.['vendor']).includes('(odg check)'));
        console.info(`live cache check (${target.transport}): changes seen after ${JSON.stringify(seen)} ms`);
      } finally {
        if (created !== undefined) await admin.unlink(model, created).catch(() => undefined);
        if (renamed) await admin.write('res.partner', renamed.id, { name: renamed.name }).catch(() => undefined);
        await gateway.close();
      }
    },
    120_000,
  );
}
