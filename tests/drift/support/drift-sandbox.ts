/**
 * The drift tests' ERP: one seeded sandbox database per suite, served as many times as a suite needs,
 * each time with its own drift (models or fields taken away, selection values added...), plus the
 * gateway settings that point at it. The drift check runs with the API user's demo key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { startSandbox, type RunningSandbox } from '@ops-data-gateway/sandbox/http/start-sandbox';
import type { RegistryDrift } from '@ops-data-gateway/sandbox/orm/registry-drift';
import type { OdooVersion } from '@ops-data-gateway/sandbox/orm/types';
import { createDemoKeys, type DemoKeys } from '@ops-data-gateway/sandbox/security/demo-keys';
import { initDatabase } from '@ops-data-gateway/sandbox/seed/init';
import { GATEWAY_LOGIN } from '@ops-data-gateway/sandbox/seed/security';

export interface DriftDatabase {
  readonly dbPath: string;
  readonly keys: DemoKeys;
  /** Serves the database with `drift` applied (on `port` when given); closed by `close()`. */
  serve(drift?: RegistryDrift, version?: OdooVersion, port?: number): Promise<RunningSandbox>;
  /** Stops serving it (every sandbox started so far), as an ERP going down for an upgrade. */
  closeServed(): Promise<void>;
  close(): Promise<void>;
}

export function createDriftDatabase(): DriftDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'odg-drift-'));
  const dbPath = join(dir, 'sandbox.db');
  initDatabase({ path: dbPath });
  const db = new DatabaseSync(dbPath);
  const keys = createDemoKeys(db, 'sandbox');
  db.close();
  const running: RunningSandbox[] = [];
  return {
    dbPath,
    keys,
    async serve(drift, version = 19, port = 0) {
      const sandbox = await startSandbox({ dbPath, version, port, ...(drift ? { drift } : {}) });
      running.push(sandbox);
      return sandbox;
    },
    async closeServed() {
      await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
    },
    async close() {
      await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The gateway's environment for a sandbox (what `loadConfig` and the CLI read). */
export function gatewayEnv(sandbox: RunningSandbox, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return {
    ERP_URL: sandbox.url,
    ERP_DATABASE: sandbox.database,
    ERP_TRANSPORT: 'auto',
    ERP_LOGIN: GATEWAY_LOGIN,
    ERP_PUBLIC_URL: 'https://erp.example.test',
    LOG_LEVEL: 'info',
    ...extra,
  };
}
