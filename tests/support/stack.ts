/**
 * The end-to-end test stack: a freshly seeded sandbox ERP over real HTTP, its demo keys, and the
 * gateway app configured against it (over the transport and Odoo version under test). The gateway
 * listens on a loopback port; its log lines and the ERP calls it makes are captured for assertions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type request from 'supertest';
import type { ErpCall } from '@ops-data-gateway/gateway/runtime/erp/transport';
import { startSandbox, type RunningSandbox } from '@ops-data-gateway/sandbox/http/start-sandbox';
import type { OdooVersion } from '@ops-data-gateway/sandbox/orm/types';
import { createDemoKeys, type DemoKeys } from '@ops-data-gateway/sandbox/security/demo-keys';
import { GATEWAY_LOGIN } from '@ops-data-gateway/sandbox/seed/security';
import { initDatabase } from '@ops-data-gateway/sandbox/seed/init';
import { startFaultProxy, type FaultProxy } from './fault-proxy';
import { startGateway, type TransportUnderTest } from './gateway';

export type { TransportUnderTest } from './gateway';

export interface StackOptions {
  readonly transport?: TransportUnderTest;
  readonly version?: OdooVersion;
  /** Extra gateway settings (environment variables). */
  readonly env?: Readonly<Record<string, string>>;
  /** Put something (a fault proxy) between gateway and sandbox: given the sandbox URL, returns the URL the gateway uses. */
  readonly erpUrl?: (sandboxUrl: string) => Promise<string> | string;
  readonly now?: () => Date;
}

export interface Stack {
  readonly sandbox: RunningSandbox;
  readonly keys: DemoKeys;
  readonly dbPath: string;
  /** Base URL of the gateway (`http://127.0.0.1:<port>`). */
  readonly url: string;
  readonly server: Server;
  /** Every ERP call the gateway made, in order. */
  readonly erpCalls: ErpCall[];
  /** Every log line the gateway wrote (raw JSON text). */
  readonly logLines: string[];
  /** Base URL of the metrics listener, when METRICS_PORT is set. */
  readonly metricsUrl: string | undefined;
  /** `GET path` with the valid key. */
  get(path: string, key?: string | null): request.Test;
  close(): Promise<void>;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const dir = mkdtempSync(join(tmpdir(), 'odg-e2e-'));
  const dbPath = join(dir, 'sandbox.db');
  initDatabase({ path: dbPath });
  const db = new DatabaseSync(dbPath);
  const sandbox = await startSandbox({ dbPath, version: options.version ?? 19, ...(options.now ? { now: options.now } : {}) });
  const keys = createDemoKeys(db, sandbox.database);
  db.close();
  const erpUrl = options.erpUrl ? await options.erpUrl(sandbox.url) : sandbox.url;
  const gateway = await startGateway({
    erpUrl,
    database: sandbox.database,
    login: GATEWAY_LOGIN,
    transport: options.transport ?? 'auto',
    ...(options.env ? { env: options.env } : {}),
  });
  return {
    sandbox,
    keys,
    dbPath,
    url: gateway.url,
    server: gateway.server,
    erpCalls: gateway.erpCalls,
    logLines: gateway.logLines,
    metricsUrl: gateway.metricsUrl,
    get: (path, key = keys.valid) => gateway.get(path, key),
    async close() {
      await gateway.close();
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The stack with a fault proxy between gateway and sandbox (the reliability suites drive it). */
export async function startStackBehindProxy(options: Omit<StackOptions, 'erpUrl'> = {}): Promise<{ stack: Stack; proxy: FaultProxy }> {
  let proxy: FaultProxy | undefined;
  const stack = await startStack({
    ...options,
    erpUrl: async (sandboxUrl) => {
      proxy = await startFaultProxy(sandboxUrl);
      return proxy.url;
    },
  });
  return { stack, proxy: proxy as FaultProxy };
}

/** The transports and versions every end-to-end suite runs against. */
export const TRANSPORTS: readonly (readonly [string, TransportUnderTest, OdooVersion])[] = [
  ['JSON-2 on Odoo 19', 'json2', 19],
  ['JSON-RPC on Odoo 19', 'jsonrpc', 19],
  ['XML-RPC on Odoo 19', 'xmlrpc', 19],
  ['auto (JSON-RPC) on Odoo 17', 'auto', 17],
];
