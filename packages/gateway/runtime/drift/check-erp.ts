/**
 * @module `make check-erp`: the catalogue drift check on its own, configured by the gateway's
 * environment (ERP_URL, ERP_DATABASE, ERP_TRANSPORT, ERP_LOGIN, ERP_CHECK_KEY...). Prints a table,
 * or with `--json` one JSON document; exit 0 without drift, 1 with drift, 2 when the configuration
 * is wrong or the ERP cannot be asked.
 */
import { RESOURCES } from '../../generated/routers';
import { ConfigError, loadConfig, type GatewayConfig } from '../config';
import { ErpClient } from '../erp/erp-client';
import { driftReportJson, formatDriftTable } from './format-drift';
import { runDriftCheck } from './run-drift-check';

const USAGE = 'usage: check-erp [--json]   (settings from the environment, as for the gateway)';

async function checkErp(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const json = argv.includes('--json');
  const unknown = argv.filter((arg) => arg !== '--json');
  if (unknown.length) return fail(`unknown argument ${JSON.stringify(unknown[0])}\n${USAGE}`);
  let config: GatewayConfig;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return fail(error.message);
    throw error;
  }
  const result = await runDriftCheck(new ErpClient(config.erp), config.driftCheck.key, RESOURCES);
  if (!result.ok) return fail(`${result.code}: ${result.message}`);
  if (json) process.stdout.write(`${JSON.stringify(driftReportJson(result.problems), null, 2)}\n`);
  else if (result.problems.length === 0) process.stdout.write(`check-erp: no drift (${RESOURCES.length} resources, ${result.models} ERP models)\n`);
  else process.stdout.write(`${formatDriftTable(result.problems)}\n\ncheck-erp: ${result.problems.length} drift problem(s) between the catalogue and the ERP\n`);
  return result.problems.length ? 1 : 0;
}

function fail(message: string): number {
  process.stderr.write(`check-erp: ${message}\n`);
  return 2;
}

if (require.main === module) {
  void checkErp(process.argv.slice(2), process.env).then((code) => {
    process.exitCode = code;
  });
}
