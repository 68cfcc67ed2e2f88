/**
 * @module WORKERS=N (or `auto`, one per CPU): N gateway processes on one machine sharing the port
 * (node:cluster; the primary accepts connections and hands them to the workers in turn). The primary
 * serves nothing itself: it starts the workers, starts again one that dies (at most
 * MAX_RESTARTS per minute; past that a crash loop stops the whole gateway with exit 1 rather than
 * hide), and on SIGTERM/SIGINT passes the signal on, so that every worker drains as a single process
 * does (main.ts), and exits once all have: 0, or 1 when any cut answers or the deadline came first.
 *
 * On SIGHUP it reloads: it replaces the workers one at a time with new ones started from the build on
 * disk now (the release bundle or compiled output, with the catalogue generated into it), each new
 * worker listening before an old one is retired; a retired worker stops taking connections and
 * answers what it has in flight (main.ts: `Connection: close` on each, idle kept-alive connections
 * left to close at their keep-alive timeout, which clients are told, rather than cut under a request
 * on its way). A new worker that exits or does not listen within READY_LIMIT_MS is refused: logged,
 * stopped, and the workers still running keep serving.
 *
 * Each worker has its own memory: its caches of keys and answers, its ERP connection pool and
 * concurrency limit (ERP_MAX_CONCURRENCY is per worker). Limits are shared across workers only
 * through Redis (REDIS_URL), as across machines.
 */
import cluster, { type Worker } from 'node:cluster';
import type { GatewayConfig } from './config';
import type { Logger } from './log';
import { answerWorkersLeaving } from './server/leave-cluster';

const MAX_RESTARTS = 5;
/** How long a worker started by a reload has to listen before the reload refuses it. */
const READY_LIMIT_MS = 60000;
/** The message that tells a worker to retire (main.ts). */
export const RETIRE_MESSAGE = 'ops-data-gateway:retire';
const RESTART_WINDOW_MS = 60000;
/** Past the request deadline, the primary waits this much more for its workers to drain. */
const SHUTDOWN_MARGIN_MS = 2000;

export function runPrimary(config: GatewayConfig, log: Logger, flush: () => void): void {
  let stopping = false;
  let failed = false;
  const restarts: number[] = [];
  const fork = () => cluster.fork();
  /** Workers a reload retired, or started and not yet listening: their exit is the reload's business. */
  const reloadOwns = new Set<Worker>();
  answerWorkersLeaving();

  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
    if (reloadOwns.delete(worker)) {
      if (stopping && Object.keys(cluster.workers ?? {}).length === 0) finish();
      return;
    }
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

  let reloading: Promise<void> | undefined;
  let again = false;
  const reload = async () => {
    const olds = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
    log.info({ workers: olds.length }, 'reload: replacing the workers one at a time with the build on disk');
    flush();
    let replaced = 0;
    for (const old of olds) {
      if (stopping) return;
      if (old.isDead()) continue;
      const fresh = fork();
      reloadOwns.add(fresh);
      const outcome = await readiness(fresh, READY_LIMIT_MS, config.port || undefined);
      if (outcome !== 'listening') {
        log.error(
          { reason: outcome, replaced, kept: olds.length - replaced },
          'reload refused: a new worker did not start; the workers running keep serving (see its error above)',
        );
        if (!fresh.isDead()) fresh.process.kill('SIGKILL');
        flush();
        return;
      }
      reloadOwns.delete(fresh);
      reloadOwns.add(old);
      const gone = exitOf(old);
      old.send(RETIRE_MESSAGE);
      const limit = setTimeout(() => {
        log.warn({ worker: old.id }, 'reload: a retired worker did not finish within the request deadline: killed');
        old.process.kill('SIGKILL');
      }, config.requestTimeoutMs + SHUTDOWN_MARGIN_MS);
      await gone;
      clearTimeout(limit);
      replaced++;
      log.info({ retired: old.id, by: fresh.id, replaced, of: olds.length }, 'reload: worker replaced');
      flush();
    }
    log.info({ workers: replaced }, 'reload done: every worker runs the new build');
    flush();
  };
  // A SIGHUP during a reload runs one more after it (a newer build may have landed meanwhile).
  process.on('SIGHUP', () => {
    if (stopping) return;
    if (reloading) {
      again = true;
      return;
    }
    const run = async () => {
      do {
        again = false;
        await reload();
      } while (again && !stopping);
      reloading = undefined;
    };
    reloading = run();
  });

  log.info({ workers: config.workers, host: config.host, port: config.port }, 'starting gateway workers');
  flush();
  for (let i = 0; i < config.workers; i++) fork();
}

/**
 * `listening` once the worker listens (on `port`, when given: a worker may listen for its metrics
 * first); otherwise why not (it exited, or the limit passed).
 */
export function readiness(worker: Worker, limitMs: number, port?: number): Promise<string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(`not listening after ${limitMs} ms`), limitMs);
    const onListening = (address: { port: number }) => {
      if (port === undefined || address.port === port) done('listening');
    };
    const onExit = (code: number | null, signal: string | null) => done(`exited before listening (${signal ?? `code ${code}`})`);
    const done = (outcome: string) => {
      clearTimeout(timer);
      worker.off('listening', onListening);
      worker.off('exit', onExit);
      resolve(outcome);
    };
    worker.on('listening', onListening);
    worker.once('exit', onExit);
  });
}

function exitOf(worker: Worker): Promise<void> {
  return worker.isDead() ? Promise.resolve() : new Promise((resolve) => worker.once('exit', () => resolve()));
}
