/**
 * @module The indexes Odoo creates for the tables the sandbox imitates, and nothing more: the sandbox
 * costs what Odoo costs (issue 31). Read from `pg_indexes` of the live Odoo 17.0, 18.0 and 19.0
 * databases (demo data; account, event, fleet, purchase, stock installed), kept where every column
 * is one the sandbox's table has and the index is a b-tree (SQLite has no trigram GIN index: Odoo's
 * `index='trigram'` on `stock_picking.name`, `origin` and the like has no equivalent, so an `ilike`
 * on them scans the sandbox's table where PostgreSQL may use the index). The dumps and the query
 * that made them: `packages/sandbox/test/fixtures/odoo-indexes-*.txt`; `odoo-indexes.test.ts` holds
 * this list, and the indexes of a sandbox database of each version, to them.
 *
 * Besides these: the primary key (`id`, SQLite's rowid) and, on every many2many relation table, the
 * pair Odoo gives them (a unique `(a, b)` primary key and an index on `(b, a)`). Models stock Odoo
 * does not have (the organisation's own modules: travel, sprint, space, ...) have no index of
 * `index=True` fields known here, so none. Odoo creates no index on `create_date` or `write_date`.
 */
import type { OdooVersion } from './types';

export interface OdooIndex {
  readonly table: string;
  /** Odoo's name of the index (the sandbox's index has the same name). */
  readonly name: string;
  readonly columns: readonly string[];
  /** A unique constraint (`_sql_constraints`, `models.Constraint`, `unique=True`). */
  readonly unique?: true;
  /** `index='btree_not_null'`: only the rows where the column is set (`WHERE col IS NOT NULL`). */
  readonly notNull?: true;
  /** 18/19's index of a company-dependent field: `((col IS NOT NULL)) WHERE col IS NOT NULL`. */
  readonly isSet?: true;
  /** The versions whose databases have it; every one when absent. */
  readonly versions?: readonly OdooVersion[];
}

const ODOO_INDEXES: readonly OdooIndex[] = [
  { table: 'account_analytic_account', name: 'account_analytic_account__code_index', columns: ['code'] },
  { table: 'account_analytic_account', name: 'account_analytic_account__partner_id_index', columns: ['partner_id'], notNull: true, versions: [19] },
  { table: 'account_analytic_account', name: 'account_analytic_account__plan_id_index', columns: ['plan_id'], versions: [19] },
  { table: 'account_analytic_plan', name: 'account_analytic_plan__default_applicability_index', columns: ['default_applicability'], isSet: true, versions: [18, 19] },
  { table: 'account_analytic_plan', name: 'account_analytic_plan__parent_id_index', columns: ['parent_id'], notNull: true, versions: [19] },
  { table: 'event_event_ticket', name: 'event_event_ticket__event_id_index', columns: ['event_id'], versions: [19] },
  { table: 'event_registration', name: 'event_registration__event_id_index', columns: ['event_id'], versions: [19] },
  { table: 'event_registration', name: 'event_registration__event_ticket_id_index', columns: ['event_ticket_id'], notNull: true, versions: [19] },
  { table: 'event_registration', name: 'event_registration__partner_id_index', columns: ['partner_id'], notNull: true, versions: [19] },
  { table: 'fleet_vehicle_log_services', name: 'fleet_vehicle_log_services__vehicle_id_index', columns: ['vehicle_id'], versions: [19] },
  { table: 'fleet_vehicle_model', name: 'fleet_vehicle_model__brand_id_index', columns: ['brand_id'], notNull: true, versions: [19] },
  { table: 'fleet_vehicle_state', name: 'fleet_vehicle_state_fleet_state_name_unique', columns: ['name'], unique: true },
  { table: 'product_attribute_value', name: 'product_attribute_value__attribute_id_index', columns: ['attribute_id'] },
  { table: 'product_attribute_value', name: 'product_attribute_value__sequence_index', columns: ['sequence'] },
  { table: 'product_attribute_value', name: 'product_attribute_value_value_company_uniq', columns: ['name', 'attribute_id'], unique: true, versions: [17] },
  { table: 'product_attribute', name: 'product_attribute__sequence_index', columns: ['sequence'] },
  { table: 'product_product', name: 'product_product__default_code_index', columns: ['default_code'] },
  { table: 'product_template_attribute_line', name: 'product_template_attribute_line__attribute_id_index', columns: ['attribute_id'] },
  { table: 'product_template_attribute_value', name: 'product_template_attribute_value__attribute_id_index', columns: ['attribute_id'] },
  { table: 'product_template_attribute_value', name: 'product_template_attribute_value__attribute_line_id_index', columns: ['attribute_line_id'] },
  { table: 'product_template_attribute_value', name: 'product_template_attribute_value__product_attribute_va_63041d9e', columns: ['product_attribute_value_id'] },
  {
    table: 'product_template_attribute_value',
    name: 'product_template_attribute_value_attribute_value_unique',
    columns: ['attribute_line_id', 'product_attribute_value_id'],
    unique: true,
  },
  { table: 'purchase_order_line', name: 'purchase_order_line__date_planned_index', columns: ['date_planned'] },
  { table: 'purchase_order_line', name: 'purchase_order_line__order_id_index', columns: ['order_id'] },
  { table: 'purchase_order_line', name: 'purchase_order_line__product_id_index', columns: ['product_id'], notNull: true },
  { table: 'purchase_order', name: 'purchase_order__company_id_index', columns: ['company_id'] },
  { table: 'purchase_order', name: 'purchase_order__date_approve_index', columns: ['date_approve'] },
  { table: 'purchase_order', name: 'purchase_order__date_order_index', columns: ['date_order'] },
  { table: 'purchase_order', name: 'purchase_order__date_planned_index', columns: ['date_planned'] },
  { table: 'purchase_order', name: 'purchase_order__partner_id_index', columns: ['partner_id'], versions: [19] },
  { table: 'purchase_order', name: 'purchase_order__priority_index', columns: ['priority'] },
  { table: 'purchase_order', name: 'purchase_order__state_index', columns: ['state'] },
  { table: 'purchase_order', name: 'purchase_order__user_id_index', columns: ['user_id'] },
  { table: 'res_company', name: 'res_company__parent_id_index', columns: ['parent_id'] },
  { table: 'res_company', name: 'res_company_name_uniq', columns: ['name'], unique: true },
  { table: 'res_country', name: 'res_country_code_uniq', columns: ['code'], unique: true },
  { table: 'res_country', name: 'res_country_name_uniq', columns: ['name'], unique: true },
  { table: 'res_currency', name: 'res_currency_unique_name', columns: ['name'], unique: true },
  { table: 'res_partner', name: 'res_partner__company_id_index', columns: ['company_id'] },
  { table: 'res_partner', name: 'res_partner__complete_name_index', columns: ['complete_name'] },
  { table: 'res_partner', name: 'res_partner__name_index', columns: ['name'] },
  { table: 'res_partner', name: 'res_partner__parent_id_index', columns: ['parent_id'] },
  { table: 'res_users', name: 'res_users__partner_id_index', columns: ['partner_id'] },
  { table: 'res_users', name: 'res_users_login_key', columns: ['login'], unique: true },
  { table: 'stock_location', name: 'stock_location__company_id_index', columns: ['company_id'] },
  { table: 'stock_location', name: 'stock_location__usage_index', columns: ['usage'] },
  { table: 'stock_lot', name: 'stock_lot__company_id_index', columns: ['company_id'] },
  { table: 'stock_lot', name: 'stock_lot__product_id_index', columns: ['product_id'] },
  { table: 'stock_picking_type', name: 'stock_picking_type__company_id_index', columns: ['company_id'] },
  { table: 'stock_picking', name: 'stock_picking__company_id_index', columns: ['company_id'] },
  { table: 'stock_picking', name: 'stock_picking__partner_id_index', columns: ['partner_id'], notNull: true },
  { table: 'stock_picking', name: 'stock_picking__picking_type_id_index', columns: ['picking_type_id'] },
  { table: 'stock_picking', name: 'stock_picking__scheduled_date_index', columns: ['scheduled_date'] },
  { table: 'stock_picking', name: 'stock_picking__state_index', columns: ['state'] },
  { table: 'stock_picking', name: 'stock_picking_name_uniq', columns: ['name', 'company_id'], unique: true },
  { table: 'stock_quant', name: 'stock_quant__location_id_index', columns: ['location_id'] },
  { table: 'stock_quant', name: 'stock_quant__lot_id_index', columns: ['lot_id'] },
  { table: 'stock_quant', name: 'stock_quant__product_id_index', columns: ['product_id'] },
  { table: 'uom_uom', name: 'uom_uom__relative_uom_id_index', columns: ['relative_uom_id'], notNull: true, versions: [19] },
];

/** The indexes of `version`. */
export function odooIndexes(version: OdooVersion): OdooIndex[] {
  return ODOO_INDEXES.filter((index) => !index.versions || index.versions.includes(version));
}
