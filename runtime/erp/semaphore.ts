/**
 * @module A counting semaphore with a bounded wait queue: past the queue, callers are refused at
 * once (503 `unavailable` with Retry-After) instead of piling work onto the ERP.
 */
import { GatewayError } from '../errors';

export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number, private readonly maxQueue: number) {}

  async acquire(): Promise<() => void> {
    if (this.active < this.max) {
      this.active++;
      return this.releaser();
    }
    if (this.waiting.length >= this.maxQueue)
      throw new GatewayError('unavailable', 'The ERP is busy: too many requests in flight. Retry shortly.', { headers: { 'Retry-After': '1' } });
    await new Promise<void>((resolve) => this.waiting.push(resolve));
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
