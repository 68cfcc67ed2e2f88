/**
 * @module Request coalescing: identical ERP reads in flight for the same ERP account are sent once,
 * and what comes back (answer or error) goes to every request waiting for it. Nothing is remembered:
 * a call is shared only while it is in flight, so no answer is older than one read alone would be,
 * and the next request after it asks the ERP again. A dashboard of 64 tiles asking for the same page
 * at once costs the ERP one call instead of 64.
 *
 * Identical means the same uid (the ERP account the key resolves to: what the ERP answers depends on
 * the account's rights, never on which of its keys is used, so the map is never keyed by a key) and
 * the same model, method, ids and named arguments, compared as canonical JSON. The call is sent with
 * the credentials of the request that started it, one of those waiting.
 *
 * Each waiter keeps its own deadline: when it passes, that waiter gets ErpTimeout and the others go
 * on waiting. The call itself lives as long as someone waits for it, and is abandoned (its signal
 * aborted) when the last waiter leaves, so it never outlives the latest waiter's deadline.
 *
 * Memory budget (admission/memory-budget.ts): the shared answer is charged once, as it streams in, to a lease
 * of its own (forked from the starting request's), charged as any answer is (three copies: its text,
 * its parsed records and one answer written). Every waiter keeps that lease until its request has
 * answered, because every waiter holds the parsed records until then; so the lease is given back with
 * the last of them, even when the request that started the call has long answered. Each waiter beyond
 * the first is charged one more copy of the answer's size, for the records it maps and the answer it
 * writes. This is what the answers really hold, and never more than the same requests would be charged
 * without coalescing (three copies each).
 */
import { bindLease, type BudgetLease } from '../admission/memory-budget';
import { ErpTimeout } from './erp-error';
import type { ErpCall } from './transport';

/** What a call came to, as a value: every waiter gets the same one. */
type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

interface Waiter<S> {
  /** Who would send the call if this waiter starts it (its credentials). */
  readonly sender: S;
  /** This waiter's own deadline: it stops waiting when it fires. */
  readonly deadline: AbortSignal;
  /** This waiter's share of the memory budget, if it has one. */
  readonly lease: BudgetLease | undefined;
}

interface Shared<S> {
  readonly outcome: Outcome;
  /** This waiter started the call (its credentials were sent); false when it took another's. */
  readonly started: boolean;
  /** Whose credentials the call was sent with. */
  readonly sender: S;
  /** Bytes of the answer as the ERP sent it (0 when the call's starter had no lease to charge it to). */
  readonly answerBytes: number;
}

interface Flight<S> {
  readonly sender: S;
  readonly controller: AbortController;
  readonly lease: BudgetLease | undefined;
  readonly outcome: Promise<Outcome>;
  waiters: number;
  settled: boolean;
}

/** The key of a call: the account and the call, as JSON with object keys sorted. */
export function flightKey(uid: number, call: ErpCall): string {
  return canonicalJson([uid, call.model, call.method, call.ids, call.kwargs]);
}

/** JSON with object keys sorted and undefined members left out: equal values give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}

export class Coalescer<S> {
  private readonly flights = new Map<string, Flight<S>>();

  /**
   * Waits for the call `key` names: the one in flight if there is one, else one started with `send`
   * (given the call's own signal, its deadline and memory lease bound to it).
   */
  async join(key: string, waiter: Waiter<S>, send: (signal: AbortSignal) => Promise<unknown>): Promise<Shared<S>> {
    const found = this.flights.get(key);
    const flight = found ?? this.start(key, waiter, send);
    if (found && flight.lease) waiter.lease?.keep(flight.lease);
    flight.waiters++;
    try {
      const outcome = await waitFor(flight.outcome, waiter.deadline);
      return { outcome, started: !found, sender: flight.sender, answerBytes: flight.lease?.answerBytes ?? 0 };
    } finally {
      if (--flight.waiters === 0 && !flight.settled) {
        // Nobody waits any more: the answer would be read for no one.
        this.forget(key, flight);
        flight.controller.abort();
      }
    }
  }

  private start(key: string, waiter: Waiter<S>, send: (signal: AbortSignal) => Promise<unknown>): Flight<S> {
    const controller = new AbortController();
    const lease = waiter.lease?.fork();
    // The call's own hold on its lease, until it is settled; the waiters' holds then keep it.
    const letGo = lease?.retain();
    if (lease) {
      waiter.lease?.keep(lease);
      bindLease(controller.signal, lease);
    }
    // Settled from then-callbacks, which run once `flight` below is assigned.
    const outcome = send(controller.signal).then(
      (value): Outcome => this.settle(key, flight, { ok: true, value }, letGo),
      (error: unknown): Outcome => this.settle(key, flight, { ok: false, error }, letGo),
    );
    const flight: Flight<S> = { sender: waiter.sender, controller, lease, outcome, waiters: 0, settled: false };
    this.flights.set(key, flight);
    return flight;
  }

  private settle(key: string, flight: Flight<S>, outcome: Outcome, letGo: (() => void) | undefined): Outcome {
    flight.settled = true;
    this.forget(key, flight);
    letGo?.();
    return outcome;
  }

  private forget(key: string, flight: Flight<S>): void {
    if (this.flights.get(key) === flight) this.flights.delete(key);
  }
}

/** The call's outcome, or a timeout when this waiter's deadline comes first. */
function waitFor(outcome: Promise<Outcome>, deadline: AbortSignal): Promise<Outcome> {
  const timedOut = (): Outcome => ({ ok: false, error: new ErpTimeout('the ERP did not answer in time') });
  if (deadline.aborted) return Promise.resolve(timedOut());
  return new Promise((resolve) => {
    const leave = () => resolve(timedOut());
    deadline.addEventListener('abort', leave, { once: true });
    void outcome.then((settled) => {
      deadline.removeEventListener('abort', leave);
      resolve(settled);
    });
  });
}
