/**
 * A gateway app in the test process against a (drifted) sandbox, with the drift check started as
 * main.ts starts it; its log lines and ERP calls are captured.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createApp } from '../../../runtime/app';
import { loadConfig } from '../../../runtime/config';
import type { DriftStatus } from '../../../runtime/drift/drift-monitor';
import type { ErpCall } from '../../../runtime/erp/transport';
import { createLogger } from '../../../runtime/log';

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
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logLines.push(line);
      done();
    },
  });
  const erpCalls: ErpCall[] = [];
  const config = loadConfig(env);
  const { app, drift } = createApp(config, { logger: createLogger(config.logLevel, sink), observeErpCall: (call) => erpCalls.push(call) });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  if (options.start !== false) drift.start();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    logLines,
    erpCalls,
    get: (path, key) => request(url).get(path).set('Authorization', `Bearer ${key}`),
    async readyAfterCheck() {
      for (let i = 0; i < 100; i++) {
        const { body } = await request(url).get('/readyz');
        if (body.drift?.state !== 'pending') return body;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('the drift check did not finish');
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
