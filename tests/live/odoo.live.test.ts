/**
 * The live suites on a real ERP given by LIVE_ERP_* settings (live/settings.ts), over each transport
 * the ERP offers (or LIVE_ERP_TRANSPORTS), for the catalogue resources whose models stock Odoo
 * provides. Without settings the suite is skipped with one line saying why. `make test-live`.
 *
 * The export and change-feed checks (export-feed-checks.ts) run on every one of those resources over
 * every transport: on the loopback Odoo 19 they add about 24 s to the 47 s of the rest (nine small
 * resources, a few dozen records each), well within budget, and the feed reads `write_date` through
 * each transport's own encoding (XML-RPC and JSON carry it differently), which one transport would
 * not prove. An ERP with large models (tens of thousands of records) makes them slower: narrow the run
 * with LIVE_ERP_RESOURCES or LIVE_ERP_TRANSPORTS.
 */
import { execFileSync } from 'node:child_process';
import { liveErpSettings, livePlan, transportsOf, type LiveTransport } from '../../live/settings';
import { describeLiveSuite, STOCK_ODOO_RESOURCES } from './resource-suite';
import { startLiveTarget } from './live-target';

const found = liveErpSettings();

if (!found.ok) {
  it.skip(`live ERP suites skipped: ${found.reason}; see docs/compatibility.md`, () => undefined);
} else {
  const settings = found.settings;
  // Which checks apply to this ERP is known before any test is declared: the rest are reported skipped, with the reason.
  const plan = livePlan(settings, majorVersionOf(settings.url));
  const transports: readonly LiveTransport[] = settings.transports ?? transportsOf(plan.major);
  const only = process.env['LIVE_ERP_RESOURCES']?.split(',').map((s) => s.trim());
  for (const transport of transports) {
    const resources = only ?? STOCK_ODOO_RESOURCES;
    describeLiveSuite(`live ERP ${settings.url} (${settings.database}) over ${transport}`, () => startLiveTarget(settings, transport), plan, resources, {
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
