import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import { loadConfig } from '@ops-data-gateway/gateway/runtime/config';
import { DriftMonitor } from '@ops-data-gateway/gateway/runtime/drift/drift-monitor';
import { ErpClient } from '@ops-data-gateway/gateway/runtime/erp/erp-client';
import { createLogger } from '@ops-data-gateway/gateway/runtime/log';
import { startSandbox } from '@ops-data-gateway/sandbox/http/start-sandbox';
import { createDriftDatabase, type DriftDatabase } from './support/drift-sandbox';
import { freePort } from '../support/free-port';

let database: DriftDatabase;
beforeAll(() => {
  database = createDriftDatabase();
});
afterAll(() => database.close());

describe(DriftMonitor.name, () => {
  it('retries a check the ERP could not answer, once the ERP is up', async () => {
    const port = await freePort();
    const config = loadConfig({ ERP_URL: `http://127.0.0.1:${port}`, ERP_DATABASE: 'sandbox', ERP_TIMEOUT_MS: '2000', ERP_LOGIN: 'api' });
    const monitor = new DriftMonitor({
      mode: 'warn',
      checkKey: database.keys.valid,
      erp: new ErpClient(config.erp),
      log: createLogger('silent'),
      resources: RESOURCES,
      retryIntervalMs: 0,
    });
    monitor.start();
    await monitor.retry();
    expect(monitor.status()).toMatchObject({ state: 'error', error: { code: 'erp_error' } });
    const sandbox = await startSandbox({ dbPath: database.dbPath, port, drift: { removeModels: ['fleet.alert'] } });
    try {
      await monitor.retry();
      expect(monitor.status()).toMatchObject({ state: 'checked', problems: [expect.objectContaining({ kind: 'missing_model', model: 'fleet.alert' })] });
    } finally {
      await sandbox.close();
    }
  });
});
