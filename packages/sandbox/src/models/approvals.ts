/**
 * @module Approvals models: Odoo Enterprise's `approvals` module (approval.category,
 * approval.request, approval.approver, approval.product.line; `approvals_purchase` adds the link to
 * purchase order lines and the purchase order count) plus the organisation's own fields (budget
 * code, final approver, created by, estimated amount, currency, vendor, analytic distribution) and
 * its `treated_paid` request status.
 */
import type { ModelDef } from '../orm/model-def';

export const APPROVALS_MODELS: readonly ModelDef[] = [
  {
    name: 'approval.category',
    description: 'Approval Category',
    order: 'sequence, id',
    demoRows: 8,
    fields: {
      name: {
        type: 'char',
        required: true,
        demo: { pick: ['Demande d’achat', 'Paiement fournisseur', 'Mission', 'Congé', 'Emprunt de matériel', 'Recrutement', 'Formation', 'Avance de caisse'] },
      },
      sequence: { type: 'integer', demo: { int: [1, 20] } },
      company_id: { type: 'many2one', relation: 'res.company', empty: 0.3 },
      active: { type: 'boolean', truthy: 0.9 },
    },
  },
  {
    name: 'approval.request',
    description: 'Approval Request',
    order: 'name',
    demoRows: 250,
    fields: {
      name: { type: 'char', string: 'Approval Subject', required: true, demo: { seq: 'DA' } },
      reason: { type: 'html', string: 'Description', demo: { gen: 'sentence' }, empty: 0.1 },
      reference: { type: 'char', string: 'Reference', demo: { gen: 'code' }, empty: 0.5 },
      request_owner_id: { type: 'many2one', relation: 'res.users', string: 'Request Owner', required: true },
      // The organisation's field: the user who entered the request on behalf of the owner (empty when the owner did).
      created_by_id: { type: 'many2one', relation: 'res.users', string: 'Created by', empty: 0.7 },
      request_status: {
        type: 'selection',
        string: 'Request Status',
        selection: [
          ['new', 'To Submit'],
          ['pending', 'Submitted'],
          ['approved', 'Approved'],
          ['refused', 'Refused'],
          ['cancel', 'Cancel'],
          ['treated_paid', 'Treated / paid'],
        ],
        required: true,
      },
      category_id: { type: 'many2one', relation: 'approval.category', string: 'Category', required: true },
      amount: { type: 'float', string: 'Amount', demo: { float: [10, 25000] }, empty: 0.1 },
      currency_id: { type: 'many2one', relation: 'res.currency', string: 'Currency', empty: 0.05 },
      budget_code: {
        type: 'char',
        string: 'Budget Code',
        demo: { pick: ['BUD-2025-FON', 'BUD-2025-PRG', 'BUD-2025-LOG', 'BUD-2026-FON', 'BUD-2026-INV', 'BUD-2026-SI', 'BUD-2026-RH'] },
        empty: 0.2,
      },
      final_approver_id: { type: 'many2one', relation: 'res.users', string: 'Final Approver', empty: 0.3 },
      approver_ids: { type: 'one2many', relation: 'approval.approver', inverse: 'request_id', string: 'Approvers' },
      product_line_ids: { type: 'one2many', relation: 'approval.product.line', inverse: 'approval_request_id', string: 'Products' },
      partner_id: { type: 'many2one', relation: 'res.partner', string: 'Contact', empty: 0.4 },
      location: { type: 'char', string: 'Location', demo: { gen: 'city' }, empty: 0.4 },
      quantity: { type: 'float', string: 'Quantity', demo: { float: [1, 50, 0] }, empty: 0.3 },
      create_date: { type: 'datetime', string: 'Created on', demo: { days: [-365, 0] }, empty: 0 },
      date: { type: 'datetime', string: 'Date', demo: { after: 'create_date', hours: [0, 720] }, empty: 0.5 },
      date_confirmed: { type: 'datetime', string: 'Date Confirmed', demo: { after: 'create_date', hours: [1, 240] }, empty: 0.3 },
      date_start: { type: 'datetime', string: 'Date start', demo: { after: 'create_date', hours: [24, 1440] }, empty: 0.5 },
      date_end: { type: 'datetime', string: 'Date end', demo: { after: 'date_start', hours: [4, 336] }, empty: 0.5 },
      purchase_order_count: {
        type: 'integer',
        string: 'Purchase Order Count',
        // approvals_purchase: distinct orders of the purchase lines created from the request's product lines.
        compute: `(SELECT COUNT(DISTINCT pol."order_id") FROM "approval_product_line" l JOIN "purchase_order_line" pol ON pol."id" = l."purchase_order_line_id" WHERE l."approval_request_id" = t."id")`,
        requires: 'purchase.order.line',
      },
      company_id: { type: 'many2one', relation: 'res.company', string: 'Company', required: true },
    },
  },
  {
    name: 'approval.approver',
    description: 'Approver',
    order: 'sequence, id',
    recName: 'user_id',
    demoRows: 600,
    fields: {
      request_id: { type: 'many2one', relation: 'approval.request', string: 'Request', required: true },
      user_id: { type: 'many2one', relation: 'res.users', string: 'User', required: true },
      status: {
        type: 'selection',
        string: 'Status',
        selection: [
          ['new', 'New'],
          ['pending', 'To Approve'],
          ['waiting', 'Waiting'],
          ['approved', 'Approved'],
          ['refused', 'Refused'],
          ['cancel', 'Cancel'],
        ],
        required: true,
      },
      sequence: { type: 'integer', string: 'Sequence', demo: { int: [1, 10] }, empty: 0 },
      required: { type: 'boolean', string: 'Required', truthy: 0.4 },
      create_date: { type: 'datetime', string: 'Created on', demo: { copy: 'request_id.create_date' }, empty: 0 },
      company_id: { type: 'many2one', relation: 'res.company', string: 'Company', demo: { copy: 'request_id.company_id' }, empty: 0 },
    },
  },
  {
    name: 'approval.product.line',
    description: 'Product Line',
    order: 'id',
    recName: 'description',
    demoRows: 500,
    fields: {
      approval_request_id: { type: 'many2one', relation: 'approval.request', string: 'Approval Request', required: true },
      description: { type: 'char', string: 'Description', required: true, demo: { gen: 'title' } },
      product_id: { type: 'many2one', relation: 'product.product', string: 'Products', empty: 0.1 },
      quantity: { type: 'float', string: 'Quantity', demo: { float: [1, 100, 0] }, empty: 0 },
      product_uom_id: { type: 'many2one', relation: 'uom.uom', string: 'Unit of Measure', empty: 0.05 },
      estimated_amount: { type: 'float', string: 'Estimated Amount (excl. tax)', demo: { float: [5, 15000] }, empty: 0.1 },
      currency_id: { type: 'many2one', relation: 'res.currency', string: 'Currency', demo: { copy: 'approval_request_id.currency_id' }, empty: 0.05 },
      analytic_distribution: { type: 'json', string: 'Analytic Distribution', demo: { gen: 'distribution' }, empty: 0.2 },
      purchase_order_line_id: { type: 'many2one', relation: 'purchase.order.line', string: 'Purchase Order Line', empty: 0.5 },
      partner_id: { type: 'many2one', relation: 'res.partner', string: 'Vendor', empty: 0.3 },
      create_date: { type: 'datetime', string: 'Created on', demo: { copy: 'approval_request_id.create_date' }, empty: 0 },
      company_id: { type: 'many2one', relation: 'res.company', string: 'Company', demo: { copy: 'approval_request_id.company_id' }, empty: 0 },
    },
  },
];
