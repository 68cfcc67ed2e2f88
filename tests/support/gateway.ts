/**
 * The gateway app of the end-to-end suites, listening on a loopback port in front of any ERP (the
 * sandbox, or a live Odoo given by settings). Its log lines and the ERP calls it makes are captured
 * for assertions.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createApp } from '@ops-data-gateway/gateway/runtime/app';
import { loadConfig } from '@ops-data-gateway/gateway/runtime/config';
import { createGatewayServer } from '@ops-data-gateway/gateway/runtime/server/harden-server';
import type { DriftStatus } from '@ops-data-gateway/gateway/runtime/drift/drift-monitor';
import type { ErpCall } from '@ops-data-gateway/gateway/runtime/erp/transport';
import { createLogger } from '@ops-data-gateway/gateway/runtime/log';
import { createMetricsServer } from '@ops-data-gateway/gateway/runtime/telemetry/metrics-server';

export type TransportUnderTest = 'json2' | 'jsonrpc' | 'xmlrpc' | 'auto';

export interface GatewayOptions {
  readonly erpUrl: string;
  readonly database: string;
  readonly login: string;
  readonly transport: TransportUnderTest;
  /** Extra gateway settings (environment variables). */
  readonly env?: Readonly<Record<string, string>>;
  /** Start the catalogue drift check once listening, as main.ts does. */
  readonly startDriftCheck?: boolean;
}

export interface RunningGateway {
  /** Base URL of the gateway (`http://127.0.0.1:<port>`). */
  readonly url: string;
  readonly server: Server;
  /** Every ERP call the gateway made, in order. */
  readonly erpCalls: ErpCall[];
  /** Every log line the gateway wrote (raw JSON text). */
  readonly logLines: string[];
  /** Base URL of the metrics listener, when METRICS_PORT is set (`http://127.0.0.1:<port>`). */
  readonly metricsUrl: string | undefined;
  /** `GET path` with `key` as bearer (none when null). */
  get(path: string, key: string | null): request.Test;
  close(): Promise<void>;
}

export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const env = {
    ERP_URL: options.erpUrl,
    ERP_DATABASE: options.database,
    ERP_TRANSPORT: options.transport,
    ERP_LOGIN: options.login,
    ERP_PUBLIC_URL: 'https://erp.example.test',
    LOG_LEVEL: 'info',
    ...options.env,
  };
  return startGatewayWithEnv(env, options.startDriftCheck ?? false);
}

/** The gateway configured by a complete environment, as main.ts reads it. */
export async function startGatewayWithEnv(env: Readonly<Record<string, string>>, startDriftCheck: boolean): Promise<RunningGateway> {
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logLines.push(line);
      done();
    },
  });
  const erpCalls: ErpCall[] = [];
  const config = loadConfig(env);
  // Traces are tested on the real process (tests/operate/tracing.test.ts): the OTLP exporter loads
  // node:http with import(), which jest's module sandbox cannot do.
  const { app, drift, metrics, shared } = createApp(config, { logger: createLogger(config.logLevel, sink), observeErpCall: (call) => erpCalls.push(call) });
  // As main.ts does: the metrics on a listener of their own.
  const metricsServer = metrics && config.metrics ? createMetricsServer(metrics) : undefined;
  if (metricsServer && config.metrics) {
    const { host, port } = config.metrics;
    await new Promise<void>((resolve) => metricsServer.listen(port, host, resolve));
  }
  const server = await new Promise<Server>((resolve) => {
    const s = createGatewayServer(app, config.requestTimeoutMs, config.clientWriteTimeoutMs);
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (startDriftCheck) drift.start();
  return {
    url,
    server,
    erpCalls,
    logLines,
    metricsUrl: metricsServer ? `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}` : undefined,
    get(path, key) {
      const test = request(url).get(path);
      return key === null ? test : test.set('Authorization', `Bearer ${key}`);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // The Redis connection (REDIS_URL) would otherwise keep reconnecting, and the test process alive.
      await shared?.close();
      if (metricsServer) await new Promise<void>((resolve) => metricsServer.close(() => resolve()));
    },
  };
}

/** `/readyz` once the gateway's drift check is no longer pending (polled, 10 s at most). */
export async function readyAfterDriftCheck(url: string): Promise<{ status: string; drift?: DriftStatus }> {
  for (let i = 0; i < 200; i++) {
    const { body } = await request(url).get('/readyz');
    if (body.drift?.state !== 'pending') return body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the drift check did not finish');
}
