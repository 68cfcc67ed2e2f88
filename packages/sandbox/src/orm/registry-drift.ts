/**
 * @module Drift on purpose: a registry derived from another one with models or fields taken away,
 * selection values added, or what `fields_get` says of a field changed, so the gateway's catalogue
 * drift check can be tested against an ERP that no longer matches the catalogue. The database keeps
 * its tables and columns; only what the ORM and `fields_get` expose changes.
 */
import type { FieldType } from './model-def';
import { registryOf, type FieldInfo, type ModelInfo, type Registry } from './registry';

export interface RegistryDrift {
  /** Models to remove: the ERP answers for them as for an unknown model. */
  readonly removeModels?: readonly string[];
  /** `model.field` fields to remove. */
  readonly removeFields?: readonly string[];
  /** `model.field=value`: a selection value the ERP gains (label = value). */
  readonly addSelectionValues?: readonly string[];
  /** `model.field=value`: a selection value the ERP lacks (stock Odoo without the organisation's own). */
  readonly removeSelectionValues?: readonly string[];
  /** `model.field` fields `fields_get` reports as not sortable (and `order` refuses). */
  readonly unsortableFields?: readonly string[];
  /** `model.field` fields `fields_get` reports as not searchable. */
  readonly unsearchableFields?: readonly string[];
  /** `model.field=type`: the type `fields_get` reports for a field (the column is read as before). */
  readonly retypeFields?: readonly string[];
}

/** A drift naming a model or field the sandbox does not have (a typo in a test or on the command line). */
export class RegistryDriftError extends Error {
  override name = 'RegistryDriftError';
}

type FieldEdit = (field: FieldInfo) => FieldInfo | undefined;

/** The registry with `drift` applied; throws on a name that is not in `registry` (a typo in a test). */
export function applyRegistryDrift(registry: Registry, drift: RegistryDrift): Registry {
  const edits = new Map<string, FieldEdit[]>();
  const edit = (path: string, change: FieldEdit) => {
    const [model, field] = splitPath(path);
    if (!registry.get(model)?.fields.has(field)) throw new RegistryDriftError(`no field ${path} in the sandbox`);
    edits.set(path, [...(edits.get(path) ?? []), change]);
  };
  for (const path of drift.removeFields ?? []) edit(path, () => undefined);
  for (const path of drift.unsortableFields ?? []) edit(path, (f) => ({ ...f, sortable: false }));
  for (const path of drift.unsearchableFields ?? []) edit(path, (f) => ({ ...f, searchable: false }));
  for (const item of drift.retypeFields ?? []) {
    const [path, type] = splitAssignment(item);
    edit(path, (f) => ({ ...f, type: type as FieldType }));
  }
  for (const item of drift.addSelectionValues ?? []) {
    const [path, value] = splitAssignment(item);
    edit(path, (f) => {
      if (f.type !== 'selection') throw new RegistryDriftError(`${path} is not a selection field`);
      if (f.selection?.some(([key]) => key === value)) throw new RegistryDriftError(`${path} already has the value '${value}'`);
      return { ...f, selection: [...(f.selection ?? []), [value, value] as const] };
    });
  }
  for (const item of drift.removeSelectionValues ?? []) {
    const [path, value] = splitAssignment(item);
    edit(path, (f) => {
      if (!f.selection?.some(([key]) => key === value)) throw new RegistryDriftError(`${path} has no value '${value}'`);
      return { ...f, selection: f.selection.filter(([key]) => key !== value) };
    });
  }
  const removed = new Set(drift.removeModels ?? []);
  for (const model of removed) if (!registry.get(model)) throw new RegistryDriftError(`no model ${model} in the sandbox`);

  const models = new Map<string, ModelInfo>();
  for (const [name, model] of registry.models) {
    if (removed.has(name)) continue;
    models.set(name, editModel(model, edits));
  }
  return registryOf(models);
}

function editModel(model: ModelInfo, edits: ReadonlyMap<string, FieldEdit[]>): ModelInfo {
  if (![...model.fields.keys()].some((field) => edits.has(`${model.name}.${field}`))) return model;
  const fields = new Map<string, FieldInfo>();
  for (const [name, field] of model.fields) {
    let edited: FieldInfo | undefined = field;
    for (const change of edits.get(`${model.name}.${name}`) ?? []) edited = edited && change(edited);
    if (edited) fields.set(name, edited);
  }
  const columns = model.columns.filter((column) => fields.has(column.name)).map((column) => fields.get(column.name) as FieldInfo);
  // A real model's own `_order` never names a field it lacks (Odoo could not load it): a removed
  // field leaves the default order too.
  const order =
    model.order
      .split(',')
      .filter((term) => fields.has(term.trim().split(/\s+/)[0] ?? ''))
      .join(',')
      .trim() || 'id';
  // Without its `active` field a model hides no record (`active_test` needs the field).
  return { ...model, fields, columns, order, hasActive: model.hasActive && fields.has('active') };
}

/** `fleet.vehicle.license_plate` → [`fleet.vehicle`, `license_plate`]: the field is the last part. */
function splitPath(path: string): [string, string] {
  const dot = path.lastIndexOf('.');
  if (dot <= 0) throw new RegistryDriftError(`'${path}' is not model.field`);
  return [path.slice(0, dot), path.slice(dot + 1)];
}

function splitAssignment(item: string): [string, string] {
  const equals = item.indexOf('=');
  if (equals <= 0 || equals === item.length - 1) throw new RegistryDriftError(`'${item}' is not model.field=value`);
  return [item.slice(0, equals), item.slice(equals + 1)];
}
