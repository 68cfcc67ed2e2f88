/**
 * @module The memory budget of ERP answers in flight, in bytes. A 256 MB heap holds only so many
 * large answers at once: each byte an ERP answer brings is held about three times while a request
 * is served (the text, the parsed records, the answer written), so 16 concurrent 10 MB pages end the
 * process however few calls are in flight. Every request takes a lease; each chunk of an ERP answer
 * is charged to it as it arrives, and past the budget the request fails with 503 `unavailable` and
 * Retry-After instead of the process failing for everyone. The lease is given back when the request
 * has answered. A later response cache is charged to the same budget.
 */
import { GatewayError } from '../errors';

/** How many times a byte of an ERP answer is held while its request is served (text, parsed, written). */
const HELD_COPIES = 3;

export class MemoryBudget {
  private used = 0;

  constructor(readonly limitBytes: number) {}

  /** Bytes held right now. */
  get inUse(): number {
    return this.used;
  }

  /** Takes `bytes` if they fit; false (nothing taken) when they do not. */
  tryTake(bytes: number): boolean {
    if (this.used + bytes > this.limitBytes) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }

  lease(): BudgetLease {
    return new BudgetLease(this);
  }
}

/** What one request holds of the budget; `release` gives it all back (idempotent). */
export class BudgetLease {
  private held = 0;

  constructor(private readonly budget: MemoryBudget) {}

  /** Charges `bytes` of an ERP answer (times HELD_COPIES); throws 503 past the budget. */
  charge(bytes: number): void {
    const cost = bytes * HELD_COPIES;
    if (!this.budget.tryTake(cost)) {
      throw new GatewayError('unavailable', 'The gateway is holding as many ERP answers as its memory allows. Retry shortly.', {
        headers: { 'Retry-After': '1' },
      });
    }
    this.held += cost;
  }

  release(): void {
    this.budget.give(this.held);
    this.held = 0;
  }
}

/**
 * The lease of the request an ERP call belongs to, found by the call's deadline signal (one per
 * call): the HTTP layer charges the answer's bytes without every transport signature carrying it.
 */
const leases = new WeakMap<AbortSignal, BudgetLease>();

export function bindLease(deadline: AbortSignal, lease: BudgetLease): void {
  leases.set(deadline, lease);
}

export function leaseOf(deadline: AbortSignal): BudgetLease | undefined {
  return leases.get(deadline);
}
