/**
 * @module Stock models: Odoo's `stock` module (transfers, operation types, locations), reduced to
 * the fields the catalogue reaches. stock.location is also the comodel of IT assets and moves.
 */
import { allOf, anyOf, leaf, recNamesSearch, type SearchDisplayName } from '../orm/display-name-search';
import type { ModelDef } from '../orm/model-def';

/**
 * stock.picking.type's `_search_display_name`: `warehouse: name` is reversed into a condition on
 * each part; other names search `_rec_names_search`. 19 takes each value of `in` alone and leaves
 * `not in` to the ORM (NotImplemented).
 */
const searchPickingTypeDisplayName: SearchDisplayName = (operator, value, traits) => {
  if (traits.equalityAsSet && operator === 'in' && Array.isArray(value)) {
    return anyOf(value.map((v) => searchPickingTypeDisplayName('=', v, traits)!));
  }
  if (traits.equalityAsSet && operator === 'not in') return undefined;
  const parts = typeof value === 'string' ? value.split(': ') : [];
  if (parts.length === 2) return allOf([leaf('warehouse_id.name', operator, parts[0]), leaf('name', operator, parts[1])]);
  if (traits.equalityAsSet && operator === '=') return recNamesSearch(['name', 'warehouse_id.name'], 'in', [value]);
  return recNamesSearch(['name', 'warehouse_id.name'], operator, value);
};

export const STOCK_MODELS: readonly ModelDef[] = [
  {
    name: 'stock.location',
    description: 'Inventory Locations',
    order: 'complete_name, id',
    recName: 'complete_name',
    demoRows: 10,
    fields: {
      name: {
        type: 'char',
        required: true,
        demo: { pick: ['Stock', 'Input', 'Output', 'Vendors', 'Customers', 'Inventory adjustment', 'Magasin IT', 'Pièces détachées', 'Garage', 'Scrap'] },
      },
      complete_name: {
        type: 'char',
        readonly: true,
        string: 'Full Location Name',
        demo: {
          pick: [
            'WH/Stock',
            'WH/Input',
            'WH/Output',
            'Partners/Vendors',
            'Partners/Customers',
            'Virtual Locations/Inventory adjustment',
            'WH/Stock/Magasin IT',
            'WH/Stock/Pièces détachées',
            'WH/Stock/Garage',
            'Virtual Locations/Scrap',
          ],
        },
      },
      usage: {
        type: 'selection',
        string: 'Location Type',
        selection: [
          ['supplier', 'Vendor'],
          ['view', 'Virtual'],
          ['internal', 'Internal'],
          ['customer', 'Customer'],
          ['inventory', 'Inventory Loss'],
          ['production', 'Production'],
          ['transit', 'Transit'],
        ],
        declaredUntil: [
          {
            until: 18,
            selection: [
              ['supplier', 'Vendor Location'],
              ['view', 'View'],
              ['internal', 'Internal Location'],
              ['customer', 'Customer Location'],
              ['inventory', 'Inventory Loss'],
              ['production', 'Production'],
              ['transit', 'Transit Location'],
            ],
          },
        ],
        required: true,
        demo: { pick: ['internal', 'internal', 'internal', 'supplier', 'customer', 'inventory', 'internal', 'internal', 'internal', 'inventory'] },
      },
      company_id: { type: 'many2one', relation: 'res.company', empty: 0.2 },
      active: { type: 'boolean', truthy: 1 },
    },
  },
  {
    name: 'stock.warehouse',
    description: 'Warehouse',
    order: 'sequence,id',
    demoRows: 2,
    fields: {
      name: { type: 'char', string: 'Warehouse', required: true, demo: { pick: ['Entrepôt central', 'Dépôt terrain'] } },
      code: { type: 'char', string: 'Short Name', required: true, demo: { pick: ['WH', 'DT'] } },
      sequence: { type: 'integer', demo: { int: [1, 10] } },
      active: { type: 'boolean' },
    },
  },
  {
    name: 'stock.picking.type',
    description: 'Picking Type',
    order: 'sequence, id',
    // Odoo: `warehouse: name` when the type belongs to a warehouse.
    displayName: `COALESCE((SELECT w."name" FROM "stock_warehouse" w WHERE w."id" = t."warehouse_id") || ': ', '') || t."name"`,
    searchDisplayName: searchPickingTypeDisplayName,
    demoRows: 4,
    fields: {
      // No warehouse in the demo data (no random draw: the other demo values stay as they were).
      warehouse_id: { type: 'many2one', relation: 'stock.warehouse', string: 'Warehouse', demo: { value: null }, empty: 0 },
      name: { type: 'char', string: 'Operation Type', required: true, demo: { pick: ['Réceptions', 'Livraisons', 'Transferts internes', 'Retours fournisseurs'] } },
      code: {
        type: 'selection',
        string: 'Type of Operation',
        selection: [
          ['incoming', 'Receipt'],
          ['outgoing', 'Delivery'],
          ['internal', 'Internal Transfer'],
        ],
        required: true,
        demo: { pick: ['incoming', 'outgoing', 'internal', 'outgoing'] },
      },
      sequence_code: { type: 'char', string: 'Sequence Prefix', required: true, demo: { pick: ['IN', 'OUT', 'INT', 'RET'] } },
      sequence: { type: 'integer', demo: { int: [1, 10] } },
      // Required since 18.
      default_location_src_id: {
        type: 'many2one',
        relation: 'stock.location',
        string: 'Default Source Location',
        required: true,
        declaredUntil: [{ until: 17, required: false }],
        emptyBeforeRequired: 0.05,
      },
      default_location_dest_id: {
        type: 'many2one',
        relation: 'stock.location',
        string: 'Default Destination Location',
        required: true,
        declaredUntil: [{ until: 17, required: false }],
        emptyBeforeRequired: 0.05,
      },
      company_id: { type: 'many2one', relation: 'res.company', required: true },
      active: { type: 'boolean', truthy: 1 },
    },
  },
  {
    name: 'stock.picking',
    description: 'Transfer',
    order: 'priority desc, scheduled_date asc, id desc',
    demoRows: 250,
    fields: {
      name: { type: 'char', readonly: true, string: 'Reference', empty: 0, demo: { seq: 'WH/' } },
      origin: { type: 'char', string: 'Source Document', demo: { seq: 'PO' }, empty: 0.3 },
      picking_type_id: { type: 'many2one', relation: 'stock.picking.type', string: 'Operation Type', required: true },
      partner_id: { type: 'many2one', relation: 'res.partner', string: 'Contact', empty: 0.15 },
      location_id: { type: 'many2one', relation: 'stock.location', string: 'Source Location', required: true },
      location_dest_id: { type: 'many2one', relation: 'stock.location', string: 'Destination Location', required: true },
      scheduled_date: { type: 'datetime', string: 'Scheduled Date', empty: 0, demo: { days: [-365, 60] }, fractions: true },
      date_done: {
        type: 'datetime',
        string: 'Date of Transfer',
        declaredUntil: [{ until: 18, readonly: true }],
        demo: { after: 'scheduled_date', hours: [0, 96] },
        empty: 0.5,
        fractions: true,
      },
      priority: {
        type: 'selection',
        selection: [
          ['0', 'Normal'],
          ['1', 'Urgent'],
        ],
        empty: 0,
      },
      state: {
        type: 'selection',
        readonly: true,
        string: 'Status',
        selection: [
          ['draft', 'Draft'],
          ['waiting', 'Waiting Another Operation'],
          ['confirmed', 'Waiting'],
          ['assigned', 'Ready'],
          ['done', 'Done'],
          ['cancel', 'Cancelled'],
        ],
        empty: 0,
      },
      company_id: { type: 'many2one', readonly: true, relation: 'res.company', empty: 0 },
    },
  },
];
