/**
 * @module `make erp-diff`: the differential check of the sandbox against a live Odoo (LIVE_ERP_*
 * settings, see live/settings.ts). Usage: `node dist/live/differential/cli.js [--version-only] [--json]`.
 * Exit status: 0 no difference, 1 differences, 2 cannot run (settings missing, ERP unreachable).
 */
import { liveErpSettings } from '../settings';
import { formatJson, formatText } from './report';
import { CannotRun, runDifferential } from './run';

async function main(argv: readonly string[]): Promise<number> {
  const unknown = argv.filter((a) => a !== '--version-only' && a !== '--json');
  if (unknown.length) {
    console.error(`erp-diff: unknown argument ${unknown[0]} (use --version-only, --json)`);
    return 2;
  }
  const settings = liveErpSettings();
  if (!settings.ok) {
    console.error(`erp-diff: ${settings.reason}; set LIVE_ERP_URL, LIVE_ERP_DATABASE, LIVE_ERP_LOGIN, LIVE_ERP_KEY and LIVE_ERP_ADMIN_LOGIN/LIVE_ERP_ADMIN_KEY`);
    return 2;
  }
  try {
    const report = await runDifferential({
      live: settings.settings,
      versionOnly: argv.includes('--version-only'),
      progress: (line) => console.error(`erp-diff: ${line}`),
    });
    console.log(argv.includes('--json') ? formatJson(report) : formatText(report));
    return report.differences.length ? 1 : 0;
  } catch (error) {
    if (error instanceof CannotRun) {
      console.error(`erp-diff: ${error.message}`);
      return 2;
    }
    console.error('erp-diff: failed:', error);
    return 2;
  }
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
