/**
 * @module A cluster worker leaving without losing a connection handed to it.
 *
 * With node:cluster's round-robin scheduling the primary accepts each connection and sends it to a
 * worker, keeping its own copy until the worker answers "accepted" (then it closes its copy) or "not
 * accepted" (then it sends it to another worker). A worker that closes its server tells the primary so,
 * but a connection the primary sent before it read that message is still on its way; if the worker
 * exits before reading it, it never answers, and the primary holds the connection open for good: the
 * client waits for an answer that never comes. Measured with a bare cluster (30 retirements under 8
 * clients without keep-alive): 7–8 requests lost and 6–7 reset per run; 0 and 0 with this.
 *
 * So a worker whose server has closed asks the primary for a word back before it exits. Messages
 * between them keep their order: when the primary reads the question it has read the worker's
 * "closed" and sends it nothing more, and every connection it sent before its answer reaches the
 * worker first, which refuses it (its server is closed) and so hands it back. The worker exits once
 * its own last message is written, so those refusals are not lost either.
 */
import cluster from 'node:cluster';

const QUESTION = 'ops-data-gateway:server-closed';
const ANSWER = 'ops-data-gateway:nothing-more-on-its-way';
/** A primary that does not answer (not ours) is waited for this long at most. */
const ANSWER_LIMIT_MS = 2000;

let answering = false;

/** In the primary: answers every worker leaving (runtime/cluster-primary.ts and `make dev`'s launcher). */
export function answerWorkersLeaving(): void {
  if (answering) return;
  answering = true;
  cluster.on('message', (worker, message) => {
    if (message === QUESTION && !worker.isDead()) worker.send(ANSWER);
  });
}

/**
 * In a worker whose servers have closed: settles once the primary will send it no more connections
 * and those it sent have been handed back (at once outside a cluster).
 */
export function leaveRoundRobin(): Promise<void> {
  if (!cluster.isWorker || !process.send || !process.connected) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      process.off('message', onMessage);
      resolve();
    };
    const onMessage = (message: unknown) => {
      if (message === ANSWER) done();
    };
    const timer = setTimeout(done, ANSWER_LIMIT_MS);
    process.on('message', onMessage);
    process.send?.(QUESTION);
  });
}

/** Exits with `code` once what this process sent its primary is written (at once outside a cluster). */
export function exitAfterLastMessage(code: number): void {
  if (!cluster.isWorker || !process.send || !process.connected) process.exit(code);
  const fallback = setTimeout(() => process.exit(code), ANSWER_LIMIT_MS);
  // An empty message: its callback runs once it and everything before it are written.
  process.send?.('ops-data-gateway:bye', () => {
    clearTimeout(fallback);
    process.exit(code);
  });
}
