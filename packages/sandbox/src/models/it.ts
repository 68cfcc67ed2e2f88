/**
 * @module IT models: hardware assets are Odoo's serial numbers (`stock.lot`, module `stock`) with the
 * organisation's fields (internal inventory flag, lifecycle, holder); on-hand quantities come from
 * `stock.quant` as in Odoo. The helpdesk tickets, their stages, teams, types and categories, and the
 * consumables issued against tickets are the organisation's own models.
 */
import type { ModelDef } from '../orm/model-def';

export const IT_MODELS: readonly ModelDef[] = [
  {
    name: 'it.ticket.stage',
    description: 'IT ticket stage',
    order: 'sequence, id',
    demoRows: 6,
    fields: {
      name: { type: 'char', required: true, demo: { pick: ['Nouveau', 'En cours', 'En attente', 'Résolu', 'Clôturé', 'Annulé'] } },
      sequence: { type: 'integer', demo: { pick: [1, 2, 3, 4, 5, 6] } },
      // Closing stage: the tickets in it are closed.
      is_closed: { type: 'boolean', string: 'Closing Stage', demo: { pick: [false, false, false, true, true, true] } },
      fold: { type: 'boolean', string: 'Folded in Kanban', demo: { pick: [false, false, false, false, true, true] } },
    },
  },
  {
    name: 'it.ticket.team',
    description: 'IT support team',
    order: 'sequence, name',
    demoRows: 4,
    fields: {
      name: { type: 'char', required: true, demo: { pick: ['Support N1', 'Support N2', 'Réseaux & télécoms', 'Applications métier'] } },
      sequence: { type: 'integer', demo: { int: [1, 10] } },
      company_id: { type: 'many2one', relation: 'res.company', empty: 0.3 },
      active: { type: 'boolean', truthy: 1 },
    },
  },
  {
    name: 'it.ticket.type',
    description: 'IT ticket type (request category)',
    order: 'sequence, name',
    demoRows: 5,
    fields: {
      name: { type: 'char', required: true, demo: { pick: ['Incident', 'Demande de service', 'Demande d’accès', 'Demande de matériel', 'Question'] } },
      sequence: { type: 'integer', demo: { int: [1, 10] } },
    },
  },
  {
    name: 'it.ticket.category',
    description: 'IT ticket category',
    order: 'name',
    demoRows: 8,
    fields: {
      name: {
        type: 'char',
        required: true,
        demo: { pick: ['Poste de travail', 'Imprimante', 'Messagerie', 'Réseau', 'Téléphonie', 'Logiciel métier', 'Compte et accès', 'Consommables'] },
      },
      active: { type: 'boolean', truthy: 1 },
    },
  },
  {
    name: 'it.ticket',
    description: 'IT helpdesk ticket',
    order: 'id desc',
    displayName: `COALESCE(t."number", '') || ' ' || COALESCE(t."name", '')`,
    demoRows: 300,
    fields: {
      number: { type: 'char', required: true, string: 'Ticket Number', demo: { seq: 'HD' } },
      name: { type: 'char', required: true, string: 'Subject', demo: { gen: 'title' } },
      type_id: { type: 'many2one', relation: 'it.ticket.type', string: 'Type', empty: 0.05 },
      stage_id: { type: 'many2one', relation: 'it.ticket.stage', required: true },
      // Related to the stage (stage_id.is_closed): read as the superuser, like Odoo's related fields.
      is_closed: {
        type: 'boolean',
        string: 'Closed',
        compute: `COALESCE((SELECT s."is_closed" FROM "it_ticket_stage" s WHERE s."id" = t."stage_id"), 0)`,
      },
      team_id: { type: 'many2one', relation: 'it.ticket.team', empty: 0.1 },
      user_ids: { type: 'many2many', relation: 'res.users', string: 'Assigned to' },
      partner_id: { type: 'many2one', relation: 'res.partner', string: 'Requester', empty: 0.05 },
      priority: {
        type: 'selection',
        required: true,
        selection: [
          ['0', 'Low'],
          ['1', 'Normal'],
          ['2', 'High'],
          ['3', 'Critical'],
        ],
      },
      kanban_state: {
        type: 'selection',
        required: true,
        selection: [
          ['normal', 'In Progress'],
          ['done', 'Ready'],
          ['blocked', 'Blocked'],
        ],
      },
      assigned_date: { type: 'datetime', demo: { days: [-365, 0] }, empty: 0.15 },
      closed_date: { type: 'datetime', demo: { after: 'assigned_date', hours: [1, 480] }, empty: 0.5 },
      category_id: { type: 'many2one', relation: 'it.ticket.category', string: 'Category', empty: 0.1 },
      validation_state: {
        type: 'selection',
        required: true,
        selection: [
          ['none', 'No validation'],
          ['to_validate', 'To validate'],
          ['validated', 'Validated'],
          ['rejected', 'Rejected'],
        ],
      },
      company_id: { type: 'many2one', relation: 'res.company', required: true },
      active: { type: 'boolean', truthy: 0.85 },
    },
  },
  {
    name: 'stock.lot',
    description: 'Lot/Serial',
    order: 'name, id',
    demoRows: 250,
    fields: {
      name: { type: 'char', required: true, string: 'Lot/Serial Number', demo: { gen: 'serial' } },
      ref: { type: 'char', string: 'Internal Reference', demo: { gen: 'code' }, empty: 0.3 },
      product_id: { type: 'many2one', relation: 'product.product', required: true },
      product_qty: {
        type: 'float',
        string: 'On Hand Quantity',
        // Odoo sums the lot's quants in internal locations (and in transit ones of a company):
        // reading it needs read right on stock.quant.
        compute: `COALESCE((SELECT SUM(q."quantity") FROM "stock_quant" q JOIN "stock_location" l ON l."id" = q."location_id" WHERE q."lot_id" = t."id" AND (l."usage" = 'internal' OR (l."usage" = 'transit' AND l."company_id" IS NOT NULL))), 0)`,
        requires: 'stock.quant',
      },
      location_id: { type: 'many2one', relation: 'stock.location', empty: 0.1 },
      // The organisation's fields.
      holder_id: { type: 'many2one', relation: 'res.partner', string: 'Holder', empty: 0.3 },
      lifecycle: {
        type: 'selection',
        required: true,
        selection: [
          ['available', 'Available'],
          ['assigned', 'Assigned'],
          ['maintenance', 'In maintenance'],
          ['retired', 'Retired'],
          ['external', 'External'],
        ],
      },
      org_in_parc: { type: 'boolean', string: 'In the IT inventory', truthy: 0.85 },
      // 17: required; 18 computes it from the product (stored, editable).
      company_id: { type: 'many2one', relation: 'res.company', declaredUntil: [{ until: 17, required: true }], empty: 0 },
    },
  },
  {
    name: 'stock.quant',
    description: 'Quants',
    // Odoo: the location's display name, then the lot's name, joined by ' - '.
    displayName: `COALESCE((SELECT l."complete_name" FROM "stock_location" l WHERE l."id" = t."location_id"), '') || COALESCE(' - ' || (SELECT o."name" FROM "stock_lot" o WHERE o."id" = t."lot_id"), '')`,
    demoRows: 300,
    fields: {
      lot_id: { type: 'many2one', relation: 'stock.lot', string: 'Lot/Serial Number', empty: 0 },
      product_id: { type: 'many2one', relation: 'product.product', required: true, demo: { copy: 'lot_id.product_id' } },
      location_id: { type: 'many2one', relation: 'stock.location', required: true },
      quantity: { type: 'float', readonly: true, demo: { pick: [1, 1, 1, 0] } },
      company_id: { type: 'many2one', readonly: true, relation: 'res.company', demo: { copy: 'lot_id.company_id' } },
    },
  },
  {
    name: 'it.consumable.move',
    description: 'Consumable issued for an IT ticket',
    order: 'date desc, id desc',
    demoRows: 300,
    fields: {
      ticket_id: { type: 'many2one', relation: 'it.ticket', empty: 0.05 },
      partner_id: { type: 'many2one', relation: 'res.partner', string: 'Beneficiary', demo: { copy: 'ticket_id.partner_id' }, empty: 0.05 },
      product_id: { type: 'many2one', relation: 'product.product', required: true },
      location_id: { type: 'many2one', relation: 'stock.location', empty: 0.1 },
      quantity: { type: 'float', required: true, demo: { float: [1, 10, 0] } },
      returned_quantity: { type: 'float', demo: { float: [0, 3, 0] }, empty: 0.3 },
      remaining_quantity: {
        type: 'float',
        compute: `MAX(0, COALESCE(t."quantity", 0) - COALESCE(t."returned_quantity", 0))`,
      },
      state: {
        type: 'selection',
        required: true,
        selection: [
          ['out', 'Issued'],
          ['partial', 'Partly returned'],
          ['returned', 'Returned'],
        ],
      },
      date: { type: 'datetime', required: true, demo: { days: [-365, 0] } },
      handled_by_id: { type: 'many2one', relation: 'res.users', string: 'Handled by', empty: 0.1 },
    },
  },
];
