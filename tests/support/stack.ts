/**
 * The end-to-end test stack: a freshly seeded sandbox ERP over real HTTP, its demo keys, and the
 * gateway app configured against it (over the transport and Odoo version under test). The gateway
 * listens on a loopback port; its log lines and the ERP calls it makes are captured for assertions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { DatabaseSync } from 'node:sqlite';
import request from 'supertest';
import { createApp } from '../../runtime/app';
import { loadConfig } from '../../runtime/config';
import type { ErpCall } from '../../runtime/erp/transport';
import { createLogger } from '../../runtime/log';
import { startSandbox, type RunningSandbox } from '../../sandbox/http/start-sandbox';
import type { OdooVersion } from '../../sandbox/orm/types';
import { createDemoKeys, type DemoKeys } from '../../sandbox/security/demo-keys';
import { GATEWAY_LOGIN } from '../../sandbox/seed/security';
import { initDatabase } from '../../sandbox/seed/init';

export type TransportUnderTest = 'json2' | 'jsonrpc' | 'xmlrpc' | 'auto';

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
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logLines.push(line);
      done();
    },
  });
  const erpCalls: ErpCall[] = [];
  const config = loadConfig({
    ERP_URL: erpUrl,
    ERP_DATABASE: sandbox.database,
    ERP_TRANSPORT: options.transport ?? 'auto',
    ERP_LOGIN: GATEWAY_LOGIN,
    ERP_PUBLIC_URL: 'https://erp.example.test',
    LOG_LEVEL: 'info',
    ...options.env,
  });
  const { app } = createApp(config, { logger: createLogger(config.logLevel, sink), observeErpCall: (call) => erpCalls.push(call) });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    sandbox,
    keys,
    dbPath,
    url,
    server,
    erpCalls,
    logLines,
    get(path, key = keys.valid) {
      const test = request(url).get(path);
      return key === null ? test : test.set('Authorization', `Bearer ${key}`);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The transports and versions every end-to-end suite runs against. */
export const TRANSPORTS: readonly (readonly [string, TransportUnderTest, OdooVersion])[] = [
  ['JSON-2 on Odoo 19', 'json2', 19],
  ['JSON-RPC on Odoo 19', 'jsonrpc', 19],
  ['XML-RPC on Odoo 19', 'xmlrpc', 19],
  ['auto (JSON-RPC) on Odoo 17', 'auto', 17],
];
