/**
 * @module Starts the gateway: reads the configuration (one clear line and exit 1 when it is wrong),
 * listens, and on SIGTERM/SIGINT stops accepting, lets in-flight requests finish (they all answer
 * within REQUEST_TIMEOUT_MS), then exits 0; 1 when answers were cut (a client not reading its answer).
 * With WORKERS above 1 this process is the cluster's primary (cluster-primary.ts) and each worker runs
 * the same code as a single process; a worker retired by a reload (SIGHUP to the primary) drains as
 * on SIGTERM, but leaves its idle kept-alive connections to their keep-alive timeout. A single
 * process cannot replace itself without closing its port: it logs a SIGHUP and keeps serving.
 */
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import { createApp } from './app';
import { RETIRE_MESSAGE, runPrimary } from './cluster-primary';
import { ConfigError, loadConfig, type GatewayConfig } from './config';
import { driftFailureLines } from './drift/format-drift';
import { erpErrorSummary, ErpTransportMissing } from './erp/erp-error';
import { createGracefulCloser } from './server/graceful-close';
import { exitAfterLastMessage, leaveRoundRobin } from './server/leave-cluster';
import { createGatewayServer } from './server/harden-server';
import { bufferedStdout, createLogger, type Logger } from './log';
import { createMetricsServer } from './telemetry/metrics-server';
import { startTracing, type Tracing } from './telemetry/tracing';

/** Past the request deadline (every request in flight has answered by then), shutdown waits this much more. */
const SHUTDOWN_MARGIN_MS = 1000;

async function main(): Promise<void> {
  let config: GatewayConfig;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`ops-data-gateway: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const output = bufferedStdout();
  const root = createLogger(config.logLevel, output);
  if (config.workers > 1 && cluster.isPrimary) {
    if (config.metrics) serveMetrics(loadClusterMetrics().createClusterMetricsServer(), config.metrics, root);
    runPrimary(config, root, () => output.flush());
    return;
  }
  // A worker's lines say which worker wrote them.
  const logger = cluster.isWorker ? root.child({ worker: cluster.worker?.id, pid: process.pid }) : root;
  // The OpenTelemetry SDK is loaded only when traces are asked for.
  const tracing: Tracing | undefined = config.tracing ? startTracing(config.tracing) : undefined;
  const { app, erp, drift, metrics, shared, watch } = createApp(config, { logger, tracing });
  if (metrics && config.metrics) {
    // With WORKERS the primary serves one sum of every worker's numbers (cluster-metrics.ts).
    // A worker of WORKERS=1 has no gateway primary (its parent is `make run`'s launcher): it serves its own.
    if (cluster.isWorker && config.workers > 1) loadClusterMetrics().answerPrimary(metrics);
    else serveMetrics(createMetricsServer(metrics), config.metrics, logger);
  }
  const server = createGatewayServer(app, config.requestTimeoutMs, config.clientWriteTimeoutMs);
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info(
      {
        host: config.host,
        port,
        erp: withoutCredentials(config.erp.url),
        transport: config.erp.transport,
        ...(config.tracing ? { traces: withoutCredentials(config.tracing.endpoint) } : {}),
      },
      'gateway listening',
    );
    output.flush();
    // The ERP's version and transport, asked at once: an unreachable ERP is asked again by the first
    // request (502 until it answers) and by /readyz (503).
    erp.connect().then(
      ({ transport, version }) => logger.info({ transport: transport.name, erp_version: version.text }, 'ERP reached'),
      (error: unknown) => {
        if (!(error instanceof ErpTransportMissing)) logger.warn({ erp_error: erpErrorSummary(error) }, 'ERP not reachable at start-up: asked again on the next request');
      },
    );
    // In the background: requests are served while the ERP is asked (DRIFT_CHECK=fail exits on drift).
    drift.start((problems) => {
      for (const line of driftFailureLines(problems)) process.stderr.write(`ops-data-gateway: ${line}\n`);
      output.flush();
      process.exit(1);
    });
  });
  server.on('error', (error) => {
    process.stderr.write(`ops-data-gateway: cannot listen on ${config.host}:${config.port}: ${error.message}\n`);
    process.exit(1);
  });
  const closer = createGracefulCloser(server);
  let stopping = false;
  /**
   * `refused`: the settings do not fit the ERP; the process exits 1 once the requests in flight are answered.
   * `retired`: a reload replaced this worker: idle kept-alive connections are not cut (closer.close).
   */
  const stop = (signal: string, refused = false, retired = false) => {
    // A worker may get the signal twice (from its primary and from the process group): it drains once.
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    void closer.close({ keepIdle: retired }).then(async (cut) => {
      // A connection the cluster's primary handed over just as the server closed is handed back (leave-cluster.ts).
      await leaveRoundRobin();
      await watch.close();
      await shared?.close();
      // The last spans leave before the process does (bounded: the exporter has its own timeout).
      await tracing?.shutdown().catch(() => undefined);
      // Exit status 1 when answers were cut: the clients concerned did not get what they asked for.
      if (cut) logger.warn({ answers_cut: cut }, 'shutdown cut answers not yet read by their clients');
      output.flush();
      exitAfterLastMessage(cut || refused ? 1 : 0);
    });
    setTimeout(() => {
      // Exit status 1: the deadline cut answers still being written (a client that stopped reading).
      logger.warn({ answers_cut: closer.inFlight }, 'shutdown deadline reached with answers still in flight');
      output.flush();
      process.exit(1);
    }, config.requestTimeoutMs + SHUTDOWN_MARGIN_MS).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  if (cluster.isWorker) {
    process.on('message', (message) => {
      if (message === RETIRE_MESSAGE) stop('reload', false, true);
    });
    // The primary reloads on SIGHUP; a SIGHUP sent to the whole process group reaches the workers too.
    process.on('SIGHUP', () => undefined);
  } else {
    process.on('SIGHUP', () => {
      logger.warn('SIGHUP: reloading needs WORKERS of 2 or more (a single process cannot replace itself without closing its port); still serving the build it started with');
      output.flush();
    });
  }
  // A transport the ERP lacks is a setting to change, refused in one line as a wrong setting is, as soon
  // as the ERP answers: at start-up, or later when it was unreachable then (requests in flight are
  // answered 503 first).
  erp.onRefusal((refusal) => {
    if (stopping) return;
    process.stderr.write(`ops-data-gateway: ${refusal.message}\n`);
    stop('ERP settings refused', true);
  });
}

/** An ERP URL may carry a user and password (`https://user:secret@erp...`): never logged. */
function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString().replace(/\/$/, '');
}

void main();

/** The metrics listener (METRICS_PORT): a port it cannot have stops the gateway, as the public one does. */
function serveMetrics(server: Server, { host, port }: { readonly host: string; readonly port: number }, logger: Logger): void {
  server.on('error', (error) => {
    process.stderr.write(`ops-data-gateway: cannot listen for metrics on ${host}:${port}: ${error.message}\n`);
    process.exit(1);
  });
  server.listen(port, host, () => {
    const address = server.address();
    logger.info({ host, port: typeof address === 'object' && address ? address.port : port }, 'metrics listening at /metrics');
  });
  // Scrapes never keep the process alive at shutdown.
  server.unref();
}

/** prom-client's cluster aggregation, loaded only when METRICS_PORT is set (as app.ts loads metrics.ts). */
function loadClusterMetrics(): typeof import('./telemetry/cluster-metrics') {
  return require('./telemetry/cluster-metrics') as typeof import('./telemetry/cluster-metrics');
}
