/**
 * @module `make run`: the gateway on the sandbox ERP, in one command. Initialises the sandbox
 * database on the first run (and reuses it after, unless an older sandbox made it), starts the sandbox, starts the gateway as its own
 * process (exactly as it runs in production: `packages/gateway/dist/runtime/main.js` configured by environment),
 * prints the base URL and a fresh demo key, and stops both on Ctrl-C or SIGTERM.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { dirname, join, resolve } from 'node:path';
import { startSandbox } from '@ops-data-gateway/sandbox/http/start-sandbox';
import { createDemoKeys } from '@ops-data-gateway/sandbox/security/demo-keys';
import { GATEWAY_LOGIN } from '@ops-data-gateway/sandbox/seed/security';
import { initDatabase, isCurrentDatabase } from '@ops-data-gateway/sandbox/seed/init';

const root = resolve(__dirname, '..', '..');
const dbPath = join(root, '.sandbox', 'demo.db');

function port(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]+$/.test(raw) || Number(raw) > 65535) {
    process.stderr.write(`make run: ${name} must be a port number (got '${raw}')\n`);
    process.exit(1);
  }
  return Number(raw);
}

async function main(): Promise<void> {
  const gatewayPort = port('PORT', 8080);
  const sandboxPort = port('SANDBOX_PORT', 8069);
  const stale = existsSync(dbPath) && !isCurrentDatabase(dbPath);
  if (!existsSync(dbPath) || stale) {
    mkdirSync(dirname(dbPath), { recursive: true });
    const report = initDatabase({ path: dbPath });
    process.stdout.write(`sandbox database ${stale ? 're-created (made by an older sandbox)' : 'created'}: ${dbPath} (${Math.round(report.durationMs)} ms)\n`);
  }
  const sandbox = await startSandbox({ dbPath, port: sandboxPort });
  const db = new DatabaseSync(dbPath);
  const keys = createDemoKeys(db, sandbox.database);
  db.close();

  const baseUrl = `http://127.0.0.1:${gatewayPort}`;
  // The V8 flags of docs/production.md "Running in production": a small young generation keeps RSS flat.
  const gateway = spawn(process.execPath, ['--max-semi-space-size=4', '--max-old-space-size=256', join(root, 'packages', 'gateway', 'dist', 'runtime', 'main.js')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(gatewayPort),
      ERP_URL: sandbox.url,
      ERP_DATABASE: sandbox.database,
      ERP_LOGIN: GATEWAY_LOGIN,
      LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'info',
    },
  });
  let announced = false;
  gateway.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    if (!announced && chunk.toString().includes('gateway listening')) {
      announced = true;
      process.stdout.write(
        [
          '',
          'ops-data-gateway on the sandbox ERP',
          `  base URL  ${baseUrl}`,
          `  API key   ${keys.valid}`,
          `  docs      ${baseUrl}/api/docs`,
          `  MCP       ${baseUrl}/mcp  (or: GATEWAY_URL=${baseUrl} API_KEY=... npm run mcp)`,
          `  sandbox   ${sandbox.url} (Odoo ${sandbox.version}.0 imitation, database "${sandbox.database}")`,
          '',
          `  export API_KEY=${keys.valid}`,
          `  curl -s -H "Authorization: Bearer $API_KEY" '${baseUrl}/api/v1/fleet/vehicles?limit=2&total=false&fields=plate,model,fuel_type'`,
          '',
          'Ctrl-C stops both.',
          '',
        ].join('\n'),
      );
    }
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    gateway.kill('SIGTERM');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  gateway.on('exit', (code) => {
    void sandbox.close().then(() => process.exit(stopping ? 0 : (code ?? 1)));
  });
}

void main();
