/**
 * @module Sprint models: the organisation's own OKR and sprint module (no standard Odoo module).
 * Squads, exercices (OKR years), objectives, key results with their measures and readings,
 * engagements, subjects, sprints and blockers. Values that depend on the request time or on other
 * records (progress, last reading, lateness, ages) are computed when read.
 */
import type { ModelDef } from '../orm/model-def';

/** Last reading of the measure aliased `m` (a column of `sprint_measure_reading`). */
const lastReading = (col: string, m: string): string =>
  `(SELECT r."${col}" FROM "sprint_measure_reading" r WHERE r."measure_id" = ${m}."id" ORDER BY r."date" DESC, r."id" DESC LIMIT 1)`;

/**
 * Progress (percent, 0..100, one decimal) of the measure aliased `m`: from its start value to its
 * target value, by its last reading (the start value when none). Null without a usable target.
 */
const measureProgress = (m: string): string =>
  `CASE WHEN ${m}."target_value" IS NULL OR ${m}."target_value" = COALESCE(${m}."start_value", 0) THEN NULL ` +
  `ELSE ROUND(MAX(0.0, MIN(100.0, 100.0 * (COALESCE(${lastReading('value', m)}, ${m}."start_value", 0) - COALESCE(${m}."start_value", 0)) ` +
  `/ (${m}."target_value" - COALESCE(${m}."start_value", 0)))), 1) END`;

export const SPRINT_MODELS: readonly ModelDef[] = [
  {
    name: 'sprint.squad',
    description: 'Squad',
    order: 'name',
    demoRows: 6,
    fields: {
      name: {
        type: 'char',
        required: true,
        demo: { pick: ['Squad Énergie', 'Squad Mobilité', 'Squad Données', 'Squad Achats', 'Squad Bâtiments', 'Squad Événements'] },
      },
      active: { type: 'boolean', truthy: 1 },
    },
  },
  {
    name: 'sprint.exercice',
    description: 'OKR exercice (fiscal year)',
    order: 'date_start desc',
    demoRows: 4,
    fields: {
      name: { type: 'char', required: true, demo: { pick: ['OKR 2023', 'OKR 2024', 'OKR 2025', 'OKR 2026'] } },
      date_start: { type: 'date', demo: { pick: ['2023-01-01', '2024-01-01', '2025-01-01', '2026-01-01'] }, empty: 0 },
      date_end: { type: 'date', demo: { pick: ['2023-12-31', '2024-12-31', '2025-12-31', '2026-12-31'] }, empty: 0 },
      active: { type: 'boolean', truthy: 1 },
    },
  },
  {
    name: 'sprint.objective',
    description: 'Objective',
    order: 'name',
    demoRows: 12,
    fields: {
      name: {
        type: 'char',
        required: true,
        demo: {
          pick: [
            'Réduire la consommation d’énergie des sites',
            'Fiabiliser la flotte de véhicules',
            'Digitaliser les demandes internes',
            'Améliorer la satisfaction des usagers',
            'Maîtriser les coûts d’achat',
            'Sécuriser le parc informatique',
            'Accélérer le traitement des missions',
            'Renforcer la qualité des données',
            'Optimiser l’occupation des espaces',
            'Former les équipes terrain',
            'Réduire les délais de paiement',
            'Développer les partenariats locaux',
          ],
        },
      },
      active: { type: 'boolean', truthy: 0.8 },
    },
  },
  {
    name: 'sprint.subject',
    description: 'Subject',
    order: 'name',
    demoRows: 25,
    fields: {
      name: { type: 'char', required: true, demo: { gen: 'title' } },
      squad_id: { type: 'many2one', relation: 'sprint.squad', empty: 0.1 },
      active: { type: 'boolean', truthy: 0.9 },
    },
  },
  {
    name: 'sprint.sprint',
    description: 'Sprint',
    order: 'date_start desc, id desc',
    demoRows: 60,
    fields: {
      name: { type: 'char', required: true, demo: { seq: 'SPRINT-' } },
      squad_id: { type: 'many2one', relation: 'sprint.squad', required: true },
      date_start: { type: 'date', required: true, demo: { days: [-365, 60] } },
      date_end: { type: 'date', required: true, demo: { after: 'date_start', hours: [312, 312] } },
    },
  },
  {
    name: 'sprint.key.result',
    description: 'Key result',
    order: 'number, id',
    demoRows: 60,
    fields: {
      number: { type: 'integer', required: true, demo: { int: [1, 40] } },
      name: { type: 'char', required: true, demo: { gen: 'title' } },
      exercice_id: { type: 'many2one', relation: 'sprint.exercice', required: true },
      objective_id: { type: 'many2one', relation: 'sprint.objective', required: true },
      squad_id: { type: 'many2one', relation: 'sprint.squad', required: true },
      measure_ids: { type: 'one2many', relation: 'sprint.measure', inverse: 'kr_id' },
      progress: {
        type: 'float',
        string: 'Progress (%)',
        digits: 1,
        // Average of the measures' progress.
        compute: `COALESCE((SELECT ROUND(AVG(${measureProgress('m')}), 1) FROM "sprint_measure" m WHERE m."kr_id" = t."id"), 0)`,
        requires: 'sprint.measure',
      },
    },
  },
  {
    name: 'sprint.measure',
    description: 'Measure of a key result',
    order: 'kr_id, id',
    demoRows: 150,
    fields: {
      name: { type: 'char', required: true, demo: { gen: 'title' } },
      unit: { type: 'char', demo: { pick: ['%', 'nombre', 'jours', 'FCFA', 'personnes', 'kWh', 'km'] }, empty: 0.05 },
      kr_id: { type: 'many2one', relation: 'sprint.key.result', string: 'Key Result', required: true },
      // Odoo: related='kr_id.squad_id', store=True.
      squad_id: { type: 'many2one', relation: 'sprint.squad', demo: { copy: 'kr_id.squad_id' }, empty: 0 },
      start_value: { type: 'float', demo: { float: [0, 50, 1] }, empty: 0.05 },
      milestone_value: { type: 'float', demo: { float: [50, 120, 1] }, empty: 0.15 },
      milestone_date: { type: 'date', demo: { days: [-120, 180] }, empty: 0.15 },
      target_value: { type: 'float', demo: { float: [120, 500, 1] }, empty: 0.05 },
      last_value: {
        type: 'float',
        compute: lastReading('value', 't'),
        requires: 'sprint.measure.reading',
      },
      last_reading_date: {
        type: 'date',
        compute: lastReading('date', 't'),
        requires: 'sprint.measure.reading',
      },
      progress: {
        type: 'float',
        string: 'Progress (%)',
        digits: 1,
        compute: measureProgress('t'),
        requires: 'sprint.measure.reading',
      },
    },
  },
  {
    name: 'sprint.measure.reading',
    description: 'Reading of a measure',
    order: 'date desc, id desc',
    demoRows: 600,
    fields: {
      measure_id: { type: 'many2one', relation: 'sprint.measure', required: true },
      // Odoo: related='measure_id.kr_id' and 'measure_id.squad_id', store=True.
      kr_id: { type: 'many2one', relation: 'sprint.key.result', string: 'Key Result', demo: { copy: 'measure_id.kr_id' }, empty: 0 },
      squad_id: { type: 'many2one', relation: 'sprint.squad', demo: { copy: 'measure_id.squad_id' }, empty: 0 },
      date: { type: 'date', required: true, demo: { days: [-365, 0] } },
      value: { type: 'float', required: true, demo: { float: [0, 500, 1] } },
      note: { type: 'text', demo: { gen: 'sentence' }, empty: 0.5 },
      read_by_id: { type: 'many2one', relation: 'res.users', string: 'Read by', empty: 0.05 },
    },
  },
  {
    name: 'sprint.engagement',
    description: 'Engagement of a squad',
    order: 'deadline, id',
    demoRows: 200,
    fields: {
      number: { type: 'char', required: true, demo: { seq: 'ENG' } },
      name: { type: 'char', required: true, demo: { gen: 'title' } },
      state: {
        type: 'selection',
        required: true,
        selection: [
          ['open', 'Open'],
          ['in_progress', 'In progress'],
          ['at_risk', 'At risk'],
          ['kept', 'Kept'],
        ],
      },
      deadline: { type: 'date', demo: { days: [-150, 150] }, empty: 0.05 },
      actual_date: { type: 'date', demo: { days: [-180, 0] }, empty: 0.6 },
      is_late: {
        type: 'boolean',
        compute: `CASE WHEN t."deadline" IS NOT NULL AND t."state" <> 'kept' AND t."deadline" < :today THEN 1 ELSE 0 END`,
      },
      days_to_deadline: {
        type: 'integer',
        compute: `CASE WHEN t."deadline" IS NULL THEN NULL ELSE CAST(julianday(t."deadline") - julianday(:today) AS INTEGER) END`,
      },
      kr_id: { type: 'many2one', relation: 'sprint.key.result', string: 'Key Result', empty: 0.1 },
      squad_id: { type: 'many2one', relation: 'sprint.squad', demo: { copy: 'kr_id.squad_id' }, empty: 0.05 },
      objective_id: { type: 'many2one', relation: 'sprint.objective', demo: { copy: 'kr_id.objective_id' }, empty: 0.05 },
      expected_proof: { type: 'text', demo: { gen: 'sentence' }, empty: 0.2 },
      sprint_id: { type: 'many2one', relation: 'sprint.sprint', empty: 0.2 },
      subject_ids: { type: 'many2many', relation: 'sprint.subject', string: 'Subjects' },
    },
  },
  {
    name: 'sprint.blocker',
    description: 'Blocker',
    order: 'date_start desc, id desc',
    demoRows: 200,
    fields: {
      name: { type: 'char', required: true, demo: { gen: 'title' } },
      description: { type: 'text', demo: { gen: 'sentence' }, empty: 0.1 },
      subject_id: { type: 'many2one', relation: 'sprint.subject', empty: 0.1 },
      sprint_id: { type: 'many2one', relation: 'sprint.sprint', empty: 0.1 },
      squad_id: { type: 'many2one', relation: 'sprint.squad', demo: { copy: 'sprint_id.squad_id' }, empty: 0.05 },
      owner_id: { type: 'many2one', relation: 'res.users', string: 'Owner', empty: 0.1 },
      unblocker: {
        type: 'char',
        demo: { pick: ['Direction des opérations', 'Service achats', 'DSI', 'Direction financière', 'Chef de squad', 'Comité de pilotage'] },
        empty: 0.2,
      },
      unblocker_user_id: { type: 'many2one', relation: 'res.users', string: 'Person to notify', empty: 0.2 },
      origin: {
        type: 'selection',
        required: true,
        selection: [
          ['member', 'Squad member'],
          ['feedback', 'Feedback'],
          ['no_feedback', 'No feedback'],
        ],
      },
      reported_by_id: { type: 'many2one', relation: 'res.users', string: 'Reported by', empty: 0.05 },
      date_start: { type: 'date', required: true, string: 'Blocked since', demo: { days: [-300, -30] } },
      date_lifted: { type: 'date', demo: { after: 'date_start', hours: [24, 720] }, empty: 0.4 },
      is_open: {
        type: 'boolean',
        compute: `CASE WHEN t."date_lifted" IS NULL THEN 1 ELSE 0 END`,
      },
      age_days: {
        type: 'integer',
        compute: `CASE WHEN t."date_start" IS NULL THEN NULL ELSE CAST(julianday(COALESCE(t."date_lifted", :today)) - julianday(t."date_start") AS INTEGER) END`,
      },
      escalated: { type: 'boolean', string: 'Escalated to the monthly review', truthy: 0.2 },
      decision: { type: 'text', string: 'Decision of the operations director', demo: { gen: 'sentence' }, empty: 0.6 },
    },
  },
];
