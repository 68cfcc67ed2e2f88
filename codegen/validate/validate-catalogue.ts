/**
 * @module Checks catalogue files: first against the JSON Schema (ajv, every error at once), then the
 * rules a schema cannot say (cross references inside a resource, duplicate routes). Each problem is
 * located at its file, line and column and says what is wrong in a sentence.
 */
import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';
import { basename } from 'node:path';
import type { CatalogueError } from '../catalogue-error';
import { locate, type CatalogueFile } from '../load/load-catalogue';
import { COMMON_LIST_PARAMETERS } from '../model/catalogue-model';
import { checkAggregate } from '../kinds/aggregate/aggregate-catalogue';
import type { RawCache, RawDomain, RawField, RawFilter, RawResource } from '../model/raw';

type Path = readonly (string | number)[];

export function validateCatalogue(files: readonly CatalogueFile[], schema: object): CatalogueError[] {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true, verbose: true });
  const validate = ajv.compile(schema);
  const errors: CatalogueError[] = [];
  const routes = new Map<string, string>();
  for (const file of files) {
    const report = (path: Path, message: string, key = false) => errors.push({ file: file.path, ...locate(file, path, key), message });
    if (!validate(file.data)) {
      for (const problem of explainSchemaErrors(validate.errors ?? [])) report(problem.path, problem.message, problem.key);
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
  return errors;
}

type Report = (path: Path, message: string, key?: boolean) => void;

/** A stale window extends a TTL: with the TTL set to 0 (not cached) it would never apply. */
function checkCache(cache: RawCache | undefined, inherited: RawCache | undefined, at: Path, report: Report): void {
  if (!cache?.stale_while_revalidate) return;
  const ttl = cache.ttl ?? inherited?.ttl;
  if (ttl === 0) report([...at, 'stale_while_revalidate'], 'stale_while_revalidate extends the TTL, and the TTL here is 0 (not cached): remove one of them');
}

function checkResource(resource: RawResource, at: Path, report: Report): void {
  const id = resource.fields.id;
  if (id?.type !== 'integer' || id.erp !== 'id') report([...at, 'fields'], "every resource needs an 'id' field: { type: integer, erp: id }");
  for (const [name, field] of Object.entries(resource.fields)) checkField(name, field, [...at, 'fields', name], report);
  checkDefaultOrder(resource, at, report);
  for (const [name, filter] of Object.entries(resource.filters ?? {})) checkFilter(name, filter, resource, [...at, 'filters', name], report);
  checkAggregate(resource, at, report);
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
  for (const term of resource.default_order.split(',')) {
    const field = term.trim().split(/\s+/)[0] ?? '';
    used.add(field);
    const why = unsortable.get(field);
    if (why) report([...at, 'default_order'], `default_order uses '${field}', ${why}: the ERP cannot sort on it`);
    else if (!sortable.has(field) && !orderOnly.includes(field))
      report(
        [...at, 'default_order'],
        `default_order uses '${field}', which no field of this resource reads: fix the name, or list it under 'order_only' if the model has it and the resource does not expose it`,
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
  if ((COMMON_LIST_PARAMETERS as readonly string[]).includes(name)) report(at, `filter '${name}' has the name of a common parameter`, true);
  let type = filter.type;
  if (filter.field !== undefined) {
    const field = resource.fields[filter.field];
    if (!field) {
      report([...at, 'field'], `filter '${name}' is on field '${filter.field}', which the resource does not define`);
      return;
    }
    type = filterTypeOfField(field, filter.op);
    if (type === undefined) {
      report([...at, 'field'], `filter '${name}': field '${filter.field}' cannot be filtered (its value is not a field of the model)`);
      return;
    }
  }
  if (type === 'enum' && filter.field === undefined && !filter.values) report(at, `filter '${name}' is an enum filter without values: add 'values'`, true);
  if (filter.values && type !== 'enum') report([...at, 'values'], `filter '${name}': 'values' applies to enum filters only`);
  const ops = OPS_BY_TYPE[type ?? ''] ?? [];
  if (!ops.includes(filter.op)) report([...at, 'op'], `filter '${name}': operator '${filter.op}' does not apply to ${type} values (use ${ops.join(', ')})`);
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
  readonly key: boolean;
}

/** Turns ajv's errors into one sentence per problem, dropping the noise of `oneOf` branches. */
function explainSchemaErrors(errors: readonly ErrorObject[]): SchemaProblem[] {
  const oneOfPaths = errors.filter((e) => e.keyword === 'oneOf').map((e) => e.instancePath);
  const kept = errors.filter((e) => e.keyword === 'oneOf' || !oneOfPaths.some((p) => e.instancePath.startsWith(p) && (e.instancePath !== p || e.keyword !== 'oneOf')));
  const problems = new Map<string, SchemaProblem>();
  for (const error of kept) {
    const path = error.instancePath
      .split('/')
      .slice(1)
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
    const where = path.length ? path.join('.') : 'file';
    let message: string;
    let key = false;
    let at: Path = path;
    switch (error.keyword) {
      case 'additionalProperties': {
        const extra = (error.params as { additionalProperty: string }).additionalProperty;
        message = `unknown key '${extra}' in ${where}`;
        at = [...path, extra];
        key = true;
        break;
      }
      case 'required':
        message = `${where} lacks the required key '${(error.params as { missingProperty: string }).missingProperty}'`;
        break;
      case 'enum':
        message = `${where} must be one of: ${((error.params as { allowedValues: unknown[] }).allowedValues ?? []).join(', ')}`;
        break;
      case 'oneOf':
        message =
          path[path.length - 1] === 'erp'
            ? `${where} must be an ERP field name, or one of {field[, computed]}, {many2one, comodel}, {related: [many2one, field], comodel}, {x2many, comodel[, first]}, {distribution}, {distribution_accounts, comodel}, {gateway: url}`
            : `${where} must say either 'field' (an exposed field) or 'erp' with 'type' (an ERP field), not both`;
        break;
      case 'propertyNames':
        continue;
      case 'pattern':
        message = `${where} '${String(valueAt(error))}' is not a valid name here (${(error.params as { pattern: string }).pattern})`;
        if (error.propertyName) message = `name '${error.propertyName}' in ${where} is not valid (${(error.params as { pattern: string }).pattern})`;
        break;
      default:
        message = `${where} ${error.message ?? 'is invalid'}`;
    }
    if (error.propertyName) {
      at = [...path, error.propertyName];
      key = true;
    }
    problems.set(`${at.join('.')}|${message}`, { path: at, message, key });
  }
  return [...problems.values()];
}

function valueAt(error: ErrorObject): unknown {
  return (error as ErrorObject & { data?: unknown }).data ?? '';
}
