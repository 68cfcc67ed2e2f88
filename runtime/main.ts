/**
 * @module Starts the gateway: reads the configuration (one clear line and exit 1 when it is wrong),
 * listens, and on SIGTERM/SIGINT stops accepting, lets in-flight requests finish up to a deadline,
 * then exits 0.
 */
import { createApp } from './app';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './log';

const SHUTDOWN_GRACE_MS = 10000;

function main(): void {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`ops-data-gateway: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const { app } = createApp(config, { logger });
  const server = app.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info({ host: config.host, port, erp: config.erp.url, transport: config.erp.transport }, 'gateway listening');
  });
  server.on('error', (error) => {
    process.stderr.write(`ops-data-gateway: cannot listen on ${config.host}:${config.port}: ${error.message}\n`);
    process.exit(1);
  });
  server.keepAliveTimeout = 5000;
  server.headersTimeout = 10000;
  server.requestTimeout = Math.max(config.erp.timeoutMs * 3, 30000);
  const stop = (signal: string) => {
    logger.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => {
      logger.warn('shutdown deadline reached with requests still in flight');
      process.exit(0);
    }, SHUTDOWN_GRACE_MS).unref();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main();
