/**
 * @module Checks catalogue files: first against the JSON Schema (ajv, every error at once), then the
 * rules a schema cannot say (cross references inside a resource, duplicate routes). Each problem is
 * located at its file, line and column, names its key, says what is wrong in a sentence and, where
 * there is a list or a shape to give, what is allowed there (with the closest allowed name to a
 * misspelt one).
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import { basename } from 'node:path';
import type { CatalogueError } from '../catalogue-error';
import { locate, type CatalogueFile } from '../load/load-catalogue';
import { COMMON_LIST_PARAMETERS, EXPORT_PARAMETERS } from '../model/catalogue-model';
import { checkAggregate } from '../kinds/aggregate/aggregate-catalogue';
import { closest } from './closest';
import type { RawCache, RawDomain, RawField, RawFilter, RawRelation, RawResource } from '../model/raw';

type Path = readonly (string | number)[];

/** The schema's compiled validator, by the schema's text: compiling is most of a check (the dev loop checks on every save). */
const validators = new Map<string, ValidateFunction>();

function validatorOf(schema: object): ValidateFunction {
  const text = JSON.stringify(schema);
  let validate = validators.get(text);
  if (!validate) {
    validate = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true, verbose: true }).compile(schema);
    validators.set(text, validate);
  }
  return validate;
}

export function validateCatalogue(files: readonly CatalogueFile[], schema: object): CatalogueError[] {
  const validate = validatorOf(schema);
  const errors: CatalogueError[] = [];
  const routes = new Map<string, string>();
  for (const file of files) {
    const report: Report = (path, message, options = {}) =>
      errors.push({ file: file.path, ...locate(file, path, options.atKey ?? false), key: keyPath(path), message, ...(options.allowed ? { allowed: options.allowed } : {}) });
    if (!validate(file.data)) {
      for (const problem of explainSchemaErrors(validate.errors ?? [])) report(problem.path, problem.message, problem);
      continue;
    }
    const domain = file.data as RawDomain;
    const expected = basename(file.path, '.yaml');
    if (domain.domain !== expected) report(['domain'], `domain '${domain.domain}' must match the file name '${expected}.yaml'`);
    const seen = routes.get(domain.domain);
    if (seen) report(['domain'], `domain '${domain.domain}' is already defined in ${seen}: each route must be defined once`);
    else routes.set(domain.domain, file.path);
    checkCache(domain.cache, undefined, ['cache'], report);
    for (const [name, resource] of Object.entries(domain.resources)) {
      checkResource(resource, ['resources', name], report);
      checkCache(resource.cache, domain.cache, ['resources', name, 'cache'], report);
    }
  }
  if (errors.length === 0) checkRelations(files, errors);
  return errors;
}

/**
 * Relations join two resources of the catalogue, possibly of two files: both ends must exist, the
 * link (`via`) must be an integer many2one field of the resource that holds it, pointing to the other
 * end's model, and a `to_many` relation needs the related resource's `=` filter on the link (its
 * records beyond the bound per record are paged with it). A relation's name is not one of the
 * resource's fields (both would be keys of the same record).
 */
function checkRelations(files: readonly CatalogueFile[], errors: CatalogueError[]): void {
  const resources = new Map<string, RawResource>();
  for (const file of files) {
    const domain = file.data as RawDomain;
    for (const [name, resource] of Object.entries(domain.resources)) resources.set(`${domain.domain}/${name}`, resource);
  }
  for (const file of files) {
    const domain = file.data as RawDomain;
    for (const [name, resource] of Object.entries(domain.resources))
      for (const [relationName, relation] of Object.entries(resource.relations ?? {})) {
        const problem = relationProblem(`${domain.domain}/${name}`, resource, relationName, relation, resources);
        if (!problem) continue;
        const at = ['resources', name, 'relations', relationName, ...(problem.key ? [problem.key] : [])];
        errors.push({
          file: file.path,
          ...locate(file, at, problem.key === undefined),
          key: keyPath(at),
          message: problem.message,
          ...(problem.allowed ? { allowed: problem.allowed } : {}),
        });
      }
  }
}

function relationProblem(
  path: string,
  resource: RawResource,
  name: string,
  relation: RawRelation,
  resources: ReadonlyMap<string, RawResource>,
): { key?: string; message: string; allowed?: string } | undefined {
  const many = relation.to_many !== undefined;
  const targetPath = (relation.to_many ?? relation.to_one) as string;
  const key = many ? 'to_many' : 'to_one';
  if (resource.fields[name]) return { message: `relation '${name}' of ${path} has the name of one of its fields: name it otherwise (both would be keys of the same record)` };
  const target = resources.get(targetPath);
  if (!target)
    return { key, message: `relation '${name}' of ${path} points to ${targetPath}, which the catalogue does not define`, allowed: namesAllowed(targetPath, [...resources.keys()]) };
  const [holder, holderPath, pointed] = many ? [target, targetPath, resource] : [resource, path, target];
  const links = Object.entries(holder.fields)
    .filter(([, f]) => f.type === 'integer' && typeof f.erp === 'object' && 'many2one' in f.erp && f.erp.comodel === pointed.model)
    .map(([fieldName]) => fieldName);
  const allowed = links.length ? namesAllowed(relation.via, links) : `no integer many2one field of ${holderPath} points to ${pointed.model}`;
  const field = holder.fields[relation.via];
  if (!field) return { key: 'via', message: `relation '${name}' of ${path}: ${holderPath} has no field '${relation.via}' to hold the link`, allowed };
  const erp = field.erp;
  if (typeof erp !== 'object' || !('many2one' in erp) || field.type !== 'integer')
    return {
      key: 'via',
      message: `relation '${name}' of ${path}: field '${relation.via}' of ${holderPath} is not an integer many2one ({ many2one: <field>, comodel: <model> }, type integer)`,
      allowed,
    };
  if (erp.comodel !== pointed.model)
    return {
      key: 'via',
      message: `relation '${name}' of ${path}: field '${relation.via}' of ${holderPath} points to ${erp.comodel}, not to ${many ? path : targetPath}'s model ${pointed.model}`,
      allowed,
    };
  if (many && !Object.values(target.filters ?? {}).some((filter) => filter.field === relation.via && filter.op === '='))
    return {
      key: 'via',
      message: `relation '${name}' of ${path}: ${targetPath} needs a filter { op: "=", field: ${relation.via} } (its records beyond the bound per record are paged with it)`,
    };
  return undefined;
}

/** `atKey`: located at the map key rather than its value; `allowed`: what the catalogue accepts there. */
type Report = (path: Path, message: string, options?: { readonly atKey?: boolean; readonly allowed?: string | undefined }) => void;

/** `['resources', 'things', 'order_only', 0]` → `resources.things.order_only[0]`. */
function keyPath(path: Path): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');
}

/** `a, b, c`, or `a, b, ... (N in all)` past `max`. */
function listed(names: readonly string[], max = 12): string {
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown}, ... (${names.length} in all)` : shown;
}

/** The allowed names, with the one closest to `given` first when it is close enough to be a typo. */
function namesAllowed(given: string, names: readonly string[]): string {
  const near = closest(given, names);
  return `${near ? `did you mean '${near}'? ` : ''}${listed(names)}`;
}

/** A stale window extends a TTL: with the TTL set to 0 (not cached) it would never apply. */
function checkCache(cache: RawCache | undefined, inherited: RawCache | undefined, at: Path, report: Report): void {
  if (!cache?.stale_while_revalidate) return;
  const ttl = cache.ttl ?? inherited?.ttl;
  if (ttl === 0) report([...at, 'stale_while_revalidate'], 'stale_while_revalidate extends the TTL, and the TTL here is 0 (not cached): remove one of them');
}

function checkResource(resource: RawResource, at: Path, report: Report): void {
  const id = resource.fields.id;
  if (id?.type !== 'integer' || id.erp !== 'id') report([...at, 'fields'], "every resource needs an 'id' field", { allowed: 'id: { type: integer, description: ..., erp: id }' });
  for (const [name, field] of Object.entries(resource.fields)) checkField(name, field, [...at, 'fields', name], report);
  checkJoinKeys(resource, at, report);
  checkDefaultOrder(resource, at, report);
  for (const [name, filter] of Object.entries(resource.filters ?? {})) checkFilter(name, filter, resource, [...at, 'filters', name], report);
  checkAggregate(resource, at, report);
}

/**
 * What names another record comes with that record's id, so that a consumer joins by id, never by a
 * name (names repeat, and change): a many2one's name with the many2one's id, an x2many's names with
 * its ids, the accounts of an analytic distribution with the distribution (keyed by account id), and
 * a value read through a many2one (`related`) with that many2one's id.
 */
function checkJoinKeys(resource: RawResource, at: Path, report: Report): void {
  const fields = Object.entries(resource.fields);
  const exposes = (test: (erp: Exclude<RawField['erp'], string>, field: RawField) => boolean) =>
    fields.some(([, field]) => typeof field.erp === 'object' && test(field.erp, field));
  const idOf = (many2one: string) => exposes((erp, field) => 'many2one' in erp && erp.many2one === many2one && field.type === 'integer');
  for (const [name, field] of fields) {
    const erp = field.erp;
    if (typeof erp !== 'object') continue;
    const where = [...at, 'fields', name];
    if ('many2one' in erp && field.type === 'string' && !idOf(erp.many2one))
      report(
        where,
        `field '${name}' gives the name of a ${erp.comodel} record without its id: add '${name}_id: { type: integer, description: ..., erp: { many2one: ${erp.many2one}, comodel: ${erp.comodel} } }' beside it, so that joins never go by name`,
      );
    if ('x2many' in erp && (erp.first || field.items === 'string') && !exposes((other, f) => 'x2many' in other && other.x2many === erp.x2many && f.items === 'integer'))
      report(
        where,
        `field '${name}' gives names of ${erp.comodel} records without their ids: add a field '{ type: array, items: integer, description: ..., erp: { x2many: ${erp.x2many}, comodel: ${erp.comodel} } }' beside it, so that joins never go by name`,
      );
    if ('related' in erp && !idOf(erp.related[0]))
      report(
        where,
        `field '${name}' is read through the many2one '${erp.related[0]}', whose id the resource does not give: add '{ type: integer, description: ..., erp: { many2one: ${erp.related[0]}, comodel: ${erp.comodel} } }', so that joins never go by name`,
      );
    if ('distribution_accounts' in erp && !exposes((other) => 'distribution' in other && other.distribution === erp.distribution_accounts))
      report(
        where,
        `field '${name}' gives the names of analytic accounts without their ids: add '{ type: string, description: ..., erp: { distribution: ${erp.distribution_accounts} } }' (keyed by account id) beside it, so that joins never go by name`,
      );
  }
}

/**
 * Every field of `default_order` must be one the model can sort on and the catalogue knows: `id`,
 * the ERP field of a stored field or many2one of the resource, or one listed in `order_only`. A typo
 * (`licence_plate`) would otherwise reach the ERP with every request and fail all of them.
 */
function checkDefaultOrder(resource: RawResource, at: Path, report: Report): void {
  const sortable = new Map<string, string>([['id', '']]);
  const unsortable = new Map<string, string>();
  for (const [name, field] of Object.entries(resource.fields)) {
    const erp = field.erp;
    if (typeof erp === 'string') sortable.set(erp, name);
    else if ('field' in erp) erp.computed ? unsortable.set(erp.field, `which this resource maps as computed (field '${name}')`) : sortable.set(erp.field, name);
    else if ('many2one' in erp) sortable.set(erp.many2one, name);
    else if ('related' in erp) sortable.set(erp.related[0], name);
    else if ('x2many' in erp) unsortable.set(erp.x2many, `an x2many (field '${name}')`);
    else if ('distribution' in erp) unsortable.set(erp.distribution, `a JSON distribution (field '${name}')`);
    else if ('distribution_accounts' in erp) unsortable.set(erp.distribution_accounts, `a JSON distribution (field '${name}')`);
  }
  const orderOnly = resource.order_only ?? [];
  const used = new Set<string>();
  const allowed = (field: string) => `${namesAllowed(field, [...sortable.keys(), ...orderOnly])} (ERP field names), or a field listed under 'order_only'`;
  for (const term of resource.default_order.split(',')) {
    const field = term.trim().split(/\s+/)[0] ?? '';
    used.add(field);
    const why = unsortable.get(field);
    if (why) report([...at, 'default_order'], `default_order uses '${field}', ${why}: the ERP cannot sort on it`, { allowed: allowed(field) });
    else if (!sortable.has(field) && !orderOnly.includes(field))
      report(
        [...at, 'default_order'],
        `default_order uses '${field}', which no field of this resource reads: fix the name, or list it under 'order_only' if the model has it and the resource does not expose it`,
        { allowed: allowed(field) },
      );
  }
  orderOnly.forEach((field, i) => {
    if (!used.has(field)) report([...at, 'order_only', i], `order_only lists '${field}', which default_order does not use`);
    else if (sortable.has(field) || unsortable.has(field)) report([...at, 'order_only', i], `order_only lists '${field}', which a field of this resource already reads`);
  });
}

function checkField(name: string, field: RawField, at: Path, report: Report): void {
  const erp = field.erp;
  if (field.format && field.type !== 'string') report([...at, 'format'], `field '${name}': 'format' applies to strings only`);
  if (field.enum && field.type !== 'string') report([...at, 'enum'], `field '${name}': 'enum' applies to strings only`);
  if ((field.type === 'array') !== (field.items !== undefined))
    report([...at, field.items ? 'items' : 'type'], `field '${name}': arrays need 'items' (string or integer), and only arrays have them`);
  if (erp === 'id' && name !== 'id') report([...at, 'erp'], `field '${name}': only the 'id' field maps onto the ERP's id`);
  if (typeof erp === 'object' && 'many2one' in erp && field.type !== 'integer' && field.type !== 'string')
    report([...at, 'type'], `field '${name}': a many2one gives its id (type integer) or its name (type string)`);
  if (typeof erp === 'object' && 'x2many' in erp) {
    const ok = erp.first ? field.type === 'string' : field.type === 'array';
    if (!ok) report([...at, 'type'], `field '${name}': an x2many gives an array (names or ids), or with 'first: true' a string`);
  }
  if (typeof erp === 'object' && ('distribution' in erp || 'gateway' in erp) && field.type !== 'string') report([...at, 'type'], `field '${name}': this source gives a string`);
  if (typeof erp === 'object' && 'distribution_accounts' in erp && (field.type !== 'array' || field.items !== 'string'))
    report([...at, 'type'], `field '${name}': distribution accounts are an array of strings (account names)`);
  if (field.sortable && !isPlainStored(field))
    report([...at, 'sortable'], `field '${name}' cannot be sortable: only plain stored fields of the model itself can be used in 'order'`);
}

/** A field stored on the model itself: what `order` may use (spec: not derived from a relation, not computed). */
export function isPlainStored(field: RawField): boolean {
  if (field.type === 'array') return false;
  if (typeof field.erp === 'string') return true;
  return 'field' in field.erp && !field.erp.computed;
}

const OPS_BY_TYPE: Readonly<Record<string, readonly string[]>> = {
  integer: ['=', '>=', '<='],
  number: ['=', '>=', '<='],
  string: ['=', 'ilike'],
  boolean: ['='],
  date: ['=', '>=', '<='],
  'date-time': ['>=', '<='],
  enum: ['='],
  'integer-list': ['in'],
};

function checkFilter(name: string, filter: RawFilter, resource: RawResource, at: Path, report: Report): void {
  const common: readonly string[] = [...new Set([...COMMON_LIST_PARAMETERS, ...EXPORT_PARAMETERS])];
  if (common.includes(name)) report(at, `filter '${name}' has the name of a common parameter`, { atKey: true, allowed: `any filter name but ${common.join(', ')}` });
  let type = filter.type;
  if (filter.field !== undefined) {
    const field = resource.fields[filter.field];
    if (!field) {
      report([...at, 'field'], `filter '${name}' is on field '${filter.field}', which the resource does not define`, {
        allowed: `a field of this resource: ${namesAllowed(filter.field, Object.keys(resource.fields))}; or 'erp' with 'type' for an ERP field it does not expose`,
      });
      return;
    }
    type = filterTypeOfField(field, filter.op);
    if (type === undefined) {
      report([...at, 'field'], `filter '${name}': field '${filter.field}' cannot be filtered (its value is not a field of the model)`);
      return;
    }
  }
  if (type === 'enum' && filter.field === undefined && !filter.values)
    report(at, `filter '${name}' is an enum filter without values: add 'values'`, { atKey: true, allowed: 'values: [a, b, ...] (the ERP values accepted)' });
  if (filter.values && type !== 'enum') report([...at, 'values'], `filter '${name}': 'values' applies to enum filters only`);
  const ops = OPS_BY_TYPE[type ?? ''] ?? [];
  if (!ops.includes(filter.op)) report([...at, 'op'], `filter '${name}': operator '${filter.op}' does not apply to ${type} values`, { allowed: ops.join(', ') });
}

/** The value type of a filter placed on an exposed field, or undefined when the field cannot be filtered. */
export function filterTypeOfField(field: RawField, op: RawFilter['op']): RawFilter['type'] {
  const erp = field.erp;
  const onModel = typeof erp === 'string' || 'field' in erp || 'related' in erp;
  const onRelationId = typeof erp === 'object' && (('many2one' in erp && field.type === 'integer') || ('x2many' in erp && field.items === 'integer'));
  if (!onModel && !onRelationId) return undefined;
  if (op === 'in') return 'integer-list';
  if (field.type === 'array') return 'integer';
  if (field.enum) return 'enum';
  if (field.type === 'string' && field.format) return field.format;
  return field.type;
}

interface SchemaProblem {
  readonly path: Path;
  readonly message: string;
  readonly atKey: boolean;
  readonly allowed?: string | undefined;
}

/** What the catalogue's name patterns accept, in words (the schema's `$defs` and `default_order`). */
const PATTERNS: Readonly<Record<string, string>> = {
  '^[a-z][a-z0-9]*(-[a-z0-9]+)*$': "lowercase letters and digits, words joined by '-' (a URL segment, such as 'stock-moves')",
  '^[a-z][a-z0-9_]*$': "lowercase letters, digits and '_', starting with a letter (such as 'fuel_type')",
  '^[a-z_][a-z0-9_]*$': "an ERP field name: lowercase letters, digits and '_' (such as 'license_plate')",
  '^[a-z_][a-z0-9_]*(\\.[a-z_][a-z0-9_]*)*$': "an ERP field name, or a path of them joined by '.' (such as 'vehicle_id.active')",
  '^[a-z_][a-z0-9_]*(\\.[a-z_][a-z0-9_]*)+$': "an ERP model name, words joined by '.' (such as 'fleet.vehicle')",
  '^[a-z_][a-z0-9_]*( (asc|desc))?(, ?[a-z_][a-z0-9_]*( (asc|desc))?)*$':
    "ERP field names, each optionally followed by 'asc' or 'desc', separated by commas (such as 'date desc, name')",
};

const ERP_SOURCES =
  'an ERP field name, or one of { field[, computed] }, { many2one, comodel }, { related: [many2one, field], comodel }, { x2many, comodel[, first] }, { distribution }, { distribution_accounts, comodel }, { gateway: url }';

/** A schema's bounds and type in words: `an integer from 0 to 86400`. */
function valueShape(schema: Record<string, unknown>): string | undefined {
  const types = ([] as unknown[]).concat(schema['type'] ?? []).map(String);
  if (types.length === 0) return undefined;
  const names: Record<string, string> = { integer: 'an integer', number: 'a number', string: 'a string', boolean: 'true or false', array: 'a list', object: 'a map of keys' };
  const shape = types.map((type) => names[type] ?? type).join(' or ');
  const { minimum, maximum, minLength } = schema as { minimum?: number; maximum?: number; minLength?: number };
  if (minimum !== undefined && maximum !== undefined) return `${shape} from ${minimum} to ${maximum}`;
  if (minimum !== undefined) return `${shape} of at least ${minimum}`;
  if (maximum !== undefined) return `${shape} of at most ${maximum}`;
  if (minLength) return `${shape}, not empty`;
  return shape;
}

/** The value as written, for messages: `'5s'`, `86401`. */
function shown(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : (JSON.stringify(value) ?? String(value));
}

/** Turns ajv's errors into one sentence per problem, with what is allowed, dropping the noise of `oneOf` branches. */
function explainSchemaErrors(errors: readonly ErrorObject[]): SchemaProblem[] {
  const oneOfPaths = errors.filter((e) => e.keyword === 'oneOf').map((e) => e.instancePath);
  const kept = errors.filter((e) => e.keyword === 'oneOf' || !oneOfPaths.some((p) => e.instancePath.startsWith(p) && (e.instancePath !== p || e.keyword !== 'oneOf')));
  const problems = new Map<string, SchemaProblem>();
  for (const error of kept) {
    const path = error.instancePath
      .split('/')
      .slice(1)
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
    const parent = (error.parentSchema ?? {}) as Record<string, unknown>;
    const value = valueAt(error);
    let message: string;
    let allowed: string | undefined;
    let atKey = false;
    let at: Path = path;
    switch (error.keyword) {
      case 'additionalProperties': {
        const extra = (error.params as { additionalProperty: string }).additionalProperty;
        message = `unknown key '${extra}'`;
        allowed = namesAllowed(extra, Object.keys((parent['properties'] as object | undefined) ?? {}));
        at = [...path, extra];
        atKey = true;
        break;
      }
      case 'required':
        message = `the required key '${(error.params as { missingProperty: string }).missingProperty}' is missing`;
        allowed = `the keys ${listed((parent['required'] as string[] | undefined) ?? [])} are required here`;
        break;
      case 'enum': {
        const values = ((error.params as { allowedValues: unknown[] }).allowedValues ?? []).map(String);
        message = `${shown(value)} is not a value allowed here`;
        allowed = namesAllowed(String(value), values);
        break;
      }
      case 'oneOf':
        if (path[path.length - 1] === 'erp') {
          message = 'this is not a source of values the gateway knows';
          allowed = ERP_SOURCES;
        } else if (path.includes('relations')) {
          message = "a relation says either 'to_many' or 'to_one' (the related resource), not both";
          allowed = '{ to_many: <domain>/<resource>, via } or { to_one: <domain>/<resource>, via }';
        } else {
          message = "a filter says either 'field' (an exposed field) or 'erp' with 'type' (an ERP field), not both";
          allowed = '{ op, field } or { op, erp, type[, values] }';
        }
        break;
      case 'propertyNames':
        continue;
      case 'pattern': {
        const pattern = (error.params as { pattern: string }).pattern;
        allowed = PATTERNS[pattern] ?? `text matching ${pattern}`;
        message = error.propertyName ? `the name '${error.propertyName}' is not valid here` : `${shown(value)} is not valid here`;
        break;
      }
      case 'type':
      case 'minimum':
      case 'maximum':
      case 'minLength':
        message = error.keyword === 'minLength' ? 'must not be empty' : `${shown(value)} is not allowed here`;
        allowed = valueShape(parent);
        break;
      default:
        message = error.message ?? 'is invalid';
    }
    if (error.propertyName) {
      at = [...path, error.propertyName];
      atKey = true;
    }
    problems.set(`${at.join('.')}|${message}`, { path: at, message, atKey, allowed });
  }
  return [...problems.values()];
}

function valueAt(error: ErrorObject): unknown {
  return (error as ErrorObject & { data?: unknown }).data ?? '';
}
