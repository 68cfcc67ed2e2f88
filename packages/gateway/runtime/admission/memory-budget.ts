/**
 * @module The memory budget of ERP answers in flight, in bytes. A 256 MB heap holds only so many
 * large answers at once: each byte an ERP answer brings is held about three times while a request
 * is served (the text, the parsed records, the answer written), so 16 concurrent 10 MB pages end the
 * process however few calls are in flight. Every request takes a lease; each chunk of an ERP answer
 * is charged to it as it arrives, and past the budget the request fails with 503 `unavailable` and
 * Retry-After instead of the process failing for everyone. The lease is given back when the request
 * has answered. The in-memory response cache (runtime/cache/memory-store.ts) is charged to the same
 * budget, once per byte it holds (body, ETag, headers, key, bookkeeping), from the moment an answer
 * is stored until it is evicted, replaced or expires: at most CACHE_MAX_BYTES (config.ts keeps that
 * at most half the budget), and an answer that does not fit is not stored.
 *
 * An MCP request (`POST /mcp`) holds a lease of its own for its tool answers: they are GETs of the
 * data routes, each charged like any other while it is served, then held by the MCP request until
 * its batch is answered (`chargeHeld`).
 *
 * An answer several requests share (coalesce.ts) is charged once, to a lease of its own that each of
 * those requests keeps until it has answered; each request beyond the first is charged the one copy
 * it makes of it (see `keep` and `chargeCopy`).
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

/**
 * What one request (or one shared answer) holds of the budget; `release` gives it all back
 * (idempotent). A released lease takes no more: an ERP answer still arriving for a request that has
 * answered is dropped rather than charged to a lease nobody will give back.
 */
export class BudgetLease {
  private held = 0;
  private bytes = 0;
  private released = false;
  /** How to let go of the shared leases this one keeps alive; how many keep this one alive. */
  private kept: (() => void)[] = [];
  private keepers = 0;

  constructor(private readonly budget: MemoryBudget) {}

  /** Bytes of ERP answers charged so far (before the copies are counted). */
  get answerBytes(): number {
    return this.bytes;
  }

  /** Charges `bytes` of an ERP answer (times HELD_COPIES); throws 503 past the budget. */
  charge(bytes: number): void {
    this.take(bytes * HELD_COPIES);
    this.bytes += bytes;
  }

  /**
   * Charges one copy of `bytes` of an answer charged in full elsewhere (a shared answer): what a
   * request that reads it makes of its own, the records mapped and the answer written.
   */
  chargeCopy(bytes: number): void {
    this.take(bytes);
  }

  /**
   * Charges `copies` copies of `bytes` held by the request itself, not by its ERP calls: an MCP
   * request's tool answers, held until its last one is written (mcp/mcp-endpoint.ts).
   */
  chargeHeld(bytes: number, copies: number): void {
    this.take(bytes * copies);
  }

  /** A new lease on the same budget, for an answer several requests share. */
  fork(): BudgetLease {
    return new BudgetLease(this.budget);
  }

  /** One more holder of this lease; it is released when the last holder lets go (the function returned, idempotent). */
  retain(): () => void {
    this.keepers++;
    let dropped = false;
    return () => {
      if (dropped) return;
      dropped = true;
      if (--this.keepers === 0) this.release();
    };
  }

  /** Keeps `shared` until this lease is released. */
  keep(shared: BudgetLease): void {
    this.kept.push(shared.retain());
  }

  release(): void {
    this.budget.give(this.held);
    this.held = 0;
    this.released = true;
    const kept = this.kept;
    this.kept = [];
    for (const letGo of kept) letGo();
  }

  private take(cost: number): void {
    if (this.released) throw new GatewayError('unavailable', 'The request this ERP answer was read for has already been answered.');
    if (!this.budget.tryTake(cost)) {
      throw new GatewayError('unavailable', 'The gateway is holding as many ERP answers as its memory allows. Retry shortly.', {
        headers: { 'Retry-After': '1' },
      });
    }
    this.held += cost;
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
