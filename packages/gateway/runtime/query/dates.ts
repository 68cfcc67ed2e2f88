/**
 * @module Date filter values (decision D15) to the ERP's own formats, so that a bound means what the
 * client sees. The ERP keeps fractions of a second in datetime columns (Odoo 17–19: `create_date`,
 * `write_date`, anything written from Python's `datetime.now()`), but answers them cut to the second;
 * a client sees `15:07:36` for `15:07:36.25`. So a datetime bound is sent as the condition on the
 * stored value that holds exactly when it holds on the value the client sees:
 * - `*_before=t` (`<=` in the catalogue): shown `<= t` ⟺ stored `< ⌊t⌋ + 1 s`; a date-only `t`
 *   covers the whole day (D15): stored `<` the next day's 00:00:00Z.
 * - `*_after=t` (`>=`): shown `>= t` ⟺ stored `>= ⌈t⌉`; a date-only `t`: from its 00:00:00Z.
 * Date-times may carry `Z` or an offset and are converted to UTC; without one they are read as UTC.
 * The gateway always sends a full `YYYY-MM-DD HH:MM:SS` to a datetime field, so every Odoo version
 * reads it the same way (17/18 pad date-only values in UTC, 19 in the user's time zone), and `<`
 * of a whole second is the same condition on 17, 18 and 19 (19 rewrites `<=` into it by itself).
 */

const PARTS = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?([Zz]|([+-])(\d{2}):?(\d{2})?)?)?$/;

export interface ParsedDate {
  /** The instant in UTC, to the second (for date-only values, midnight UTC). */
  readonly utc: Date;
  readonly dateOnly: boolean;
  /** The value had a non-zero fraction of a second (dropped from `utc`). */
  readonly fraction: boolean;
}

/** Parses a date or date-time; `undefined` when malformed or not a calendar date (2026-02-30). */
export function parseDateValue(text: string): ParsedDate | undefined {
  const m = PARTS.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const local = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // Date.UTC maps years 0–99 to 1900–1999: set the year itself.
  local.setUTCFullYear(year);
  if (local.getUTCDate() !== day || local.getUTCMonth() !== month - 1) return undefined;
  let offsetMinutes = 0;
  if (m[9]) {
    const hours = Number(m[10]);
    const minutes = Number(m[11] ?? 0);
    if (hours > 23 || minutes > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  return { utc: new Date(local.getTime() - offsetMinutes * 60000), dateOnly: m[4] === undefined, fraction: /[1-9]/.test(m[7] ?? '') };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const datePart = (d: Date) => `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const timePart = (d: Date) => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

/** The earliest and latest datetimes the ERP can hold (Python's `datetime`): bounds past them are settled here. */
const ERP_MIN = '0001-01-01 00:00:00';
const ERP_MAX_YEAR = 9999;

/** A condition on an ERP datetime field: the operator and the value it is compared with. */
export interface DatetimeCondition {
  readonly op: '>=' | '<';
  readonly value: string;
}

/**
 * The condition on the stored datetime for a bound on what the client sees: `>=` (from, `*_after`)
 * or `<=` (through, `*_before`). See the module comment.
 */
export function erpDatetimeCondition(value: ParsedDate, bound: '>=' | '<='): DatetimeCondition {
  const second = value.utc.getTime();
  const step = value.dateOnly ? 86_400_000 : 1000;
  // From: the first instant shown at or after the value (its own second, or the next one when it
  // has a fraction). Through: the first instant shown after it (the next second, or the next day).
  const edge = new Date(bound === '>=' ? (value.fraction ? second + 1000 : second) : second + step);
  if (edge.getUTCFullYear() > ERP_MAX_YEAR) {
    // Past the last datetime the ERP holds: "through" covers every set value, "from" none.
    return bound === '<=' ? { op: '>=', value: ERP_MIN } : { op: '<', value: ERP_MIN };
  }
  return { op: bound === '>=' ? '>=' : '<', value: `${datePart(edge)} ${timePart(edge)}` };
}

/** The value to compare an ERP date field with: the UTC calendar date. */
export function erpDate(value: ParsedDate): string {
  return datePart(value.utc);
}
