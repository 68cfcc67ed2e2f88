/**
 * @module What the ERP client tells the outside about its calls (metrics, traces), and how the trace
 * context of a call reaches the wire. The ERP layer knows neither Prometheus nor OpenTelemetry: it
 * calls this interface, which runtime/telemetry implements. Without an observer nothing is counted
 * and nothing is added to the wire.
 */
import type { TransportName } from '../config';
import { ErpFault, ErpTimeout, ErpUnavailable, type ErpFaultKind } from './erp-error';

/** What a call came to, as a bounded label: `ok`, the fault's kind, `timeout`, `unavailable` or `refused` (by the gateway itself: memory budget, queue full). */
export type ErpCallOutcome = 'ok' | ErpFaultKind | 'timeout' | 'unavailable' | 'refused';

/** What a call is, for metrics and spans: the model and method (never the ids or arguments). */
export interface ErpCallName {
  readonly model: string;
  readonly method: string;
}

export interface SentErpCall {
  /** Headers to send with the call (`X-Request-Id`, `traceparent`...). */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** The call is over: `seconds` from the moment it held an ERP slot. */
  done(outcome: ErpCallOutcome, seconds: number): void;
}

export interface ErpObserver {
  /** A call holds an ERP slot and is about to be sent. */
  sending(name: ErpCallName, transport: TransportName): SentErpCall;
  /** A request took its answer from an identical call in flight (coalesce.ts) instead of sending one. */
  coalesced(): void;
  /** A call was refused at once: ERP_MAX_QUEUE calls were already waiting for a slot (503). */
  queueFull(): void;
  /** The ERP transport and version, once the first call has found them. */
  connected(transport: TransportName, version: string): void;
}

export function outcomeOf(error: unknown): ErpCallOutcome {
  if (error instanceof ErpFault) return error.kind;
  if (error instanceof ErpTimeout) return 'timeout';
  if (error instanceof ErpUnavailable) return 'unavailable';
  return 'refused';
}

/**
 * The headers of the call a deadline signal belongs to (one signal per call), read by http-post.ts:
 * the way the memory lease travels too (admission/memory-budget.ts), so no transport signature carries them.
 */
const headersByCall = new WeakMap<AbortSignal, Readonly<Record<string, string>>>();

export function bindCallHeaders(deadline: AbortSignal, headers: Readonly<Record<string, string>>): void {
  headersByCall.set(deadline, headers);
}

export function callHeadersOf(deadline: AbortSignal): Readonly<Record<string, string>> | undefined {
  return headersByCall.get(deadline);
}
