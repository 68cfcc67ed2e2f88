/**
 * @module WORKERS=N (or `auto`, one per CPU): N gateway processes on one machine sharing the port
 * (node:cluster; the primary accepts connections and hands them to the workers in turn). The primary
 * serves nothing itself: it starts the workers, starts again one that dies (at most
 * MAX_RESTARTS per minute; past that a crash loop stops the whole gateway with exit 1 rather than
 * hide), and on SIGTERM/SIGINT passes the signal on, so that every worker drains as a single process
 * does (main.ts), and exits once all have: 0, or 1 when any cut answers or the deadline came first.
 *
 * Each worker has its own memory: its caches of keys and answers, its ERP connection pool and
 * concurrency limit (ERP_MAX_CONCURRENCY is per worker). Limits are shared across workers only
 * through Redis (REDIS_URL), as across machines.
 */
import cluster, { type Worker } from 'node:cluster';
import type { GatewayConfig } from './config';
import type { Logger } from './log';

const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60000;
/** Past the request deadline, the primary waits this much more for its workers to drain. */
const SHUTDOWN_MARGIN_MS = 2000;

export function runPrimary(config: GatewayConfig, log: Logger, flush: () => void): void {
  let stopping = false;
  let failed = false;
  const restarts: number[] = [];
  const fork = () => cluster.fork();

  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
    if (stopping) {
      if (code !== 0) failed = true;
      if (Object.keys(cluster.workers ?? {}).length === 0) finish();
      return;
    }
    const now = Date.now();
    while (restarts.length && now - (restarts[0] as number) > RESTART_WINDOW_MS) restarts.shift();
    if (restarts.length >= MAX_RESTARTS) {
      log.error({ worker: worker.id, code, signal, restarts: restarts.length }, `workers keep dying (${MAX_RESTARTS} restarts within a minute): stopping the gateway`);
      failed = true;
      stop('crash loop');
      return;
    }
    restarts.push(now);
    log.warn({ worker: worker.id, code, signal }, 'worker exited: starting another');
    fork();
  });

  const finish = () => {
    log.info({ failed }, 'all workers stopped');
    flush();
    process.exit(failed ? 1 : 0);
  };
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ reason, workers: Object.keys(cluster.workers ?? {}).length }, 'shutting down: every worker stops accepting and finishes its requests');
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) finish();
    // A signal sent to the whole process group reaches the workers directly too: they stop once either way.
    for (const worker of workers) worker?.process.kill('SIGTERM');
    setTimeout(() => {
      log.warn({ workers: Object.keys(cluster.workers ?? {}).length }, 'shutdown deadline reached with workers still draining: killing them');
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      failed = true;
      finish();
    }, config.requestTimeoutMs + SHUTDOWN_MARGIN_MS).unref();
  };
  // `on`, not `once`: a second signal (the process group, then a supervisor) must not end the primary by default.
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  log.info({ workers: config.workers, host: config.host, port: config.port }, 'starting gateway workers');
  flush();
  for (let i = 0; i < config.workers; i++) fork();
}
