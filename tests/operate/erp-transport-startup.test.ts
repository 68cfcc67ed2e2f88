/**
 * A transport the ERP lacks is refused as soon as the ERP answers, in one line naming the setting and
 * the ERP's version, never answered 502 request after request. The built gateway
 * (packages/gateway/dist/runtime/main.js) in its own process, against sandboxes imitating Odoo 17,
 * 18 and 19 over real HTTP; the settings that do fit each version are served (the check refuses
 * nothing else). An ERP unreachable at start-up: the gateway starts and serves as before (502 per
 * request, /readyz 503); once that ERP answers, the first request learns its version, is answered
 * 503, and the gateway exits 1 with the same line.
 */
import type { RunningSandbox } from '@ops-data-gateway/sandbox/http/start-sandbox';
import type { OdooVersion } from '@ops-data-gateway/sandbox/orm/types';
import { createDriftDatabase, gatewayEnv, type DriftDatabase } from '../drift/support/drift-sandbox';
import { startGatewayProcess, type GatewayProcess } from '../reliability/support/gateway-process';
import { freePort } from '../support/free-port';

const JSON2_REFUSED = (version: string) =>
  `ops-data-gateway: ERP_TRANSPORT=json2, but the ERP is Odoo ${version}, which has no JSON-2 API (Odoo 19 and later): set ERP_TRANSPORT to auto, jsonrpc or xmlrpc`;
const LOGIN_REFUSED = (version: string) =>
  `ops-data-gateway: ERP_LOGIN is not set, but the ERP is Odoo ${version}, which has no JSON-2 API (Odoo 19 and later) and checks keys over RPC with a login: set ERP_LOGIN`;

let database: DriftDatabase;
const sandboxes = new Map<OdooVersion, RunningSandbox>();
const running: GatewayProcess[] = [];

beforeAll(async () => {
  database = createDriftDatabase();
  for (const version of [17, 18, 19] as const) sandboxes.set(version, await database.serve(undefined, version));
});
afterEach(() => {
  for (const gateway of running.splice(0)) gateway.kill('SIGKILL');
});
afterAll(() => database.close());

function envFor(version: OdooVersion, extra: Record<string, string>): Record<string, string> {
  const env = gatewayEnv(sandboxes.get(version)!, { DRIFT_CHECK: 'off', ...extra });
  if (extra['ERP_LOGIN'] === '') delete env['ERP_LOGIN'];
  return env;
}

async function start(env: Record<string, string>): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess(env);
  running.push(gateway);
  return gateway;
}

/** The gateway's exit, at most `ms` after start, with every line it wrote to stderr. */
async function exitOf(gateway: GatewayProcess, ms = 15000): Promise<{ code: number | null; stderr: string[] }> {
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still running after ${ms} ms: ${gateway.stderr.join('\n')}`)), ms).unref());
  const { code } = await Promise.race([gateway.exited, timeout]);
  return { code, stderr: gateway.stderr };
}

async function getJson(url: string, key?: string): Promise<{ status: number; body: { error?: { code: string; message: string }; status?: string } }> {
  const response = await fetch(url, key ? { headers: { Authorization: `Bearer ${key}` } } : {});
  return { status: response.status, body: (await response.json()) as { error?: { code: string; message: string } } };
}

/** Starts a gateway that is to exit at once (before or after /healthz first answers): how it exits. */
async function startOrExit(env: Record<string, string>): Promise<{ code: number | null; stderr: string[] }> {
  try {
    return await exitOf(await start(env));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const exited = /^the gateway exited \((\d+)\) before listening: ([\s\S]*)$/.exec(message);
    if (!exited) throw error;
    return { code: Number(exited[1]), stderr: exited[2]!.split('\n').filter(Boolean) };
  }
}

describe('a transport the ERP lacks, refused at start-up', () => {
  it.each([
    [18, '18.0'],
    [17, '17.0'],
  ] as const)('ERP_TRANSPORT=json2 against Odoo %i: exit 1, one line naming the setting and the version', async (version, text) => {
    const { code, stderr } = await startOrExit(envFor(version, { ERP_TRANSPORT: 'json2' }));
    expect(code).toBe(1);
    expect(stderr).toEqual([JSON2_REFUSED(text)]);
  });

  it('ERP_TRANSPORT=auto without ERP_LOGIN against Odoo 18: exit 1, naming ERP_LOGIN and the version', async () => {
    const { code, stderr } = await startOrExit(envFor(18, { ERP_TRANSPORT: 'auto', ERP_LOGIN: '' }));
    expect(code).toBe(1);
    expect(stderr).toEqual([LOGIN_REFUSED('18.0')]);
  });

  it.each([
    [18, { ERP_TRANSPORT: 'jsonrpc' }, 'jsonrpc'],
    [18, { ERP_TRANSPORT: 'xmlrpc' }, 'xmlrpc'],
    [18, { ERP_TRANSPORT: 'auto' }, 'jsonrpc'],
    [19, { ERP_TRANSPORT: 'json2' }, 'json2'],
    [19, { ERP_TRANSPORT: 'auto', ERP_LOGIN: '' }, 'json2'],
  ] as const)('serves Odoo %i with %j (over %s)', async (version, settings, transport) => {
    const gateway = await start(envFor(version, settings));
    const list = await getJson(`${gateway.url}/api/v1/fleet/vehicles?limit=2`, database.keys.valid);
    expect(list.status).toBe(200);
    expect(await getJson(`${gateway.url}/readyz`)).toMatchObject({ status: 200, body: { status: 'ready', erp: { transport, version: `${version}.0` } } });
    expect(gateway.stderr).toEqual([]);
  });
});

describe('an ERP unreachable at start-up, then answering without the transport', () => {
  it('starts and answers 502 (readyz 503) while the ERP is down; once it answers: 503, the line, exit 1', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const gateway = await start({ ...envFor(18, { ERP_TRANSPORT: 'json2' }), ERP_URL: url });
    const down = await getJson(`${gateway.url}/api/v1/fleet/vehicles`, database.keys.valid);
    expect([down.status, down.body.error?.code]).toEqual([502, 'bad_gateway']);
    const notReady = await getJson(`${gateway.url}/readyz`);
    expect([notReady.status, notReady.body.error?.code]).toEqual([503, 'unavailable']);
    expect(gateway.stderr).toEqual([]);

    await database.serve(undefined, 18, port);
    const refused = await getJson(`${gateway.url}/api/v1/fleet/vehicles`, database.keys.valid);
    expect([refused.status, refused.body.error?.code]).toEqual([503, 'unavailable']);
    expect(refused.body.error?.message).toMatch(/settings do not fit this ERP/);
    const { code, stderr } = await exitOf(gateway);
    expect(code).toBe(1);
    expect(stderr).toEqual([JSON2_REFUSED('18.0')]);
    // The log (flushed at exit): the start-up attempt, then nothing was ever "reached".
    const messages = gateway.stdout.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toContain('ERP not reachable at start-up: asked again on the next request');
    expect(messages).not.toContain('ERP reached');
    expect([...gateway.stdout, ...stderr].join('\n')).not.toContain(database.keys.valid);
  });
});
