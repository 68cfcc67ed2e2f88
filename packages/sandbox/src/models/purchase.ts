/**
 * @module Purchase models: Odoo's `purchase` module (purchase.order, purchase.order.line; Odoo 19
 * field names, e.g. `product_uom_id` on lines) plus the organisation's own fields on orders
 * (subject, budget line, department, delivery condition, author) and its `org_tribu` state
 * (awaiting tribe validation).
 */
import type { ModelDef } from '../orm/model-def';

/** An order's states before it is cancelled, in Odoo's order (the organisation's `org_tribu` among them). */
const ORDER_STATES = [
  ['draft', 'RFQ'],
  ['sent', 'RFQ Sent'],
  ['org_tribu', 'Awaiting tribe validation'],
  ['to approve', 'To Approve'],
  ['purchase', 'Purchase Order'],
] as const;
const ORDER_CANCELLED = ['cancel', 'Cancelled'] as const;

export const PURCHASE_MODELS: readonly ModelDef[] = [
  {
    name: 'purchase.order',
    description: 'Purchase Order',
    order: 'priority desc, id desc',
    demoRows: 250,
    fields: {
      name: { type: 'char', string: 'Order Reference', required: true, demo: { seq: 'PO' } },
      // Odoo's default '0' on every demo row: it draws no random number, so the other columns keep their values.
      priority: {
        type: 'selection',
        string: 'Priority',
        selection: [
          ['0', 'Normal'],
          ['1', 'Urgent'],
        ],
        demo: { value: '0' },
        empty: 0,
      },
      partner_id: { type: 'many2one', relation: 'res.partner', string: 'Vendor', required: true },
      partner_ref: { type: 'char', string: 'Vendor Reference', demo: { gen: 'code' }, empty: 0.4 },
      subject: { type: 'char', string: 'Subject', demo: { gen: 'title' }, empty: 0.05 },
      budget_line: {
        type: 'char',
        string: 'Budget Line',
        demo: {
          pick: [
            '6011 – Fournitures de bureau',
            '6064 – Carburant',
            '6132 – Locations',
            '6155 – Entretien véhicules',
            '6183 – Formation',
            '2183 – Matériel informatique',
            '6241 – Transport sur achats',
            '6226 – Honoraires',
          ],
        },
        empty: 0.15,
      },
      department_id: { type: 'many2one', relation: 'hr.department', string: 'Department', empty: 0.1 },
      delivery_condition: {
        type: 'char',
        string: 'Delivery Condition',
        demo: { pick: ['Livraison au siège', 'Enlèvement chez le fournisseur', 'Livraison sur site, frais inclus', 'DAP Dakar', 'Livraison partielle acceptée', 'Franco de port'] },
        empty: 0.2,
      },
      origin: { type: 'char', string: 'Source Document', demo: { seq: 'DA' }, empty: 0.35 },
      date_order: { type: 'datetime', string: 'Order Deadline', required: true, demo: { days: [-365, 30] }, fractions: true },
      date_approve: { type: 'datetime', readonly: true, string: 'Confirmation Date', demo: { after: 'date_order', hours: [1, 240] }, empty: 0.35, fractions: true },
      date_planned: { type: 'datetime', string: 'Expected Arrival', demo: { after: 'date_order', hours: [24, 1440] }, empty: 0.05, fractions: true },
      amount_untaxed: { type: 'monetary', readonly: true, string: 'Untaxed Amount', demo: { float: [50, 45000] }, empty: 0 },
      // Stored by Odoo (sum of the lines). The organisation is tax-exempt in the demo data: total = untaxed.
      amount_total: { type: 'monetary', readonly: true, string: 'Total', demo: { copy: 'amount_untaxed' }, empty: 0 },
      currency_id: { type: 'many2one', relation: 'res.currency', string: 'Currency', required: true },
      state: {
        type: 'selection',
        readonly: true,
        string: 'Status',
        selection: [...ORDER_STATES, ORDER_CANCELLED],
        // 17/18 lock an order in a `done` state; 19 replaced it by a `locked` flag.
        declaredUntil: [{ until: 18, selection: [...ORDER_STATES, ['done', 'Locked'], ORDER_CANCELLED] }],
        empty: 0,
      },
      invoice_status: {
        type: 'selection',
        readonly: true,
        string: 'Billing Status',
        selection: [
          ['no', 'Nothing to Bill'],
          ['to invoice', 'Waiting Bills'],
          ['invoiced', 'Fully Billed'],
        ],
        empty: 0,
      },
      user_id: { type: 'many2one', relation: 'res.users', string: 'Buyer', empty: 0.1 },
      author_id: { type: 'many2one', relation: 'res.users', string: 'Author', empty: 0.05 },
      create_date: { type: 'datetime', readonly: true, string: 'Created on', demo: { days: [-380, 20] }, empty: 0 },
      company_id: { type: 'many2one', relation: 'res.company', string: 'Company', required: true },
    },
  },
  {
    name: 'purchase.order.line',
    description: 'Purchase Order Line',
    order: 'order_id, sequence, id',
    demoRows: 700,
    fields: {
      order_id: { type: 'many2one', relation: 'purchase.order', string: 'Order Reference', required: true },
      sequence: { type: 'integer', demo: { int: [1, 20] } },
      name: { type: 'text', string: 'Description', required: true, demo: { gen: 'title' } },
      product_id: { type: 'many2one', relation: 'product.product', string: 'Product', empty: 0.05 },
      product_qty: { type: 'float', string: 'Quantity', required: true, demo: { float: [1, 200, 0] } },
      product_uom_id: { type: 'many2one', relation: 'uom.uom', string: 'Unit of Measure', empty: 0.05 },
      price_unit: { type: 'float', string: 'Unit Price', required: true, aggregatorByVersion: { 18: 'avg', 19: 'avg' }, demo: { float: [0.5, 5000] } },
      price_subtotal: { type: 'monetary', readonly: true, string: 'Subtotal', aggregatorByVersion: { 18: false }, demo: { float: [1, 40000] }, empty: 0 },
      // Tax-exempt demo data, as on the orders: total = subtotal.
      price_total: { type: 'monetary', readonly: true, string: 'Total', demo: { copy: 'price_subtotal' }, empty: 0 },
      currency_id: {
        type: 'many2one',
        readonly: true,
        relation: 'res.currency',
        string: 'Currency',
        related: 'order_id.currency_id',
        declaredUntil: [{ until: 18, store: true }],
        demo: { copy: 'order_id.currency_id' },
        empty: 0,
      },
      qty_received: { type: 'float', string: 'Received Qty', demo: { float: [0, 200, 0] }, empty: 0 },
      qty_invoiced: { type: 'float', readonly: true, string: 'Billed Qty', demo: { float: [0, 200, 0] }, empty: 0 },
      date_planned: { type: 'datetime', string: 'Expected Arrival', demo: { days: [-350, 90] }, empty: 0.05, fractions: true },
      analytic_distribution: { type: 'json', string: 'Analytic Distribution', demo: { gen: 'distribution' }, empty: 0.2 },
    },
  },
];
