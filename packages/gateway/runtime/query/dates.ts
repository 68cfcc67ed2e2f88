/**
 * @module Date filter values (decision D15) to the ERP's own formats. A date-only value on a datetime
 * field covers the whole day: `*_after` from 00:00:00Z, `*_before` through 23:59:59Z. Date-times may
 * carry `Z` or an offset and are converted to UTC; without one they are read as UTC. The gateway
 * always sends a full `YYYY-MM-DD HH:MM:SS` to a datetime field, so every Odoo version reads it the
 * same way (17/18 pad date-only values in UTC, 19 in the user's time zone).
 */

const PARTS = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?([Zz]|([+-])(\d{2}):?(\d{2})?)?)?$/;

export interface ParsedDate {
  /** The instant in UTC (for date-only values, midnight UTC). */
  readonly utc: Date;
  readonly dateOnly: boolean;
}

/** Parses a date or date-time; `undefined` when malformed or not a calendar date (2026-02-30). */
export function parseDateValue(text: string): ParsedDate | undefined {
  const m = PARTS.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const local = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (local.getUTCDate() !== day || local.getUTCMonth() !== month - 1) return undefined;
  let offsetMinutes = 0;
  if (m[8]) {
    const hours = Number(m[9]);
    const minutes = Number(m[10] ?? 0);
    if (hours > 23 || minutes > 59) return undefined;
    offsetMinutes = (m[8] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  return { utc: new Date(local.getTime() - offsetMinutes * 60000), dateOnly: m[4] === undefined };
}

const pad = (n: number) => String(n).padStart(2, '0');
const datePart = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const timePart = (d: Date) => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

/** The value to compare an ERP datetime field with, for `>=` (from) or `<=` (through). */
export function erpDatetimeBound(value: ParsedDate, op: '>=' | '<='): string {
  if (value.dateOnly) return `${datePart(value.utc)} ${op === '>=' ? '00:00:00' : '23:59:59'}`;
  return `${datePart(value.utc)} ${timePart(value.utc)}`;
}

/** The value to compare an ERP date field with: the UTC calendar date. */
export function erpDate(value: ParsedDate): string {
  return datePart(value.utc);
}
