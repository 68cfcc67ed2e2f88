/**
 * @module Comodels shared by every domain: companies, partners, users, currencies, countries,
 * cities, products, units and departments. Named and shaped as in Odoo's `base`, `product`,
 * `uom` and `hr` modules (only the fields the catalogue reaches are defined).
 */
import type { ModelDef } from '../orm/model-def';
import { relationTableName } from '../store/naming';
import { DEMO_VARIANT_COMBINATIONS, searchVariantDisplayName, variantCombinationName } from './product-attributes';

export const BASE_MODELS: readonly ModelDef[] = [
  {
    name: 'res.company',
    description: 'Companies',
    order: 'sequence, name',
    demoRows: 3,
    fields: {
      name: { type: 'char', required: true, demo: { pick: ['Opérations Nord', 'Operations South', 'Réseau Est'] } },
      sequence: { type: 'integer', demo: { int: [1, 10] } },
      currency_id: { type: 'many2one', relation: 'res.currency', required: true },
      // Odoo's hierarchy (`child_of` / `parent_of` need it); the demo companies are all top level.
      parent_id: { type: 'many2one', relation: 'res.company', string: 'Parent Company', demo: { value: null }, empty: 0 },
    },
  },
  {
    name: 'res.currency',
    description: 'Currency',
    order: 'active desc, name',
    demoRows: 4,
    fields: {
      name: { type: 'char', size: 3, required: true, demo: { pick: ['EUR', 'XOF', 'USD', 'MAD'] } },
      symbol: { type: 'char', required: true, demo: { pick: ['€', 'F CFA', '$', 'DH'] } },
      active: { type: 'boolean', truthy: 1 },
    },
  },
  {
    name: 'res.country',
    description: 'Country',
    order: 'name',
    demoRows: 8,
    fields: {
      name: {
        type: 'char',
        required: true,
        demo: { pick: ['Sénégal', 'France', "Côte d'Ivoire", 'Mali', 'Belgique', 'Maroc', 'Bénin', 'Canada'] },
      },
      code: { type: 'char', required: true, demo: { pick: ['SN', 'FR', 'CI', 'ML', 'BE', 'MA', 'BJ', 'CA'] } },
    },
  },
  {
    name: 'res.city',
    description: 'City',
    order: 'name',
    demoRows: 24,
    fields: {
      name: { type: 'char', required: true, demo: { gen: 'city' } },
      country_id: { type: 'many2one', relation: 'res.country', required: true },
    },
  },
  {
    name: 'res.partner',
    description: 'Contact',
    order: 'complete_name ASC, id DESC',
    recName: 'complete_name',
    demoRows: 120,
    fields: {
      name: { type: 'char', empty: 0, demo: { gen: 'person' } },
      complete_name: { type: 'char', readonly: true, demo: { copy: 'name' }, empty: 0 },
      email: { type: 'char', demo: { gen: 'email' }, empty: 0.1 },
      phone: { type: 'char', demo: { gen: 'phone' }, empty: 0.2 },
      is_company: { type: 'boolean', truthy: 0.25 },
      city: { type: 'char', demo: { gen: 'city' } },
      street: { type: 'char', demo: { gen: 'street' } },
      country_id: { type: 'many2one', relation: 'res.country' },
      company_id: { type: 'many2one', relation: 'res.company', empty: 0.5 },
      active: { type: 'boolean', truthy: 0.95 },
      // Odoo's hierarchy (`child_of` / `parent_of` need it); no demo contact has a parent, so the
      // demo rows stay what they were (no random draw).
      parent_id: { type: 'many2one', relation: 'res.partner', string: 'Related Company', demo: { value: null }, empty: 0 },
    },
  },
  {
    name: 'res.users',
    description: 'User',
    order: 'name, login',
    recName: 'name',
    demoRows: 30,
    fields: {
      // Odoo delegates them to the user's partner (`_inherits`).
      name: { type: 'char', related: 'partner_id.name', inherited: true, empty: 0, demo: { gen: 'person' } },
      login: { type: 'char', required: true, demo: { gen: 'email' } },
      email: { type: 'char', related: 'partner_id.email', inherited: true, demo: { copy: 'login' } },
      partner_id: { type: 'many2one', relation: 'res.partner', required: true },
      company_id: { type: 'many2one', relation: 'res.company', required: true },
      active: { type: 'boolean', truthy: 1 },
    },
  },
  {
    name: 'uom.uom',
    description: 'Product Unit of Measure',
    order: 'sequence, relative_uom_id, id',
    // Before 19, units had categories and a ratio to the reference unit of theirs.
    orderByVersion: { 17: 'factor DESC, id', 18: 'factor DESC, id' },
    demoRows: 6,
    fields: {
      name: { type: 'char', required: true, demo: { pick: ['Units', 'kg', 'L', 'm', 'Hours', 'Days'] } },
      sequence: { type: 'integer', demo: { int: [1, 10] } },
      active: { type: 'boolean', truthy: 1 },
      // The demo units are all reference units (no random draw: the other demo values stay).
      relative_uom_id: { type: 'many2one', relation: 'uom.uom', string: 'Reference Unit', demo: { value: null }, empty: 0 },
      // 17/18: the ratio to the category's reference unit, set by hand; 19 computes it.
      factor: { type: 'float', string: 'Absolute Quantity', readonly: true, declaredUntil: [{ until: 18, required: true, readonly: false }], demo: { value: 1 }, empty: 0 },
    },
  },
  {
    name: 'product.product',
    description: 'Product Variant',
    order: 'default_code, name, id',
    // Odoo: `[code] name (combination)`, the combination of its attribute values when there is one.
    displayName: `(CASE WHEN NULLIF(t."default_code", '') IS NOT NULL THEN '[' || t."default_code" || '] ' ELSE '' END) || t."name" || COALESCE(' (' || ${variantCombinationName(relationTableName('product.product', 'product_template_attribute_value_ids'))} || ')', '')`,
    searchDisplayName: searchVariantDisplayName,
    nameSearch17: 'empty-matches-all',
    demoRows: 60,
    fields: {
      // name, uom_id and list_price: Odoo delegates them to the product template (`_inherits`).
      name: { type: 'char', required: true, related: 'product_tmpl_id.name', inherited: true, demo: { gen: 'title' } },
      default_code: { type: 'char', demo: { gen: 'code' }, empty: 0.2 },
      uom_id: { type: 'many2one', relation: 'uom.uom', required: true, related: 'product_tmpl_id.uom_id', inherited: true },
      list_price: { type: 'float', related: 'product_tmpl_id.list_price', inherited: true, demo: { float: [1, 2500] } },
      active: { type: 'boolean', truthy: 0.95 },
      product_template_attribute_value_ids: {
        type: 'many2many',
        relation: 'product.template.attribute.value',
        string: 'Attribute Values',
        demo: { links: DEMO_VARIANT_COMBINATIONS },
      },
    },
  },
  {
    name: 'hr.department',
    description: 'Department',
    order: 'name',
    recName: 'complete_name',
    demoRows: 8,
    fields: {
      name: {
        type: 'char',
        required: true,
        demo: { pick: ['Logistique', 'Finances', 'Programmes', 'Systèmes d’information', 'Ressources humaines', 'Direction', 'Achats', 'Communication'] },
      },
      complete_name: { type: 'char', demo: { copy: 'name' }, empty: 0 },
      company_id: { type: 'many2one', relation: 'res.company' },
      active: { type: 'boolean', truthy: 1 },
    },
  },
  {
    name: 'ops.environment',
    description: 'Environment (site or programme area served)',
    order: 'name',
    demoRows: 6,
    fields: {
      name: { type: 'char', required: true, demo: { pick: ['Siège Dakar', 'Base Thiès', 'Antenne Ziguinchor', 'Bureau Bamako', 'Camp Kédougou', 'Entrepôt Rufisque'] } },
      code: { type: 'char', demo: { pick: ['DKR', 'THS', 'ZIG', 'BKO', 'KDG', 'RUF'] } },
      company_id: { type: 'many2one', relation: 'res.company' },
      active: { type: 'boolean', truthy: 1 },
    },
  },
];
