/**
 * A gateway app in the test process against a (drifted) sandbox, with the drift check started as
 * main.ts starts it; its log lines and ERP calls are captured.
 */
import type request from 'supertest';
import type { DriftStatus } from '@ops-data-gateway/gateway/runtime/drift/drift-monitor';
import type { ErpCall } from '@ops-data-gateway/gateway/runtime/erp/transport';
import { readyAfterDriftCheck, startGatewayWithEnv } from '../../support/gateway';

export interface DriftGateway {
  readonly url: string;
  readonly logLines: string[];
  readonly erpCalls: ErpCall[];
  get(path: string, key: string): request.Test;
  /** `/readyz` once the drift check is over (polled). */
  readyAfterCheck(): Promise<{ status: string; drift?: DriftStatus }>;
  close(): Promise<void>;
}

export async function startDriftGateway(env: Record<string, string>, options: { start?: boolean } = {}): Promise<DriftGateway> {
  const gateway = await startGatewayWithEnv(env, options.start !== false);
  return {
    url: gateway.url,
    logLines: gateway.logLines,
    erpCalls: gateway.erpCalls,
    get: (path, key) => gateway.get(path, key),
    readyAfterCheck: () => readyAfterDriftCheck(gateway.url),
    close: () => gateway.close(),
  };
}
