/**
 * @module The `changed_since` parameter and the token the change feed gives back. The client starts
 * from an ISO 8601 date-time; the gateway answers `meta.next_changed_since`, a token holding where
 * the feed stopped: a second of `write_date` and the last id served within that second. The ERP
 * answers `write_date` in whole seconds, so a second and an id are what tells apart records written
 * in the same second. The token is opaque to clients (its form may change; `v1.` says which form).
 */
import { invalidValue } from '../errors';
import { parseDateValue } from './dates';

/** Where a change feed stands: every record of earlier seconds, and of `second` up to `afterId`, was served. */
export interface ChangeCursor {
  /** A second of `write_date`, in seconds since the epoch (UTC). */
  readonly second: number;
  /** The last id served within `second`; 0 when none was. */
  readonly afterId: number;
}

const TOKEN = /^v1\.([A-Za-z0-9_-]{1,64})$/;
const TOKEN_BODY = /^([0-9]{1,12}):([0-9]{1,10})$/;
const INT32_MAX = 2147483647;

export function changeToken(cursor: ChangeCursor): string {
  return `v1.${Buffer.from(`${cursor.second}:${cursor.afterId}`, 'utf8').toString('base64url')}`;
}

/** A date-time (records written at or after its second) or a token the gateway gave; else 422. */
export function parseChangedSince(text: string): ChangeCursor {
  const token = TOKEN.exec(text);
  if (token) {
    const body = TOKEN_BODY.exec(Buffer.from(token[1] as string, 'base64url').toString('utf8'));
    if (body && Number(body[2]) <= INT32_MAX) return { second: Number(body[1]), afterId: Number(body[2]) };
    throw invalidValue('changed_since: this token was not given by the gateway (pass back meta.next_changed_since unchanged).');
  }
  const date = parseDateValue(text);
  // The ERP keeps whole seconds: a fraction cannot be compared, so its whole second is included.
  if (date) return { second: Math.floor(date.utc.getTime() / 1000), afterId: 0 };
  throw invalidValue(`changed_since must be an ISO 8601 date-time (2026-01-31T08:00:00Z) or the token meta.next_changed_since gave; '${text.slice(0, 64)}' is neither.`);
}

/** A second as the ERP compares datetimes: `YYYY-MM-DD HH:MM:SS`, UTC. */
export function erpSecond(second: number): string {
  return new Date(second * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** The second of an ERP datetime text (`YYYY-MM-DD HH:MM:SS`, UTC; a fraction, if any, dropped); undefined if it is not one. */
export function secondOf(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/.test(value)) return undefined;
  const ms = Date.parse(`${value.slice(0, 10)}T${value.slice(11, 19)}Z`);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}
