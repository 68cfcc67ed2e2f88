/**
 * The live suites on a real ERP given by LIVE_ERP_* settings (live/settings.ts), over each transport
 * the ERP offers (or LIVE_ERP_TRANSPORTS), for the catalogue resources whose models stock Odoo
 * provides. Without settings the suite is skipped with one line saying why. `make test-live`.
 */
import { execFileSync } from 'node:child_process';
import { liveErpSettings, transportsOf, type LiveTransport } from '../../live/settings';
import { describeLiveSuite, STOCK_ODOO_RESOURCES } from './resource-suite';
import { startLiveTarget } from './live-target';

const found = liveErpSettings();

if (!found.ok) {
  it.skip(`live ERP suites skipped: ${found.reason}; see docs/compatibility.md`, () => undefined);
} else {
  const settings = found.settings;
  const transports: readonly LiveTransport[] = settings.transports ?? transportsOf(majorVersionOf(settings.url));
  const only = process.env['LIVE_ERP_RESOURCES']?.split(',').map((s) => s.trim());
  for (const transport of transports) {
    const resources = only ?? STOCK_ODOO_RESOURCES;
    describeLiveSuite(`live ERP ${settings.url} (${settings.database}) over ${transport}`, () => startLiveTarget(settings, transport), resources, {
      exportsAndFeed: resources,
    });
  }
}

/**
 * The ERP's major version, asked before any suite is declared (jest declares suites synchronously):
 * JSON-RPC `common.version` answers on every version, without credentials.
 */
function majorVersionOf(url: string): number {
  const script = `fetch(process.argv[1] + '/jsonrpc', { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params: { service: 'common', method: 'version', args: [] } }) })
    .then((r) => r.json()).then((b) => process.stdout.write(String(b.result.server_version_info[0])))`;
  const major = Number(execFileSync(process.execPath, ['-e', script, url], { encoding: 'utf8', timeout: 20_000 }));
  if (!Number.isInteger(major)) throw new Error(`could not read the version of the live ERP at ${url}`);
  return major;
}
