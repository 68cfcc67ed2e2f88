/**
 * @module The labels and ranges of date buckets, as Odoo formats a grouped read's date and datetime
 * groups: `READ_GROUP_DISPLAY_FORMAT` through babel in the request's language, weeks as
 * `date_utils.weeknumber` numbers them, and the `[from, to)` range of each bucket.
 *
 * The sandbox has one language, `en_US` (Odoo falls back to it for a language that is not
 * installed): weeks start on Sunday (`res.lang.week_start` 7) and babel's `en_US` locale numbers
 * them from the week holding the 1st of January (not ISO).
 */
import { formatDate, formatDatetime, fromDate, localToUtcPytz, type Naive } from './temporal';

/** The granularities that cut time into buckets (`READ_GROUP_TIME_GRANULARITY`). */
export const TIME_GRANULARITIES = ['hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type TimeGranularity = (typeof TIME_GRANULARITIES)[number];

/** The granularities that give a number (`READ_GROUP_NUMBER_GRANULARITY`, 18 and later). */
export const NUMBER_GRANULARITIES = [
  'year_number',
  'quarter_number',
  'month_number',
  'iso_week_number',
  'day_of_year',
  'day_of_month',
  'day_of_week',
  'hour_number',
  'minute_number',
  'second_number',
] as const;
export type NumberGranularity = (typeof NUMBER_GRANULARITIES)[number];

/** `en_US`'s `res.lang.week_start` ('7', Sunday) as the offset Odoo subtracts: `7 - (7 - 1)`. */
export const WEEK_START_OFFSET_DAYS = 1;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Parses the store's `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS`. */
export function parseNaive(value: string): Naive {
  const [date, time = '00:00:00'] = value.split(' ');
  const [y, mo, d] = date!.split('-').map(Number);
  const [h, mi, s] = time.split(':').map(Number);
  return { y: y!, mo: mo!, d: d!, h: h!, mi: mi!, s: s! };
}

/** `READ_GROUP_DISPLAY_FORMAT[granularity]` through babel's `en_US`, weeks as `W{week} {year}`. */
export function bucketLabel(start: Naive, granularity: TimeGranularity): string {
  switch (granularity) {
    case 'hour': {
      // 'hh:00 dd MMM': a 12-hour clock, without AM/PM.
      const h12 = start.h % 12 === 0 ? 12 : start.h % 12;
      return `${pad(h12)}:00 ${pad(start.d)} ${MONTHS[start.mo - 1]!.slice(0, 3)}`;
    }
    case 'day':
      return `${pad(start.d)} ${MONTHS[start.mo - 1]!.slice(0, 3)} ${pad(start.y, 4)}`;
    case 'week': {
      const [year, week] = weekNumber(start);
      return `W${week} ${pad(year, 4)}`;
    }
    case 'month':
      return `${MONTHS[start.mo - 1]} ${pad(start.y, 4)}`;
    case 'quarter':
      return `Q${Math.floor((start.mo - 1) / 3) + 1} ${pad(start.y, 4)}`;
    case 'year':
      return pad(start.y, 4);
  }
}

const DAY_MS = 86_400_000;
const epochDay = (y: number, mo: number, d: number) => Date.UTC(y, mo - 1, d) / DAY_MS;

/**
 * `date_utils.weeknumber` for a locale whose weeks start on Sunday with one minimal day: the
 * week holding the 1st of January is week 1, and the days of December in the week of the next
 * 1st of January belong to the next year.
 */
export function weekNumber(t: Naive): [number, number] {
  const day = epochDay(t.y, t.mo, t.d);
  const sundayOnOrBefore = (d: number) => d - ((((d + 4) % 7) + 7) % 7);
  const nextYearFirstWeek = sundayOnOrBefore(epochDay(t.y + 1, 1, 1));
  if (day >= nextYearFirstWeek) return [t.y + 1, 1];
  const firstWeek = sundayOnOrBefore(epochDay(t.y, 1, 1));
  return [t.y, Math.floor((day - firstWeek) / 7) + 1];
}

/** The start of the bucket after `start` (`value + READ_GROUP_TIME_GRANULARITY[granularity]`). */
function nextBucket(start: Naive, granularity: TimeGranularity): Naive {
  switch (granularity) {
    case 'hour':
      return fromDate(new Date(Date.UTC(start.y, start.mo - 1, start.d, start.h + 1, start.mi, start.s)));
    case 'day':
      return fromDate(new Date(Date.UTC(start.y, start.mo - 1, start.d + 1, start.h, start.mi, start.s)));
    case 'week':
      return fromDate(new Date(Date.UTC(start.y, start.mo - 1, start.d + 7, start.h, start.mi, start.s)));
    case 'month':
      return addMonths(start, 1);
    case 'quarter':
      return addMonths(start, 3);
    case 'year':
      return addMonths(start, 12);
  }
}

/** relativedelta(months=n): the day is kept, or clamped to the month's last day. */
function addMonths(t: Naive, n: number): Naive {
  const months = t.y * 12 + (t.mo - 1) + n;
  const y = Math.floor(months / 12);
  const mo = (months % 12) + 1;
  const last = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return { ...t, y, mo, d: Math.min(t.d, last) };
}

/** A bucket of a date or datetime group: its label and its `[from, to)` range in the store's format. */
export interface Bucket {
  readonly label: string;
  readonly from: string;
  readonly to: string;
}

/**
 * The bucket starting at `start` (a date, or a datetime in the call's time zone `tz`): Odoo
 * localizes a datetime bucket's bounds with pytz (`localize`, standard time on an ambiguous or
 * missing wall time) and gives them in UTC; the label shows the local start.
 */
export function bucketOf(start: string, granularity: TimeGranularity, type: 'date' | 'datetime', tz: string | undefined): Bucket {
  const local = parseNaive(start);
  const end = nextBucket(local, granularity);
  const label = bucketLabel(local, granularity);
  if (type === 'date') return { label, from: formatDate(local), to: formatDate(end) };
  const toUtc = (t: Naive) => (tz ? localToUtcPytz(t, tz) : t);
  return { label, from: formatDatetime(toUtc(local)), to: formatDatetime(toUtc(end)) };
}
