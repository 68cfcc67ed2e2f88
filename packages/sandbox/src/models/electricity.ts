/**
 * @module Electricity models: the organisation's own prepaid meters (`electricity.counter`), the
 * credit bought for them (`electricity.purchase`) and their balance readings (`electricity.reading`).
 * A meter's balance, average consumption, autonomy and alert status are computed from its readings
 * and purchases when read; purchases and readings store the meter's environment (a stored related
 * field) so that they can be searched on it directly.
 */
import type { ModelDef } from '../orm/model-def';

/** Date and time of the meter's last reading (NULL without readings). */
const LAST_DATE = `(SELECT MAX(r."date_reading") FROM "electricity_reading" r WHERE r."counter_id" = t."id")`;

/** Balance read at the meter's last reading. */
const LAST_KWH = `(SELECT r."remaining_kwh" FROM "electricity_reading" r WHERE r."counter_id" = t."id" ORDER BY r."date_reading" DESC, r."id" DESC LIMIT 1)`;

/** Average daily consumption over the readings not excluded from the average. */
const AVG_DAILY = `(SELECT ROUND(AVG(r."daily_consumption"), 2) FROM "electricity_reading" r WHERE r."counter_id" = t."id" AND COALESCE(r."is_excluded_from_avg", 0) = 0 AND r."daily_consumption" IS NOT NULL)`;

/** Credit bought (active purchases) after the day of the last reading. */
const BOUGHT_SINCE = `(SELECT COALESCE(SUM(p."purchased_kwh"), 0) FROM "electricity_purchase" p WHERE p."counter_id" = t."id" AND p."state" = 'active' AND p."date_purchase" > substr(${LAST_DATE}, 1, 10))`;

/** Estimated balance now: last reading + credit bought since - average consumption since (never below 0). */
const CURRENT_KWH = `(CASE WHEN ${LAST_DATE} IS NULL THEN NULL ELSE ROUND(MAX(0, COALESCE(${LAST_KWH}, 0) + ${BOUGHT_SINCE} - COALESCE(${AVG_DAILY}, 0) * MAX(0, julianday(:now) - julianday(${LAST_DATE}))), 2) END)`;

/** Whole days the estimated balance lasts at the average consumption (NULL without data). */
const AUTONOMY = `(CASE WHEN ${LAST_DATE} IS NOT NULL AND COALESCE(${AVG_DAILY}, 0) > 0 THEN CAST(${CURRENT_KWH} / ${AVG_DAILY} AS INTEGER) ELSE NULL END)`;

export const ELECTRICITY_MODELS: readonly ModelDef[] = [
  {
    name: 'electricity.counter',
    description: 'Prepaid electricity meter',
    order: 'code asc',
    recName: 'code',
    demoRows: 24,
    fields: {
      code: { type: 'char', string: 'Code', required: true, demo: { seq: 'CPT' } },
      label: {
        type: 'char',
        string: 'Label',
        demo: {
          pick: [
            'Compteur bâtiment principal',
            'Compteur entrepôt',
            'Compteur logement du chef de base',
            'Compteur salle serveurs',
            'Compteur atelier',
            'Compteur guérite',
            'Compteur chambre froide',
            'Compteur bureaux annexes',
          ],
        },
        empty: 0.05,
      },
      environment_id: { type: 'many2one', relation: 'ops.environment', string: 'Environment', required: true },
      currency_id: { type: 'many2one', relation: 'res.currency', string: 'Currency', required: true },
      active: { type: 'boolean', truthy: 0.85 },
      reading_ids: { type: 'one2many', relation: 'electricity.reading', inverse: 'counter_id', string: 'Readings' },
      purchase_ids: { type: 'one2many', relation: 'electricity.purchase', inverse: 'counter_id', string: 'Purchases' },
      last_reading_kwh: {
        type: 'float',
        string: 'Last Reading (kWh)',
        digits: 2,
        compute: LAST_KWH,
        requires: 'electricity.reading',
      },
      last_reading_date: {
        type: 'datetime',
        string: 'Last Reading Date',
        compute: LAST_DATE,
        requires: 'electricity.reading',
      },
      days_since_reading: {
        type: 'integer',
        string: 'Days Since Last Reading',
        compute: `CAST(julianday(:now) - julianday(${LAST_DATE}) AS INTEGER)`,
        requires: 'electricity.reading',
      },
      avg_daily_consumption: {
        type: 'float',
        string: 'Average Daily Consumption (kWh)',
        digits: 2,
        compute: AVG_DAILY,
        requires: 'electricity.reading',
      },
      current_kwh: {
        type: 'float',
        string: 'Estimated Balance (kWh)',
        digits: 2,
        compute: CURRENT_KWH,
        requires: 'electricity.reading',
      },
      projected_autonomy_days: {
        type: 'integer',
        string: 'Projected Autonomy (days)',
        compute: AUTONOMY,
        requires: 'electricity.reading',
      },
      total_purchased_kwh: {
        type: 'float',
        string: 'Total Purchased (kWh)',
        digits: 2,
        compute: `(SELECT COALESCE(SUM(p."purchased_kwh"), 0) FROM "electricity_purchase" p WHERE p."counter_id" = t."id" AND p."state" = 'active')`,
        requires: 'electricity.purchase',
      },
      total_purchased_amount: {
        type: 'monetary',
        string: 'Total Purchased Amount',
        digits: 2,
        compute: `(SELECT COALESCE(SUM(p."amount"), 0) FROM "electricity_purchase" p WHERE p."counter_id" = t."id" AND p."state" = 'active')`,
        requires: 'electricity.purchase',
      },
      status: {
        type: 'selection',
        string: 'Alert Status',
        selection: [
          ['ok', 'OK'],
          ['warning', 'Warning'],
          ['critical', 'Critical'],
          ['no_data', 'No data'],
        ],
        compute: `(CASE WHEN ${AUTONOMY} IS NULL THEN 'no_data' WHEN ${AUTONOMY} <= 3 THEN 'critical' WHEN ${AUTONOMY} <= 10 THEN 'warning' ELSE 'ok' END)`,
        requires: 'electricity.reading',
      },
    },
  },
  {
    name: 'electricity.purchase',
    description: 'Prepaid electricity credit purchase',
    order: 'date_purchase desc, id desc',
    recName: 'reference',
    demoRows: 320,
    fields: {
      reference: { type: 'char', string: 'Reference', required: true, demo: { seq: 'ELEC' } },
      counter_id: { type: 'many2one', relation: 'electricity.counter', string: 'Meter', required: true },
      // Stored related field (counter_id.environment_id): searchable without a join.
      environment_id: {
        type: 'many2one',
        relation: 'ops.environment',
        string: 'Environment',
        demo: { copy: 'counter_id.environment_id' },
        empty: 0,
      },
      date_purchase: { type: 'date', string: 'Purchase Date', required: true, demo: { days: [-365, 0] } },
      purchased_kwh: { type: 'float', string: 'Purchased (kWh)', digits: 2, required: true, demo: { float: [50, 600, 1] } },
      amount: { type: 'monetary', string: 'Amount', digits: 2, required: true, demo: { float: [5000, 75000, 0] } },
      currency_id: { type: 'many2one', relation: 'res.currency', string: 'Currency', required: true },
      price_per_kwh: {
        type: 'float',
        string: 'Price per kWh',
        digits: 4,
        compute: `(CASE WHEN COALESCE(t."purchased_kwh", 0) > 0 THEN ROUND(t."amount" / t."purchased_kwh", 4) ELSE NULL END)`,
      },
      state: {
        type: 'selection',
        string: 'State',
        selection: [
          ['active', 'Active'],
          ['cancelled', 'Cancelled'],
        ],
        required: true,
        demo: { pick: ['active', 'active', 'active', 'active', 'active', 'active', 'active', 'active', 'active', 'cancelled'] },
      },
    },
  },
  {
    name: 'electricity.reading',
    description: 'Prepaid electricity meter reading',
    order: 'date_reading desc, id desc',
    displayName: `COALESCE((SELECT c."code" FROM "electricity_counter" c WHERE c."id" = t."counter_id"), '') || ' ' || COALESCE(t."date_reading", '')`,
    demoRows: 600,
    fields: {
      counter_id: { type: 'many2one', relation: 'electricity.counter', string: 'Meter', required: true },
      // Stored related field (counter_id.environment_id): searchable without a join.
      environment_id: {
        type: 'many2one',
        relation: 'ops.environment',
        string: 'Environment',
        demo: { copy: 'counter_id.environment_id' },
        empty: 0,
      },
      date_reading: { type: 'datetime', string: 'Reading Date', required: true, demo: { days: [-365, 0] } },
      remaining_kwh: { type: 'float', string: 'Remaining (kWh)', digits: 2, required: true, demo: { float: [0, 450, 1] } },
      consumed_kwh: { type: 'float', string: 'Consumed (kWh)', digits: 2, demo: { float: [5, 300, 1] }, empty: 0.08 },
      days_elapsed: { type: 'float', string: 'Days Elapsed', digits: 2, demo: { float: [1, 30, 1] }, empty: 0.08 },
      daily_consumption: { type: 'float', string: 'Daily Consumption (kWh)', digits: 2, demo: { float: [2, 45, 2] }, empty: 0.08 },
      is_excluded_from_avg: { type: 'boolean', string: 'Excluded from Average', truthy: 0.1 },
      note: { type: 'text', string: 'Note', demo: { gen: 'sentence' }, empty: 0.6 },
    },
  },
];
