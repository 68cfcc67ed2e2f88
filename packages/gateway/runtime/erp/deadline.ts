/**
 * @module The deadline of one ERP call, let go of as soon as the call is over. `AbortSignal.timeout`
 * cannot be cleared: its timer, and the signal with its listeners, live for the whole timeout (10 s
 * by default) after a call of a few milliseconds, so at thousands of calls per second tens of
 * thousands of them are alive at once (seen as 8 MB of RSS growth in the load test once coalesced
 * requests made it faster than the timeout).
 */
export interface Deadline {
  readonly signal: AbortSignal;
  /** The call is over: drop the timer. */
  clear(): void;
}

export function deadlineAfter(ms: number): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), ms);
  timer.unref();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}
