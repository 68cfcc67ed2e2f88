/**
 * @module The drift comparison itself, pure: the catalogue's resources against the ERP schema
 * `fields_get` described, as a list of problems. Every ERP field the catalogue uses is checked where
 * it is used: field sources (type and relation), filter and scope paths (each hop, searchable),
 * the default order and the sortable map (sortable), the aggregate route's dimensions and measures
 * (groupable), and enums against selections both ways.
 */
import type { FieldSpec, ResourceSpec } from '../resource-spec';
import { DriftProblems, type DriftProblem } from './drift-problem';
import type { ErpField, ErpSchema } from './erp-schema';

/** ERP types a `field` source may read for each API type (records.ts `scalar` maps these). */
const FITS: Readonly<Record<FieldSpec['type'], readonly string[]>> = {
  integer: ['integer', 'many2one'],
  number: ['float', 'monetary', 'integer'],
  boolean: ['boolean'],
  string: ['char', 'text', 'html', 'selection', 'date', 'datetime'],
  array: [],
};
/** A `related` value that is itself a many2one pair reads as its id or its name (records.ts). */
const RELATED_FITS: Readonly<Record<FieldSpec['type'], readonly string[]>> = { ...FITS, string: [...FITS.string, 'many2one'] };
const X2MANY = ['one2many', 'many2many'];

export function compareCatalogue(resources: readonly ResourceSpec[], schema: ErpSchema): DriftProblem[] {
  const problems = new DriftProblems();
  for (const resource of resources) new ResourceComparison(resource, schema, problems).run();
  return problems.list();
}

class ResourceComparison {
  constructor(
    private readonly resource: ResourceSpec,
    private readonly schema: ErpSchema,
    private readonly problems: DriftProblems,
  ) {}

  run(): void {
    const { resource } = this;
    if (!this.model(resource.model, 'resource')) return;
    for (const field of resource.fields) this.source(field);
    for (const filter of resource.filters) {
      const target = this.path(filter.erp, `filter ${filter.name}`);
      if (target && filter.values) this.selection(target.model, target.name, target.field, filter.values, `filter ${filter.name}`);
    }
    for (const term of resource.scope) this.path(term.erp, 'scope');
    for (const name of orderFields(resource.defaultOrder)) this.sortable(name, 'default order');
    for (const [api, erp] of Object.entries(resource.sortable)) this.sortable(erp, `order ${api}`);
    for (const dimension of resource.aggregate?.dimensions ?? []) this.groupable(dimension.erp, `dimension ${dimension.name}`);
    for (const measure of resource.aggregate?.measures ?? []) this.groupable(measure.erp, `measure ${measure.name}`);
  }

  private add(kind: DriftProblem['kind'], model: string, field: string, detail: string, use: string): void {
    this.problems.add(this.resource.path, kind, model, field, detail, use);
  }

  /** The model's fields, or undefined (reported) when the ERP lacks it. */
  private model(model: string, use: string): Readonly<Record<string, ErpField>> | undefined {
    const fields = this.schema.get(model);
    if (!fields) this.add('missing_model', model, '', `model ${model} does not exist in the ERP`, use);
    return fields ?? undefined;
  }

  private field(model: string, name: string, use: string): ErpField | undefined {
    const fields = this.model(model, use);
    const field = fields?.[name];
    if (fields && !field) this.add('missing_field', model, name, `field ${model}.${name} does not exist in the ERP`, use);
    return field;
  }

  private source(spec: FieldSpec): void {
    const source = spec.source;
    const use = `field ${spec.name}`;
    const own = this.resource.model;
    switch (source.kind) {
      case 'id':
      case 'url':
        return;
      case 'field': {
        const erp = this.field(own, source.erp, use);
        if (erp) this.value(spec, own, source.erp, erp, use);
        return;
      }
      case 'many2one':
      case 'related': {
        const erp = this.field(own, source.erp, use);
        if (!erp) return;
        if (!this.relational(own, source.erp, erp, ['many2one'], source.comodel, use) || source.kind === 'many2one') return;
        const target = this.field(source.comodel, source.comodelField, use);
        if (target) this.value(spec, source.comodel, source.comodelField, target, use, RELATED_FITS);
        return;
      }
      case 'x2many': {
        const erp = this.field(own, source.erp, use);
        if (erp) this.relational(own, source.erp, erp, X2MANY, source.comodel, use);
        return;
      }
      case 'distribution':
      case 'distribution_accounts': {
        const erp = this.field(own, source.erp, use);
        if (erp && erp.type !== 'json') this.mismatch(own, source.erp, `catalogue ${source.kind} (json), ERP ${erp.type}`, use);
        return;
      }
    }
  }

  /** A relational field of one of `types` pointing to `comodel`; reports and returns false otherwise. */
  private relational(model: string, name: string, erp: ErpField, types: readonly string[], comodel: string, use: string): boolean {
    if (!types.includes(erp.type)) {
      this.mismatch(model, name, `catalogue ${types.join('/')} to ${comodel}, ERP ${erp.type}`, use);
      return false;
    }
    if (erp.relation !== comodel) {
      this.mismatch(model, name, `catalogue ${erp.type} to ${comodel}, ERP ${erp.type} to ${erp.relation ?? 'nothing'}`, use);
      return false;
    }
    return true;
  }

  /** A plain value read into `spec`: its type must fit, its selection must match the enum. */
  private value(spec: FieldSpec, model: string, name: string, erp: ErpField, use: string, fits = FITS): void {
    if (!fits[spec.type].includes(erp.type)) {
      this.mismatch(model, name, `catalogue ${spec.type}, ERP ${erp.type} (fits: ${fits[spec.type].join(', ') || 'none'})`, use);
      return;
    }
    if (spec.enum) this.selection(model, name, erp, spec.enum, use);
  }

  private selection(model: string, name: string, erp: ErpField, values: readonly string[], use: string): void {
    if (erp.type !== 'selection' || !erp.selection) return;
    const keys = erp.selection.map(([key]) => key);
    const extra = keys.filter((key) => !values.includes(key));
    const gone = values.filter((value) => !keys.includes(value));
    if (extra.length)
      this.add('selection_unknown_to_catalogue', model, name, `ERP value(s) ${quoted(extra)} not in the catalogue enum (a response would break the OpenAPI document)`, use);
    if (gone.length) this.add('selection_unknown_to_erp', model, name, `catalogue value(s) ${quoted(gone)} not in the ERP selection`, use);
  }

  /** Walks a dotted filter or scope path hop by hop; the last field must be searchable. */
  private path(path: string, use: string): { model: string; name: string; field: ErpField } | undefined {
    const hops = path.split('.');
    let model = this.resource.model;
    for (const [i, name] of hops.entries()) {
      const field = this.field(model, name, use);
      if (!field) return undefined;
      if (i === hops.length - 1) {
        if (field.searchable === false) this.add('not_searchable', model, name, `the ERP cannot search on ${model}.${name}`, use);
        return { model, name, field };
      }
      if (!field.relation) {
        this.mismatch(model, name, `path ${path} goes through ${name}, ERP ${field.type} (not relational)`, use);
        return undefined;
      }
      model = field.relation;
    }
    return undefined;
  }

  private sortable(name: string, use: string): void {
    const model = this.resource.model;
    const field = this.field(model, name, use);
    if (field?.sortable === false) this.add('not_sortable', model, name, `the ERP cannot sort on ${model}.${name}`, use);
  }

  /**
   * A grouped read (the aggregate route) needs a field the ERP can group: `groupable` from 18 on (a
   * related field that is not stored can be); on 17, which has no such attribute, a stored column.
   * Odoo refuses the others ("Cannot convert … to SQL").
   */
  private groupable(name: string, use: string): void {
    const model = this.resource.model;
    const field = this.field(model, name, use);
    if (field && (field.groupable ?? field.store !== false) === false)
      this.add('not_groupable', model, name, `the ERP cannot group or aggregate ${model}.${name} (not stored)`, use);
  }

  private mismatch(model: string, name: string, detail: string, use: string): void {
    this.add('type_mismatch', model, name, detail, use);
  }
}

/** Field names of an order string: `date desc, sequence asc` → `date`, `sequence`. */
export function orderFields(order: string): string[] {
  return order
    .split(',')
    .map((term) => term.trim().split(/\s+/)[0] ?? '')
    .filter((name) => name !== '');
}

function quoted(values: readonly string[]): string {
  return values.map((value) => `'${value}'`).join(', ');
}
