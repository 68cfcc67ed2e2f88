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
  close(): Promise<void>;
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
  return {
    settings,
    transport,
    gateway,
    major: version.major,
    drift: check.problems,
    served: RESOURCES.filter((r) => !gaps.get(r)?.unavailable),
    gapsOf: (resource) => gaps.get(resource) as DriftGaps,
    erp: (call) => direct.call({ uid, key: settings.key }, call, stats),
    close: () => gateway.close(),
  };
}
