/**
 * @module Dates and datetimes as the store keeps them (`YYYY-MM-DD`, `YYYY-MM-DD HH:MM:SS` UTC):
 * parsing with the error wording of each Odoo version, time zone conversion through `Intl`
 * (no dependency), and 19's relative date strings (`today`, `now -1d`, `=1d +1m`...).
 */
import { pyRepr } from './python';
import { valueError } from './errors';

/** A naive timestamp split in fields (UTC unless said otherwise). */
export interface Naive {
  readonly y: number;
  readonly mo: number;
  readonly d: number;
  readonly h: number;
  readonly mi: number;
  readonly s: number;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function formatDate(t: Naive): string {
  return `${pad(t.y, 4)}-${pad(t.mo)}-${pad(t.d)}`;
}

export function formatDatetime(t: Naive): string {
  return `${formatDate(t)} ${pad(t.h)}:${pad(t.mi)}:${pad(t.s)}`;
}

export function fromDate(date: Date): Naive {
  return {
    y: date.getUTCFullYear(),
    mo: date.getUTCMonth() + 1,
    d: date.getUTCDate(),
    h: date.getUTCHours(),
    mi: date.getUTCMinutes(),
    s: date.getUTCSeconds(),
  };
}

function toEpoch(t: Naive): number {
  return Date.UTC(t.y, t.mo - 1, t.d, t.h, t.mi, t.s);
}

/** Adds seconds, days, months or years with calendar rules (months clamp the day, like relativedelta). */
export function shift(t: Naive, amount: number, unit: 'y' | 'm' | 'w' | 'd' | 'H' | 'M' | 'S'): Naive {
  if (unit === 'y' || unit === 'm') {
    const months = t.y * 12 + (t.mo - 1) + (unit === 'y' ? amount * 12 : amount);
    const y = Math.floor(months / 12);
    const mo = (((months % 12) + 12) % 12) + 1;
    const last = new Date(Date.UTC(y, mo, 0)).getUTCDate();
    return { ...t, y, mo, d: Math.min(t.d, last) };
  }
  const seconds = { w: 604800, d: 86400, H: 3600, M: 60, S: 1 }[unit];
  return fromDate(new Date(toEpoch(t) + amount * seconds * 1000));
}

function isValid(t: Naive): boolean {
  const back = fromDate(new Date(toEpoch(t)));
  return back.y === t.y && back.mo === t.mo && back.d === t.d && t.h < 24 && t.mi < 60 && t.s < 60;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_17_RE = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2})(?::(\d{2})(?::(\d{2}))?)?)?$/;

/** 17/18 `Date.to_date`: the first 10 characters as `%Y-%m-%d`. */
export function parseDate17(value: string): string {
  const m = DATE_RE.exec(value.slice(0, 10));
  const t = m && { y: +m[1]!, mo: +m[2]!, d: +m[3]!, h: 0, mi: 0, s: 0 };
  if (!t || !isValid(t)) throw valueError(`time data ${pyRepr(value.slice(0, 10))} does not match format '%Y-%m-%d'`);
  return formatDate(t);
}

/** 17/18 `Datetime.to_datetime`: `%Y-%m-%d %H:%M:%S` or a prefix of it, stored whole. */
export function parseDatetime17(value: string): string {
  const m = DATETIME_17_RE.exec(value);
  const t = m && { y: +m[1]!, mo: +m[2]!, d: +m[3]!, h: +(m[4] ?? 0), mi: +(m[5] ?? 0), s: +(m[6] ?? 0) };
  if (!t || !isValid(t)) {
    throw valueError(`time data ${pyRepr(value)} does not match format '%Y-%m-%d %H:%M:%S'`);
  }
  return formatDatetime(t);
}

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d{1,6}))?)?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * 19 `parse_iso_date`: up to 10 characters is a date, longer is a naive datetime (Python's
 * `fromisoformat`); a zone suffix is refused.
 */
function parseIso19(value: string): { value: Naive; isDate: boolean } {
  const m = ISO_RE.exec(value);
  const isDate = value.length <= 10;
  if (!m || (isDate && m[4] !== undefined)) throw valueError(`Invalid isoformat string: ${pyRepr(value)}`);
  const t: Naive = { y: +m[1]!, mo: +m[2]!, d: +m[3]!, h: +(m[4] ?? 0), mi: +(m[5] ?? 0), s: +(m[6] ?? 0) };
  if (!isValid(t)) throw valueError(`Invalid isoformat string: ${pyRepr(value)}`);
  if (m[8] !== undefined) throw valueError(`expecting only datetimes with no timezone: ${pyRepr(value)}`);
  return { value: t, isDate };
}

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/**
 * 19 `parse_date`: ISO strings, else a relative expression starting from now (or today) in the
 * user's time zone: `today -1m =1d`, `now +3H`, `=monday`, `+friday`, `=week_start`.
 * Relative results are local; `isDate` tells a date from a datetime.
 */
export function parseDate19(value: string, now: Date, tz: string): { value: Naive; isDate: boolean; local: boolean } {
  if (/^\d+-/.test(value)) return { ...parseIso19(value), local: false };
  const terms = value.split(/\s+/).filter(Boolean);
  if (!terms.length) throw valueError('Empty date value');
  const start = terms[0] === 'today' || terms[0] === 'now' ? terms.shift()! : 'now';
  let t = utcToLocal(fromDate(now), tz);
  const isDate = start === 'today';
  if (isDate) t = { ...t, h: 0, mi: 0, s: 0 };
  for (const term of terms) {
    const op = term[0];
    if ((op !== '+' && op !== '-' && op !== '=') || term.length < 3) {
      throw valueError(`Invalid term ${pyRepr(term)} in expression date: ${pyRepr(value)}`);
    }
    const name = term.slice(1);
    const weekday = name === 'week_start' ? 0 : WEEKDAYS.indexOf(name);
    if (weekday >= 0) {
      const current = (new Date(toEpoch(t)).getUTCDay() + 6) % 7;
      let delta = weekday - current;
      if (op === '+' && delta < 0) delta += 7;
      if (op === '-' && delta > 0) delta -= 7;
      t = { ...shift(t, delta, 'd'), h: 0, mi: 0, s: 0 };
      continue;
    }
    const m = /^(\d+)([dwmyHMS])$/.exec(name);
    if (!m) throw valueError(`Invalid term ${pyRepr(term)} in expression date: ${pyRepr(value)}`);
    const n = +m[1]!;
    const unit = m[2] as 'y' | 'm' | 'w' | 'd' | 'H' | 'M' | 'S';
    t = op === '=' ? setPart(t, n, unit) : shift(t, op === '-' ? -n : n, unit);
  }
  return { value: t, isDate, local: true };
}

/** `=Nd` sets the day and resets the lower parts, `=6m` sets the month, `=3H` the hour... */
function setPart(t: Naive, n: number, unit: string): Naive {
  switch (unit) {
    case 'y':
      return { ...t, y: n, mo: 1, d: 1, h: 0, mi: 0, s: 0 };
    case 'm':
      return { ...t, mo: n, d: 1, h: 0, mi: 0, s: 0 };
    case 'd':
      return { ...t, d: n, h: 0, mi: 0, s: 0 };
    case 'H':
      return { ...t, h: n, mi: 0, s: 0 };
    case 'M':
      return { ...t, mi: n, s: 0 };
    case 'S':
      return { ...t, s: n };
    default:
      throw valueError(`Invalid unit ${pyRepr(unit)}`);
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Whether `tz` is a zone `Intl` knows (pytz would know it too, for any real zone name). */
export function isKnownZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Offset of `tz` at the UTC instant `epoch`, in milliseconds (local − UTC). */
function offsetAt(epoch: number, tz: string): number {
  const parts = Object.fromEntries(
    formatter(tz)
      .formatToParts(new Date(epoch))
      .map((p) => [p.type, p.value]),
  );
  const local = Date.UTC(+parts['year']!, +parts['month']! - 1, +parts['day']!, +parts['hour']!, +parts['minute']!, +parts['second']!);
  return local - epoch;
}

function utcToLocal(t: Naive, tz: string): Naive {
  if (tz === 'UTC') return t;
  const epoch = toEpoch(t);
  return fromDate(new Date(epoch + offsetAt(epoch, tz)));
}

/** A local wall-clock time of `tz` as UTC (pytz `localize`, first occurrence on DST overlaps). */
export function localToUtc(t: Naive, tz: string): Naive {
  if (tz === 'UTC') return t;
  const wall = toEpoch(t);
  let epoch = wall - offsetAt(wall, tz);
  epoch = wall - offsetAt(epoch, tz);
  return fromDate(new Date(epoch));
}

/**
 * A local wall-clock time of `tz` as UTC the way pytz's `localize(dt)` places it (`is_dst=False`):
 * on a wall time that occurs twice, or not at all, the offset of standard time (the smaller one).
 */
export function localToUtcPytz(t: Naive, tz: string): Naive {
  if (tz === 'UTC') return t;
  const wall = toEpoch(t);
  const offsets = new Set([offsetAt(wall - 86_400_000, tz), offsetAt(wall + 86_400_000, tz), offsetAt(wall, tz)]);
  const valid = [...offsets].filter((offset) => offsetAt(wall - offset, tz) === offset);
  const standard = Math.min(...(valid.length ? valid : offsets));
  return fromDate(new Date(wall - standard));
}

/** Time zone names as pytz spells them: Intl also takes `utc` or `europe/paris`, pytz does not. */
export function isPytzZone(tz: string): boolean {
  return /^[A-Z][A-Za-z0-9_+-]*(?:\/[A-Z][A-Za-z0-9_+-]*)*$/.test(tz) && isKnownZone(tz);
}

const QUARTER_HOUR_MS = 900_000;

/**
 * `timezone(tz, timezone('UTC', value))`: a stored UTC datetime as the wall-clock time of `tz`.
 * Offsets are looked up once per quarter of an hour (every time zone changes its offset on one),
 * so a large grouped read stays fast.
 */
export function utcToLocalText(value: string, tz: string, cache: Map<number, number>): string {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})/.exec(value);
  if (!m) return value;
  const epoch = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  const slot = Math.floor(epoch / QUARTER_HOUR_MS);
  let offset = cache.get(slot);
  if (offset === undefined) {
    offset = offsetAt(slot * QUARTER_HOUR_MS, tz);
    cache.set(slot, offset);
  }
  return formatDatetime(fromDate(new Date(epoch + offset)));
}

/** One stretch of constant UTC offset: `offsetMs` until the UTC instant `until` (excluded; null: no end). */
export interface OffsetStretch {
  readonly until: number | null;
  readonly offsetMs: number;
}

/**
 * The offsets of `tz` between two UTC instants, with the exact instants they change at (found by
 * a daily walk, then a binary search to the minute): a grouped read converts a column with them.
 */
export function offsetStretches(tz: string, fromEpoch: number, toEpoch: number): OffsetStretch[] {
  const DAY = 86_400_000;
  const stretches: OffsetStretch[] = [];
  let current = offsetAt(fromEpoch, tz);
  for (let t = fromEpoch; t < toEpoch; t += DAY) {
    const next = offsetAt(Math.min(t + DAY, toEpoch), tz);
    if (next === current) continue;
    let lo = t;
    let hi = Math.min(t + DAY, toEpoch);
    while (hi - lo > 60_000) {
      const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
      if (offsetAt(mid, tz) === current) lo = mid;
      else hi = mid;
    }
    stretches.push({ until: hi, offsetMs: current });
    current = offsetAt(hi, tz);
    // Two changes in one day (rare): keep walking from the change.
    if (current !== next) t = hi - DAY;
  }
  stretches.push({ until: null, offsetMs: current });
  return stretches;
}

/** `YYYY-MM-DD HH:MM:SS` of a UTC instant. */
export function formatEpoch(epoch: number): string {
  return formatDatetime(fromDate(new Date(epoch)));
}

/** The UTC instant of a stored `YYYY-MM-DD HH:MM:SS` (or date). */
export function parseEpoch(value: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?/.exec(value);
  if (!m) return Number.NaN;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
}
