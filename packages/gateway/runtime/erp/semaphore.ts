/**
 * @module A counting semaphore with a bounded wait queue: past the queue, callers are refused at
 * once (`ErpBusy`, answered 503 `unavailable` with Retry-After) instead of piling work onto the ERP.
 */
import { ErpBusy } from './erp-error';

export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly max: number,
    private readonly maxQueue: number,
  ) {}

  /** Calls holding a slot now. */
  get inFlight(): number {
    return this.active;
  }

  /** Calls waiting for a slot now. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves with a release function; rejects with `onAbort()` if `signal` fires while waiting. */
  async acquire(signal?: AbortSignal, onAbort: () => Error = () => new Error('aborted')): Promise<() => void> {
    if (this.active < this.max) {
      this.active++;
      return this.releaser();
    }
    if (this.waiting.length >= this.maxQueue) throw new ErpBusy(`${this.max} ERP calls in flight and ${this.maxQueue} waiting`);
    await new Promise<void>((resolve, reject) => {
      const wake = () => {
        signal?.removeEventListener('abort', giveUp);
        resolve();
      };
      // A waiter whose deadline passes leaves the queue: its slot would be wasted on an answer nobody reads.
      const giveUp = () => {
        const index = this.waiting.indexOf(wake);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(onAbort());
      };
      if (signal?.aborted) return giveUp();
      signal?.addEventListener('abort', giveUp, { once: true });
      this.waiting.push(wake);
    });
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }
}
