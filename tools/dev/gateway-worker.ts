/**
 * @module The gateway of `make run` and `make dev`: a cluster worker of the launcher's process,
 * running a gateway bundle exactly as production runs it (the same main.ts, as a worker of WORKERS=1).
 * The launcher holds the port (node:cluster's primary accepts and hands connections on), so that a new
 * worker can be started beside the old one and the old one retired once the new one listens, as a
 * production reload does (runtime/cluster-primary.ts): the port never stops answering.
 *
 * Each worker is started ahead as a spare (dev-worker.ts: Node up, the dependencies loaded) and told
 * its bundle when the bundle is ready.
 */
import cluster, { type Worker } from 'node:cluster';
import { join } from 'node:path';
import { RETIRE_MESSAGE, readiness } from '@ops-data-gateway/gateway/runtime/cluster-primary';
import { answerWorkersLeaving } from '@ops-data-gateway/gateway/runtime/server/leave-cluster';

/** How long a new gateway has to listen before it is given up on. */
const READY_LIMIT_MS = 30000;
/** How long a retired gateway has to finish its requests (its idle kept-alive connections close within 5 s). */
const RETIRE_LIMIT_MS = 15000;
/** The V8 flags of docs/production.md "Running in production": a small young generation keeps RSS flat. */
const EXEC_ARGV = ['--max-semi-space-size=4', '--max-old-space-size=256'];
/** Bundled with the launcher (scripts/bundle-tools.mjs: dist/run/dev/dev-worker.js). */
const ENTRY = join(__dirname, 'dev', 'dev-worker.js');

export class Gateways {
  private spare: Worker | undefined;

  constructor(private readonly env: Readonly<Record<string, string>>) {
    answerWorkersLeaving();
  }

  /** Starts the next gateway's process ahead, loading the modules `previousBundle` requires. */
  prepare(previousBundle: string | undefined): void {
    if (this.spare && !this.spare.isDead()) return;
    cluster.setupPrimary({ exec: ENTRY, execArgv: EXEC_ARGV });
    this.spare = cluster.fork({ ...this.env, WORKERS: '1', ...(previousBundle ? { DEV_GATEWAY_PRELOAD_FROM: previousBundle } : {}) });
  }

  /** Runs `bundle` in the spare (started now if there is none) and settles once it listens; rejects with why not. */
  async start(bundle: string): Promise<Worker> {
    this.prepare(undefined);
    const worker = this.spare as Worker;
    this.spare = undefined;
    const ready = readiness(worker, READY_LIMIT_MS, Number(this.env['PORT']) || undefined);
    worker.send({ bundle });
    const outcome = await ready;
    if (outcome === 'listening') return worker;
    if (!worker.isDead()) worker.process.kill('SIGKILL');
    throw new Error(`the new gateway ${outcome}`);
  }

  /** Stops the spare, if any. */
  dispose(): void {
    if (this.spare && !this.spare.isDead()) this.spare.process.kill('SIGKILL');
    this.spare = undefined;
  }
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
