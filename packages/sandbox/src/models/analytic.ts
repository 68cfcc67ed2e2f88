/**
 * @module Analytic models: Odoo's `analytic` module (account.analytic.account and
 * account.analytic.plan). The account ids are the keys of the analytic distributions stored on
 * purchase order lines and approval request lines.
 */
import type { ModelDef } from '../orm/model-def';

export const ANALYTIC_MODELS: readonly ModelDef[] = [
  {
    name: 'account.analytic.plan',
    description: 'Analytic Plans',
    order: 'sequence asc, id',
    recName: 'complete_name',
    demoRows: 8,
    fields: {
      name: {
        type: 'char',
        required: true,
        demo: { pick: ['Projets', 'Départements', 'Bailleurs', 'Zones géographiques', 'Activités', 'Centres de coût', 'Programmes', 'Sites d’intervention'] },
      },
      // Stored computed in Odoo (parent's complete name / name).
      complete_name: { type: 'char', readonly: true, demo: { copy: 'name' } },
      parent_id: { type: 'many2one', relation: 'account.analytic.plan', string: 'Parent', empty: 0.7 },
      sequence: { type: 'integer', demo: { int: [1, 20] } },
      default_applicability: {
        type: 'selection',
        string: 'Default Applicability',
        selection: [
          ['optional', 'Optional'],
          ['mandatory', 'Mandatory'],
          ['unavailable', 'Unavailable'],
        ],
        // Company-dependent with a default: never empty (and no empty draw, the demo data stays).
        // 17 keeps company-dependent values in ir.property: required, not stored, not sortable.
        declaredUntil: [{ until: 17, required: true, store: false }],
        empty: 0,
      },
    },
  },
  {
    name: 'account.analytic.account',
    description: 'Analytic Account',
    order: 'plan_id, name asc',
    // Odoo: `[code] name - commercial partner` (the partner itself when a company or without parent,
    // else its parent: the sandbox's partners are at most one level deep).
    displayName: `CASE WHEN t."code" IS NOT NULL THEN '[' || t."code" || '] ' || t."name" ELSE t."name" END || COALESCE(' - ' || (SELECT CASE WHEN p."is_company" OR p."parent_id" IS NULL THEN p."name" ELSE (SELECT pp."name" FROM "res_partner" pp WHERE pp."id" = p."parent_id") END FROM "res_partner" p WHERE p."id" = t."partner_id"), '')`,
    nameSearch: ['name', 'code'],
    demoRows: 40,
    fields: {
      name: { type: 'char', string: 'Analytic Account', required: true, demo: { gen: 'title' } },
      code: { type: 'char', string: 'Reference', demo: { gen: 'code' }, empty: 0.1 },
      active: { type: 'boolean', truthy: 0.85 },
      plan_id: { type: 'many2one', relation: 'account.analytic.plan', string: 'Plan', required: true },
      // Stored related `plan_id.root_id` in Odoo: the demo plans are mostly top-level, so the seeder
      // copies the plan itself.
      root_plan_id: { type: 'many2one', readonly: true, relation: 'account.analytic.plan', string: 'Root Plan', demo: { copy: 'plan_id' }, empty: 0 },
      partner_id: { type: 'many2one', relation: 'res.partner', string: 'Customer', empty: 0.4 },
      company_id: { type: 'many2one', relation: 'res.company', string: 'Company', empty: 0.1 },
    },
  },
];
