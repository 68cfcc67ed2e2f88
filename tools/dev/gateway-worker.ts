/**
 * @module The gateway of `make run` and `make dev`: one cluster worker of the launcher's process,
 * running a gateway bundle exactly as production runs it (the same main.ts, as a worker of WORKERS=1).
 * The launcher holds the port (node:cluster's primary accepts and hands connections on), so that a new
 * worker can be started beside the old one and the old one retired once the new one listens, as a
 * production reload does (runtime/cluster-primary.ts): the port never stops answering.
 */
import cluster, { type Worker } from 'node:cluster';
import { RETIRE_MESSAGE, readiness } from '@ops-data-gateway/gateway/runtime/cluster-primary';

/** How long a new gateway has to listen before it is given up on. */
const READY_LIMIT_MS = 30000;
/** How long a retired gateway has to finish its requests (its idle kept-alive connections close within 5 s). */
const RETIRE_LIMIT_MS = 15000;

/** The V8 flags of README "Running in production": a small young generation keeps RSS flat. */
const EXEC_ARGV = ['--max-semi-space-size=4', '--max-old-space-size=256'];

/** Starts the gateway bundle `exec` with `env` and settles once it listens; rejects with why not (it is stopped then). */
export async function startGateway(exec: string, env: Readonly<Record<string, string>>): Promise<Worker> {
  cluster.setupPrimary({ exec, execArgv: EXEC_ARGV });
  const worker = cluster.fork({ ...env, WORKERS: '1' });
  const outcome = await readiness(worker, READY_LIMIT_MS);
  if (outcome === 'listening') return worker;
  if (!worker.isDead()) worker.process.kill('SIGKILL');
  throw new Error(`the new gateway ${outcome}`);
}

/** Retires `worker`: it takes no new connection and answers what it has, then exits. */
export async function retireGateway(worker: Worker): Promise<void> {
  if (worker.isDead()) return;
  const gone = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.send(RETIRE_MESSAGE);
  const limit = setTimeout(() => worker.process.kill('SIGKILL'), RETIRE_LIMIT_MS);
  await gone;
  clearTimeout(limit);
}

/** Stops `worker` as SIGTERM does in production (requests in flight answered), settling once it has exited. */
export async function stopGateway(worker: Worker): Promise<void> {
  if (worker.isDead()) return;
  const gone = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.process.kill('SIGTERM');
  await gone;
}
