/**
 * @module The model registry: model definitions (`sandbox/models/`, whose `loadRegistry` builds
 * the sandbox's own), validated once and completed with the fields Odoo adds to every model (`id`,
 * `display_name`, `create_date`, `write_date`, `create_uid`, `write_uid`). Everything else in the
 * sandbox reads models from a registry.
 */
import { relationTableName, tableName } from '../store/naming';
import type { FieldDef, FieldType, ModelDef } from './model-def';
import { parseOrder } from './order-grammar';
import type { OdooVersion } from './types';

export interface FieldInfo {
  readonly name: string;
  readonly type: FieldType;
  /** Label (`fields_get` `string`). */
  readonly string: string;
  readonly help?: string;
  /** Char `size`: Odoo's `convert_to_cache` cuts a domain value to it (`s[:size]`). */
  readonly size?: number;
  readonly relation?: string;
  readonly inverse?: string;
  readonly selection?: readonly (readonly [string, string])[];
  readonly required: boolean;
  readonly readonly: boolean;
  /**
   * Has a column in the model's table (x2many and computed fields do not; related ones do). What
   * Odoo reports as `store` is `odooStore` (field-flags.ts).
   */
  readonly store: boolean;
  /** Odoo's `related` path (the field is not stored in Odoo). */
  readonly related?: string;
  /** Related through `_inherits`. */
  readonly inherited?: true;
  /** SQL expression over alias `t` giving the value of a computed field (display_name included). */
  readonly compute?: string;
  /** Model whose read right reading this field needs. */
  readonly requires?: string;
  readonly digits?: number;
  /** many2many: `<table>_<field>_rel(a, b)`. */
  readonly relationTable?: string;
  /** Added by the registry, not by the model definition. */
  readonly magic: boolean;
  /**
   * Overrides of the derived flags (field-flags.ts): a computed field Odoo cannot search, or drift
   * on purpose (registry-drift.ts). `order` and domains refuse what `fields_get` reports as not
   * sortable or not searchable.
   */
  readonly sortable?: boolean;
  readonly searchable?: boolean;
  /** The definition (demo hints); absent for magic fields. */
  readonly def?: FieldDef;
}

export interface ModelInfo {
  readonly name: string;
  readonly description: string;
  readonly table: string;
  /** `_order`, `id` when the definition has none (the version's own: `modelOrder`). */
  readonly order: string;
  /** `display_name` as an SQL expression over alias `t` (may be NULL: read as `false`). */
  readonly displayNameSql: string;
  /** Every field, in Odoo's order: the definition's fields, then the magic ones (`id` first). */
  readonly fields: ReadonlyMap<string, FieldInfo>;
  /** Fields with a column, `id` first. */
  readonly columns: readonly FieldInfo[];
  /** Models with an `active` field hide archived rows in searches (`active_test`). */
  readonly hasActive: boolean;
  /** `parent_id` when it points to the model itself (`child_of` / `parent_of`). */
  readonly parentField?: string;
  readonly demoRows: number;
  readonly def: ModelDef;
}

export interface Registry {
  readonly models: ReadonlyMap<string, ModelInfo>;
  get(model: string): ModelInfo | undefined;
  /** Like `get`, for names known to exist (a relation validated at load). */
  require(model: string): ModelInfo;
}

/** The model's `_order` in that Odoo version. */
export function modelOrder(model: ModelInfo, version: OdooVersion): string {
  return model.def.orderByVersion?.[version] ?? model.order;
}

/** Validates the definitions (all problems at once) and builds the registry. */
export function buildRegistry(defs: readonly ModelDef[]): Registry {
  const problems = validateDefinitions(defs);
  if (problems.length) {
    throw new Error(`Invalid sandbox model definitions:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
  const byName = new Map(defs.map((d) => [d.name, d]));
  const models = new Map<string, ModelInfo>();
  for (const def of defs) models.set(def.name, buildModel(def, byName));
  return registryOf(models);
}

/** A registry over already built models (the drift options build a modified copy). */
export function registryOf(models: ReadonlyMap<string, ModelInfo>): Registry {
  return {
    models,
    get: (model) => models.get(model),
    require(model) {
      const info = models.get(model);
      if (!info) throw new Error(`Unknown model ${model}`);
      return info;
    },
  };
}

function buildModel(def: ModelDef, defs: ReadonlyMap<string, ModelDef>): ModelInfo {
  // Odoo's order: the class's fields, then the magic ones its metaclass adds.
  const fields = new Map<string, FieldInfo>();
  for (const [name, fdef] of Object.entries(def.fields)) fields.set(name, buildField(def, name, fdef));
  fields.set('id', magic('id', 'integer', 'ID', { store: true }));
  fields.set('display_name', magic('display_name', 'char', 'Display Name', { compute: displayNameSql(def, defs) }));
  const logAccess: [string, FieldType, string][] = [
    ['create_uid', 'many2one', 'Created by'],
    ['create_date', 'datetime', 'Created on'],
    ['write_uid', 'many2one', 'Last Updated by'],
    ['write_date', 'datetime', 'Last Updated on'],
  ];
  for (const [name, type, label] of logAccess) {
    if (fields.has(name)) continue;
    fields.set(name, magic(name, type, label, { store: true, ...(type === 'many2one' ? { relation: 'res.users' } : {}) }));
  }
  const parent = def.fields['parent_id'];
  return {
    name: def.name,
    description: def.description,
    table: tableName(def.name),
    order: def.order ?? 'id',
    displayNameSql: fields.get('display_name')!.compute!,
    fields,
    columns: [fields.get('id')!, ...[...fields.values()].filter((f) => f.store && f.name !== 'id')],
    hasActive: def.fields['active']?.type === 'boolean',
    ...(parent?.type === 'many2one' && parent.relation === def.name ? { parentField: 'parent_id' } : {}),
    demoRows: def.demoRows,
    def,
  };
}

function buildField(model: ModelDef, name: string, def: FieldDef): FieldInfo {
  const computed = def.compute !== undefined;
  const x2many = def.type === 'one2many' || def.type === 'many2many';
  return {
    name,
    type: def.type,
    string: def.string ?? defaultLabel(name),
    ...(def.help !== undefined ? { help: def.help } : {}),
    ...(def.size !== undefined ? { size: def.size } : {}),
    ...(def.relation !== undefined ? { relation: def.relation } : {}),
    ...(def.inverse !== undefined ? { inverse: def.inverse } : {}),
    ...(def.selection !== undefined ? { selection: def.selection } : {}),
    required: def.required ?? false,
    readonly: def.readonly ?? computed,
    store: !computed && !x2many,
    ...(computed ? { compute: def.compute } : {}),
    ...(def.searchable === false ? { searchable: false } : {}),
    ...(def.related !== undefined ? { related: def.related } : {}),
    ...(def.inherited ? { inherited: true as const } : {}),
    ...(def.requires !== undefined ? { requires: def.requires } : {}),
    ...(def.digits !== undefined ? { digits: def.digits } : {}),
    ...(def.type === 'many2many' ? { relationTable: relationTableName(model.name, name) } : {}),
    magic: false,
    def,
  };
}

function magic(name: string, type: FieldType, label: string, extra: { store?: boolean; compute?: string; relation?: string }): FieldInfo {
  return {
    name,
    type,
    string: label,
    required: false,
    readonly: true,
    store: extra.store ?? false,
    ...(extra.compute !== undefined ? { compute: extra.compute } : {}),
    ...(extra.relation !== undefined ? { relation: extra.relation } : {}),
    magic: true,
  };
}

/** Odoo's default label: `partner_id` → `Partner`, `license_plate` → `License Plate`. */
export function defaultLabel(name: string): string {
  const base = name.endsWith('_ids') ? name.slice(0, -4) : name.endsWith('_id') ? name.slice(0, -3) : name;
  return base.replace(/_/g, ' ').replace(/[A-Za-z]+/g, (w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase());
}

/**
 * `display_name` as SQL: the model's own expression, else its `_rec_name` field (a many2one
 * rec name shows the comodel's display name, an empty string shows as `false`), else
 * `<model>,<id>` as Odoo's `_compute_display_name` does for models without a name.
 */
function displayNameSql(def: ModelDef, defs: ReadonlyMap<string, ModelDef>, depth = 0): string {
  const alias = depth === 0 ? 't' : `_rn${depth}`;
  const rename = (expr: string) => (depth === 0 ? expr : expr.replace(/\bt\."/g, `${alias}."`));
  if (def.displayName) return rename(def.displayName);
  const recName = def.recName ?? (def.fields['name'] ? 'name' : undefined);
  const field = recName ? def.fields[recName] : undefined;
  if (!recName || !field) return `'${def.name},' || ${alias}."id"`;
  if (field.compute) return rename(field.compute);
  if (field.type === 'many2one' && field.relation && depth < 3) {
    const comodel = defs.get(field.relation);
    if (comodel) {
      const inner = `_rn${depth + 1}`;
      const coExpr = displayNameSql(comodel, defs, depth + 1);
      return `(SELECT ${coExpr} FROM "${tableName(comodel.name)}" ${inner} WHERE ${inner}."id" = ${alias}."${recName}")`;
    }
  }
  if (field.type === 'char' || field.type === 'text' || field.type === 'html' || field.type === 'selection') {
    return `NULLIF(${alias}."${recName}", '')`;
  }
  return `CAST(${alias}."${recName}" AS TEXT)`;
}

const NAME_RE = /^[a-z][a-z0-9_]*$/;
const MAGIC_ONLY = new Set(['id', 'display_name']);
const LOG_ACCESS = new Set(['id', 'create_date', 'write_date', 'create_uid', 'write_uid']);

/** Every problem of the definitions, with the model and field it concerns. */
export function validateDefinitions(defs: readonly ModelDef[]): string[] {
  const problems: string[] = [];
  const byName = new Map<string, ModelDef>();
  for (const def of defs) {
    if (byName.has(def.name)) problems.push(`${def.name}: defined twice`);
    byName.set(def.name, def);
  }
  for (const def of defs) {
    const at = (field: string) => `${def.name}.${field}`;
    for (const [name, field] of Object.entries(def.fields)) {
      if (!NAME_RE.test(name)) problems.push(`${at(name)}: invalid field name`);
      if (MAGIC_ONLY.has(name)) problems.push(`${at(name)}: reserved name (added by the registry)`);
      problems.push(...validateField(def, field, byName).map((p) => `${at(name)}: ${p}`));
    }
    const recName = def.recName;
    if (recName && !def.fields[recName]) problems.push(`${def.name}: recName '${recName}' is not a field`);
    for (const order of [def.order, ...Object.values(def.orderByVersion ?? {})]) {
      if (order !== undefined) problems.push(...validateOrder(def, order).map((p) => `${def.name}: ${p}`));
    }
  }
  return problems;
}

function validateField(model: ModelDef, field: FieldDef, models: ReadonlyMap<string, ModelDef>): string[] {
  const problems: string[] = [];
  const relational = field.type === 'many2one' || field.type === 'one2many' || field.type === 'many2many';
  if (relational) {
    const comodel = field.relation ? models.get(field.relation) : undefined;
    if (!field.relation) problems.push('relational field without relation');
    else if (!comodel) problems.push(`relation '${field.relation}' is not a defined model`);
    if (field.type === 'one2many' && comodel) {
      const inverse = field.inverse ? comodel.fields[field.inverse] : undefined;
      if (!field.inverse) problems.push('one2many without inverse');
      else if (!inverse) problems.push(`inverse '${field.inverse}' is not a field of ${comodel.name}`);
      else if (inverse.type !== 'many2one' || inverse.relation !== model.name) {
        problems.push(`inverse '${comodel.name}.${field.inverse}' is not a many2one to ${model.name}`);
      }
    }
    if (field.compute !== undefined) problems.push('relational fields cannot be computed');
  } else if (field.relation) {
    problems.push(`relation on a ${field.type} field`);
  }
  if (field.searchable === false && field.compute === undefined) problems.push('searchable: false on a field that is not computed');
  if (field.related !== undefined && field.compute !== undefined) problems.push('a field is computed or related, not both');
  if (field.inherited && field.related === undefined) problems.push('inherited without related');
  if (field.type === 'selection' && !field.selection?.length) problems.push('selection without values');
  if (field.requires && !models.has(field.requires)) problems.push(`requires '${field.requires}' is not a defined model`);
  const demo = field.demo;
  if (demo && 'copy' in demo) problems.push(...validateCopy(model, demo.copy, models));
  if (demo && 'after' in demo && !model.fields[demo.after]) problems.push(`demo.after '${demo.after}' is not a field`);
  if (demo && 'links' in demo && field.type !== 'many2many') problems.push('demo.links on a field that is not a many2many');
  return problems;
}

function validateCopy(model: ModelDef, path: string, models: ReadonlyMap<string, ModelDef>): string[] {
  const [first, rest] = path.split('.', 2) as [string, string | undefined];
  const field = model.fields[first];
  if (!field) return [`demo.copy '${path}': '${first}' is not a field`];
  if (rest === undefined) return [];
  const comodel = field.type === 'many2one' && field.relation ? models.get(field.relation) : undefined;
  if (!comodel) return [`demo.copy '${path}': '${first}' is not a many2one`];
  const target = comodel.fields[rest];
  if (!target && !LOG_ACCESS.has(rest)) return [`demo.copy '${path}': '${rest}' is not a field of ${comodel.name}`];
  if (target && (target.compute !== undefined || target.type === 'one2many' || target.type === 'many2many')) {
    return [`demo.copy '${path}': '${rest}' is not stored`];
  }
  return [];
}

function validateOrder(def: ModelDef, order: string): string[] {
  const terms = parseOrder(order, 19);
  if (!terms) return [`order '${order}' is not a valid order string`];
  const problems: string[] = [];
  for (const term of terms) {
    if (LOG_ACCESS.has(term.field)) continue;
    const field = def.fields[term.field];
    if (!field) problems.push(`order field '${term.field}' is not a field`);
    else if (field.compute !== undefined || field.type === 'one2many' || field.type === 'many2many') {
      problems.push(`order field '${term.field}' is not stored`);
    }
  }
  return problems;
}
