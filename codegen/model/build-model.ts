/**
 * @module Normalises validated catalogue files into the `CatalogueModel` the emitters read: defaults
 * resolved (nullability, sortability, filter types and ERP fields), collections sorted so that the
 * output is the same for the same input.
 */
import { buildAggregate } from '../kinds/aggregate/aggregate-catalogue';
import type { CatalogueFile } from '../load/load-catalogue';
import { filterTypeOfField, isPlainStored } from '../validate/validate-catalogue';
import type { CatalogueModel, DomainModel, FieldModel, FilterModel, RelationModel, ResourceModel } from './catalogue-model';
import type { RawCache, RawDomain, RawErpSource, RawField, RawFilter, RawRelation, RawResource } from './raw';
import type { FieldSource, FilterType } from '../../packages/gateway/runtime/resource-spec';

const byName = <T extends { name: string }>(a: T, b: T): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export function buildModel(files: readonly CatalogueFile[], version: string): CatalogueModel {
  const raws = new Map<string, RawResource>();
  for (const file of files) for (const [name, resource] of Object.entries((file.data as RawDomain).resources)) raws.set(`${(file.data as RawDomain).domain}/${name}`, resource);
  const domains = files.map((file) => buildDomain(file.data as RawDomain, file.path, raws));
  domains.sort((a, b) => (a.domain < b.domain ? -1 : 1));
  return { version, domains };
}

function buildDomain(raw: RawDomain, file: string, raws: ReadonlyMap<string, RawResource>): DomainModel {
  const resources = Object.entries(raw.resources).map(([name, resource]) => buildResource(raw.domain, name, resource, file, raw.cache, raws));
  resources.sort(byName);
  return { domain: raw.domain, title: raw.title, description: raw.description, file, resources };
}

function buildResource(domain: string, name: string, raw: RawResource, file: string, domainCache: RawCache | undefined, raws: ReadonlyMap<string, RawResource>): ResourceModel {
  const fields = Object.entries(raw.fields).map(([fieldName, field]) => buildField(fieldName, field));
  const filters = Object.entries(raw.filters ?? {}).map(([filterName, filter]) => buildFilter(filterName, filter, raw));
  const sortable: Record<string, string> = {};
  for (const field of fields) if (field.sortable) sortable[field.name] = erpFieldOf(field.source) ?? field.name;
  return {
    path: `${domain}/${name}`,
    domain,
    name,
    title: raw.title,
    description: raw.description,
    model: raw.model,
    defaultOrder: raw.default_order,
    defaultOrderText: apiOrderText(raw.default_order, sortable),
    scope: (raw.scope ?? []).map((term) => ({ erp: term.erp, op: term.op, value: term.value })),
    fields,
    filters,
    relations: Object.entries(raw.relations ?? {})
      .map(([relationName, relation]) => buildRelation(raw, relationName, relation, raws))
      .sort(byName),
    sortable,
    deprecated: raw.deprecated ?? false,
    ...aggregateOf(raw),
    ...cacheOf({ ...domainCache, ...raw.cache }),
    file,
  };
}

/** The resource's aggregate spec, absent with `aggregate: false`. */
function aggregateOf(raw: RawResource): Pick<ResourceModel, 'aggregate'> {
  const aggregate = buildAggregate(raw);
  return aggregate ? { aggregate } : {};
}

/** A relation (checked by validate-catalogue.ts: both ends exist, `via` is an integer many2one to the other end's model). */
function buildRelation(raw: RawResource, name: string, relation: RawRelation, raws: ReadonlyMap<string, RawResource>): RelationModel {
  const many = relation.to_many !== undefined;
  const target = (relation.to_many ?? relation.to_one) as string;
  const holder = many ? (raws.get(target) as RawResource) : raw;
  const erp = (holder.fields[relation.via] as RawField).erp as { many2one: string };
  const filter = many ? Object.entries(holder.filters ?? {}).find(([, f]) => f.field === relation.via && f.op === '=')?.[0] : undefined;
  const title = (raws.get(target) as RawResource).title.toLowerCase();
  return {
    name,
    kind: many ? 'to_many' : 'to_one',
    target,
    link: erp.many2one,
    via: relation.via,
    ...(filter ? { filter } : {}),
    description:
      relation.description ??
      (many ? `The ${title} of this record (${target} whose ${relation.via} is its id).` : `The record of ${target} that ${relation.via} points to (${title}).`),
  };
}

/** The resource's `cache` in the runtime's terms; nothing when the catalogue says nothing (the settings decide). */
function cacheOf(raw: RawCache): Pick<ResourceModel, 'cache'> {
  const cache = {
    ...(raw.ttl !== undefined ? { ttlSeconds: raw.ttl } : {}),
    ...(raw.stale_while_revalidate !== undefined ? { staleSeconds: raw.stale_while_revalidate } : {}),
    ...(raw.watch !== undefined ? { watch: raw.watch } : {}),
  };
  return Object.keys(cache).length ? { cache } : {};
}

function buildField(name: string, raw: RawField): FieldModel {
  const source = buildSource(raw);
  const defaultNullable = !(name === 'id' || raw.type === 'boolean' || raw.type === 'array');
  return {
    name,
    type: raw.type,
    ...(raw.format ? { format: raw.format } : {}),
    ...(raw.items ? { items: raw.items } : {}),
    ...(raw.enum ? { enum: raw.enum } : {}),
    nullable: raw.nullable ?? defaultNullable,
    personal: raw.personal ?? false,
    deprecated: raw.deprecated ?? false,
    description: raw.description,
    sortable: raw.sortable ?? isPlainStored(raw),
    source,
  };
}

function buildSource(raw: RawField): FieldSource {
  const erp: RawErpSource = raw.erp;
  if (erp === 'id') return { kind: 'id' };
  if (typeof erp === 'string') return { kind: 'field', erp, computed: false };
  if ('field' in erp) return { kind: 'field', erp: erp.field, computed: erp.computed ?? false };
  if ('many2one' in erp) return { kind: 'many2one', erp: erp.many2one, comodel: erp.comodel, take: raw.type === 'integer' ? 'id' : 'name' };
  if ('related' in erp) return { kind: 'related', erp: erp.related[0], comodel: erp.comodel, comodelField: erp.related[1] };
  if ('x2many' in erp) return { kind: 'x2many', erp: erp.x2many, comodel: erp.comodel, take: erp.first ? 'first' : raw.items === 'integer' ? 'ids' : 'names' };
  if ('distribution_accounts' in erp) return { kind: 'distribution_accounts', erp: erp.distribution_accounts, comodel: erp.comodel };
  if ('distribution' in erp) return { kind: 'distribution', erp: erp.distribution };
  return { kind: 'url' };
}

/** The ERP field a source reads on the model itself, if any. */
function erpFieldOf(source: FieldSource): string | undefined {
  switch (source.kind) {
    case 'id':
      return 'id';
    case 'url':
      return undefined;
    default:
      return source.erp;
  }
}

function buildFilter(name: string, raw: RawFilter, resource: RawResource): FilterModel {
  let erp: string;
  let type: FilterType;
  let values: readonly string[] | undefined;
  if (raw.field !== undefined) {
    const field = resource.fields[raw.field] as RawField;
    const source = buildSource(field);
    erp = source.kind === 'related' ? `${source.erp}.${source.comodelField}` : (erpFieldOf(source) as string);
    type = filterTypeOfField(field, raw.op) as FilterType;
    values = field.enum;
  } else {
    erp = raw.erp as string;
    type = raw.type as FilterType;
    values = raw.values;
  }
  return {
    name,
    op: raw.op,
    erp,
    type,
    ...(values && type === 'enum' ? { values } : {}),
    deprecated: raw.deprecated ?? false,
    description: raw.description ?? describeFilter(name, raw, type),
    example: exampleValue(type, values),
  };
}

const OP_WORDS: Readonly<Record<RawFilter['op'], string>> = {
  '=': 'equal to',
  ilike: 'containing (case-insensitive) the text',
  '>=': 'on or after / at least',
  '<=': 'on or before / at most',
  in: 'among the given',
};

function describeFilter(name: string, raw: RawFilter, type: FilterType): string {
  const subject = raw.field ?? raw.erp ?? name;
  if (raw.op === '>=' && (type === 'date' || type === 'date-time')) return `Records whose ${subject} is on or after the given date.`;
  if (raw.op === '<=' && (type === 'date' || type === 'date-time')) return `Records whose ${subject} is on or before the given date.`;
  if (raw.op === '>=') return `Records whose ${subject} is at least the given value.`;
  if (raw.op === '<=') return `Records whose ${subject} is at most the given value.`;
  if (raw.op === 'in') return `Records whose ${subject} is among the given ids (comma-separated or repeated).`;
  return `Records whose ${subject} is ${OP_WORDS[raw.op]} value.`;
}

function exampleValue(type: FilterType, values: readonly string[] | undefined): string {
  switch (type) {
    case 'integer':
      return '42';
    case 'number':
      return '1000';
    case 'string':
      return 'abc';
    case 'boolean':
      return 'true';
    case 'date':
      return '2026-01-31';
    case 'date-time':
      return '2026-01-31';
    case 'enum':
      return values?.[0] ?? '';
    case 'integer-list':
      return '3,5';
  }
}

/** `license_plate asc` → `plate asc` when every key is an exposed sortable field; else the ERP text. */
function apiOrderText(order: string, sortable: Readonly<Record<string, string>>): string {
  const byErp = new Map(Object.entries(sortable).map(([api, erp]) => [erp, api]));
  const terms = order.split(',').map((term) => term.trim().split(/\s+/));
  if (!terms.every(([field]) => field !== undefined && byErp.has(field))) return order;
  return terms.map(([field, dir]) => `${byErp.get(field as string)} ${dir ?? 'asc'}`).join(', ');
}
