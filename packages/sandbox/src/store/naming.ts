/**
 * @module SQL names of the sandbox store: one table per model (dots become underscores, as in
 * Odoo), one relation table per many2many field. Every other module asks here.
 */

/** `fleet.vehicle` → `fleet_vehicle`. */
export function tableName(model: string): string {
  return model.replace(/\./g, '_');
}

/** Relation table of a many2many field: `<table>_<field>_rel(a, b)`, `a` = this model's id. */
export function relationTableName(model: string, field: string): string {
  return `${tableName(model)}_${field}_rel`;
}

/** Double-quoted SQL identifier; the names come from model definitions, never from callers. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `alias."column"`. */
export function column(alias: string, name: string): string {
  return `${alias}.${quoteIdent(name)}`;
}
