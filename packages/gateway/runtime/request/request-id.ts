/**
 * @module Request correlation: the request id (`X-Request-Id`) and the W3C trace context
 * (`traceparent`, `tracestate`). A client's id is taken when it is a safe token (1 to 128 characters
 * of letters, digits and `_ . : + / = -`: nothing that could break a log line or a header); anything
 * else, or none, gets a new UUID. The id is echoed on every answer, errors and 405 included, and
 * written in every log line of the request. A `traceparent` is taken when it is well formed
 * (https://www.w3.org/TR/trace-context/#traceparent-header) and passed on to the ERP; a malformed
 * one is ignored, as the recommendation says.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { TraceContext } from './request-context';

const SAFE_ID = /^[A-Za-z0-9_.:+/=-]{1,128}$/;

export function requestIdOf(headers: IncomingHttpHeaders): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
}

/** Version 00 exactly; a later version may append fields, which are ignored (§ 3.2.4 of the recommendation). */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_PARENT = '0'.repeat(16);
/** `tracestate` holds at most 32 members of at most 256 characters; past 512 it is dropped, not cut. */
const MAX_TRACESTATE = 512;

export function traceContextOf(headers: IncomingHttpHeaders): TraceContext | undefined {
  const header = headers.traceparent;
  if (typeof header !== 'string') return undefined;
  const match = TRACEPARENT.exec(header.trim());
  if (!match) return undefined;
  const [, version, traceId, parentId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff' || (version === '00' && rest !== undefined) || traceId === ZERO_TRACE || parentId === ZERO_PARENT) return undefined;
  const state = headers.tracestate;
  const tracestate = typeof state === 'string' && state.length <= MAX_TRACESTATE && /^[\x20-\x7e]*$/.test(state) ? state : undefined;
  return { traceId, parentId, flags, state: tracestate };
}

export function traceparentOf(trace: TraceContext): string {
  return `00-${trace.traceId}-${trace.parentId}-${trace.flags}`;
}
