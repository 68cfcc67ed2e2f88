/**
 * @module The production gateway process the live scripts measure (live/dashboard.ts, live/watch-mix.ts,
 * live/cache-watch.ts): JSON-2 to `erpUrl` (the live Odoo, or a counting proxy in front of it), with
 * the technical account of the LIVE_ERP_* settings, no drift check, production V8 flags.
 */
import { GATEWAY_MAIN, GATEWAY_NODE_FLAGS, startService, type Service } from '../bench/processes';
import type { LiveErpSettings } from './settings';

export function startLiveGateway(settings: LiveErpSettings, erpUrl: string, port: number, extra: Readonly<Record<string, string>> = {}): Promise<Service> {
  const env = {
    ERP_URL: erpUrl,
    ERP_DATABASE: settings.database,
    ERP_LOGIN: settings.login,
    ERP_TRANSPORT: 'json2',
    DRIFT_CHECK: 'off',
    PORT: String(port),
    LOG_LEVEL: 'info',
    ...(settings.apiGroup ? { ERP_API_GROUP: settings.apiGroup } : {}),
    ...extra,
  };
  return startService(GATEWAY_MAIN, [], env, `http://127.0.0.1:${port}`, /gateway listening/, GATEWAY_NODE_FLAGS);
}
