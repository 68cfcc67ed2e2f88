/**
 * @module The administrator's calls of the live scripts that write in the live Odoo (live/cache-watch.ts,
 * live/watch-mix.ts): JSON-RPC `execute_kw` with LIVE_ERP_ADMIN_LOGIN's key, straight to the ERP.
 */
import type { LiveErpSettings } from './settings';

export type AdminCall = (model: string, method: string, args: unknown[]) => Promise<unknown>;

async function jsonRpc(url: string, params: object): Promise<unknown> {
  const answer = await fetch(`${url}/jsonrpc`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params }),
  });
  const body = (await answer.json()) as { result?: unknown; error?: unknown };
  if (body.error) throw new Error(JSON.stringify(body.error));
  return body.result;
}

/** The administrator's `execute_kw`, once its login is authenticated; throws without the settings. */
export async function adminCalls(settings: LiveErpSettings, script: string): Promise<AdminCall> {
  const { url, database, adminLogin, adminKey } = settings;
  if (!adminLogin || !adminKey) throw new Error(`${script}: LIVE_ERP_ADMIN_LOGIN and LIVE_ERP_ADMIN_KEY are needed (the administrator writes a record)`);
  const uid = await jsonRpc(url, { service: 'common', method: 'authenticate', args: [database, adminLogin, adminKey, {}] });
  if (typeof uid !== 'number') throw new Error(`${script}: the administrator's key is refused`);
  return (model, method, args) => jsonRpc(url, { service: 'object', method: 'execute_kw', args: [database, uid, adminKey, model, method, args, {}] });
}
