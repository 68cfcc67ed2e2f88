/**
 * A gateway in front of a live ERP (or a sandbox standing in for one), with what the live suites
 * need to judge it: the drift the ERP shows against the catalogue, the resources it can serve, the
 * keys from the settings, and direct read calls to the ERP as the technical account.
 */
import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import { loadConfig } from '@ops-data-gateway/gateway/runtime/config';
import type { DriftProblem } from '@ops-data-gateway/gateway/runtime/drift/drift-problem';
import { driftGapsOf, type DriftGaps } from '@ops-data-gateway/gateway/runtime/drift/drift-gaps';
import { runDriftCheck } from '@ops-data-gateway/gateway/runtime/drift/run-drift-check';
import { ErpClient, ErpStats } from '@ops-data-gateway/gateway/runtime/erp/erp-client';
import type { ErpCall } from '@ops-data-gateway/gateway/runtime/erp/transport';
import type { ResourceSpec } from '@ops-data-gateway/gateway/runtime/resource-spec';
import type { LiveErpSettings, LiveTransport } from '../../live/settings';
import { ErpWriter } from '../support/erp-writes';
import { startGateway, type RunningGateway } from '../support/gateway';

export interface LiveTarget {
  readonly settings: LiveErpSettings;
  readonly transport: LiveTransport;
  readonly gateway: RunningGateway;
  /** Major version of the ERP (17, 18, 19…). */
  readonly major: number;
  /** Every drift problem between the catalogue and this ERP. */
  readonly drift: readonly DriftProblem[];
  /** Resources whose model the ERP has (and whose scope it can apply). */
  readonly served: readonly ResourceSpec[];
  gapsOf(resource: ResourceSpec): DriftGaps;
  /** A read call straight to the ERP as the technical account (not through the gateway). */
  erp(call: ErpCall): Promise<unknown>;
  /**
   * Records written by an administrator (the deletion check of the change feed): absent without
   * LIVE_ERP_ADMIN_LOGIN/KEY. The gateway never writes; this is the test acting as a user of the ERP.
   */
  readonly admin?: RecordWriter;
  /** Another gateway in front of the same ERP, over the same transport, with `login` as its technical login. */
  startGatewayAs(login: string, env?: Readonly<Record<string, string>>): Promise<RunningGateway>;
  /** The rights-restored check's account and its switch; absent when the settings give none. */
  readonly rights?: RightsSwitch;
  close(): Promise<void>;
}

/** An API account of the rights-restored check, and how an administrator takes its read right on `resource`'s model away and gives it back. */
export interface RightsSwitch {
  readonly login: string;
  readonly key: string;
  readonly resource: string;
  setRead(allowed: boolean): Promise<void>;
}

/** What an administrator does to records through the ERP's external API: copy one (its new id), write one, delete one. */
export interface RecordWriter {
  copy(model: string, id: number, values: Readonly<Record<string, string>>): Promise<number>;
  write(model: string, id: number, values: Readonly<Record<string, string | boolean>>): Promise<void>;
  unlink(model: string, id: number): Promise<void>;
}

export async function startLiveTarget(settings: LiveErpSettings, transport: LiveTransport, env: Readonly<Record<string, string>> = {}): Promise<LiveTarget> {
  const erpEnv = {
    ERP_URL: settings.url,
    ERP_DATABASE: settings.database,
    ERP_LOGIN: settings.login,
    ERP_TRANSPORT: transport,
    ERP_TIMEOUT_MS: '20000',
    ...(settings.apiGroup ? { ERP_API_GROUP: settings.apiGroup } : {}),
  };
  const direct = new ErpClient(loadConfig(erpEnv).erp);
  const stats = new ErpStats();
  const uid = await direct.identify(settings.key, stats);
  if (uid === false) throw new Error(`the live ERP refuses LIVE_ERP_KEY for ${settings.login} over ${transport}`);
  const { version } = await direct.connect();
  const check = await runDriftCheck(direct, settings.key, RESOURCES);
  if (!check.ok) throw new Error(`drift check against the live ERP failed: ${check.message}`);
  const gateway = await startGateway({
    erpUrl: settings.url,
    database: settings.database,
    login: settings.login,
    transport,
    env: { ...erpEnv, DRIFT_CHECK: 'warn', ERP_CHECK_KEY: settings.key, ...env },
    startDriftCheck: true,
  });
  const gaps = new Map(RESOURCES.map((r) => [r, driftGapsOf(r, check.problems)]));
  const rights = settings.rights;
  const model = rights && RESOURCES.find((r) => r.path === rights.resource)?.model;
  if (rights && !model) throw new Error(`LIVE_ERP_RIGHTS_RESOURCE: no resource ${rights.resource} in the catalogue`);
  return {
    settings,
    transport,
    gateway,
    major: version.major,
    drift: check.problems,
    served: RESOURCES.filter((r) => !gaps.get(r)?.unavailable),
    gapsOf: (resource) => gaps.get(resource) as DriftGaps,
    erp: (call) => direct.call({ uid, key: settings.key }, call, stats),
    ...(settings.adminLogin && settings.adminKey ? { admin: adminWriter(settings.url, settings.database, settings.adminLogin, settings.adminKey) } : {}),
    startGatewayAs: (login, extra = {}) =>
      startGateway({ erpUrl: settings.url, database: settings.database, login, transport, env: { ...erpEnv, ERP_LOGIN: login, ...env, ...extra } }),
    ...(rights && model && settings.adminLogin && settings.adminKey
      ? { rights: { ...rights, setRead: adminReadRight(settings.url, settings.database, settings.adminLogin, settings.adminKey, rights.group, model) } }
      : {}),
    close: () => gateway.close(),
  };
}

/**
 * The administrator's calls over Odoo's external API (JSON-RPC `execute_kw`: every version offers it;
 * 19 logs a deprecation warning per call), with the administrator's API key. The gateway never
 * writes: this is the test acting as the administrator.
 */
function adminRpc(url: string, database: string, login: string, key: string) {
  const rpc = async (service: string, method: string, args: unknown[]): Promise<unknown> => {
    const response = await fetch(`${url}/jsonrpc`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params: { service, method, args } }),
      signal: AbortSignal.timeout(60_000),
    });
    const body = (await response.json()) as { result?: unknown; error?: { data?: { message?: string } } };
    if (body.error) throw new Error(`the administrator's ${method} failed: ${body.error.data?.message ?? JSON.stringify(body.error)}`);
    return body.result;
  };
  let uid: Promise<unknown> | undefined;
  return async (model: string, method: string, args: unknown[], kwargs: object = {}): Promise<unknown> => {
    uid ??= rpc('common', 'authenticate', [database, login, key, {}]);
    const id = await uid;
    if (typeof id !== 'number') throw new Error(`LIVE_ERP_ADMIN_KEY is refused for ${login}`);
    return rpc('object', 'execute_kw', [database, id, key, model, method, args, kwargs]);
  };
}

/** The administrator's `copy`, `write` and `unlink` (the change feed's deletion check, the cache's change detection). */
function adminWriter(url: string, database: string, login: string, key: string): RecordWriter {
  const execute = adminRpc(url, database, login, key);
  return {
    async copy(model, id, values) {
      const copied = await execute(model, 'copy', [[id], values]);
      const newId = Array.isArray(copied) ? copied[0] : copied;
      if (typeof newId !== 'number') throw new Error(`${model}.copy answered ${JSON.stringify(copied)}`);
      return newId;
    },
    async write(model, id, values) {
      await execute(model, 'write', [[id], values]);
    },
    async unlink(model, id) {
      await execute(model, 'unlink', [[id]]);
    },
  };
}

/**
 * What an administrator does to take a group's read right on a model away or give it back:
 * `ir.model.access.write({'perm_read': …})` on the group's access row of the model (exactly one, or
 * the set-up is wrong).
 */
function adminReadRight(url: string, database: string, login: string, key: string, group: string, model: string): (allowed: boolean) => Promise<void> {
  const execute = adminRpc(url, database, login, key);
  let rows: Promise<number[]> | undefined;
  const accessRows = async () => {
    const [module, name] = group.split('.') as [string, string];
    const refs = (await execute(
      'ir.model.data',
      'search_read',
      [
        [
          ['module', '=', module],
          ['name', '=', name],
          ['model', '=', 'res.groups'],
        ],
      ],
      { fields: ['res_id'] },
    )) as { res_id: number }[];
    if (refs.length !== 1) throw new Error(`LIVE_ERP_RIGHTS_GROUP: no group ${group} in the ERP`);
    const ids = (await execute('ir.model.access', 'search', [
      [
        ['group_id', '=', refs[0]?.res_id],
        ['model_id.model', '=', model],
      ],
    ])) as number[];
    if (ids.length !== 1) throw new Error(`LIVE_ERP_RIGHTS_GROUP: ${group} has ${ids.length} access rows on ${model}, not one (docs/compatibility.md)`);
    return ids;
  };
  return async (allowed) => {
    rows ??= accessRows();
    await execute('ir.model.access', 'write', [await rows, { perm_read: allowed }]);
  };
}

/**
 * The rights switch of a sandbox standing in for a live ERP: `group`'s access row on `resource`'s
 * model changed in the sandbox's tables, as an administrator's `ir.model.access.write` would (the
 * sandbox refuses writes over its API, like the rights an API account has).
 */
export function sandboxRightsSwitch(dbPath: string, account: { login: string; key: string }, group: string, resource: string): RightsSwitch & { close(): void } {
  const model = RESOURCES.find((r) => r.path === resource)?.model;
  if (!model) throw new Error(`no resource ${resource} in the catalogue`);
  const erp = new ErpWriter(dbPath);
  return { ...account, resource, setRead: async (allowed) => erp.setReadRight(group, model, allowed), close: () => erp.close() };
}
