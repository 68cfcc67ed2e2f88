/**
 * @module The ERP models whose changes an answer may show, so that change detection (change-watch.ts)
 * watches those and drops the answer when one of them changes: the resource's own model, and each
 * comodel whose names or values the answer holds (a many2one's name, a related field, an x2many's ids
 * or names, analytic distributions' account names), whose order the records follow (ordered by a
 * many2one: by the comodel's own order), or through which a filter chose them (`partner_id.name`);
 * with `expand`, each related resource's model and what its fields show.
 *
 * Without what the answer shows (an aggregate, or a route that does not say) every field of the
 * resource counts: the answer may show any of them. A path that names no field of the resource counts
 * every field too, but for `id` and its own columns: what cannot be placed is watched, never dropped.
 */
import type { FieldSpec, ResourceSpec } from '../resource-spec';

/** What one answer of a resource shows, read from its parsed query. */
export interface AnswerShows {
  /** The resource's fields in the answer. */
  readonly fields: readonly FieldSpec[];
  /** The ERP order the records follow (`partner_id asc, id asc`). */
  readonly order?: string;
  /** The ERP paths its filters go through (`state`, `partner_id.name`). */
  readonly filterPaths?: readonly string[];
  /** Related records expanded into it, with their fields. */
  readonly related?: readonly { readonly target: ResourceSpec; readonly fields: readonly FieldSpec[] }[];
}

const everyField = new WeakMap<ResourceSpec, readonly string[]>();

/** The models an answer of `resource` showing `shows` depends on (every field of it when not said). */
export function modelsShown(resource: ResourceSpec, shows?: AnswerShows): readonly string[] {
  if (!shows) return modelsOfEveryField(resource);
  const found = new Set<string>([resource.model]);
  addShownComodels(found, shows.fields);
  const paths = [...(shows.filterPaths ?? []), ...orderPaths(shows.order ?? '')];
  for (const path of paths) {
    const [head, ...rest] = path.split('.');
    if (head === 'id' && rest.length === 0) continue;
    const field = resource.fields.find((f) => 'erp' in f.source && f.source.erp === head);
    const comodel = field && 'comodel' in field.source ? field.source.comodel : undefined;
    if (field && !comodel && rest.length === 0) continue;
    if (comodel) {
      found.add(comodel);
      continue;
    }
    // Not placed (a column no field shows, or a path through one): every field's models, to be safe.
    for (const model of modelsOfEveryField(resource)) found.add(model);
  }
  for (const related of shows.related ?? []) {
    found.add(related.target.model);
    addShownComodels(found, related.fields);
  }
  return [...found];
}

function modelsOfEveryField(resource: ResourceSpec): readonly string[] {
  let models = everyField.get(resource);
  if (!models) {
    const found = new Set<string>([resource.model]);
    addShownComodels(found, resource.fields);
    models = [...found];
    everyField.set(resource, models);
  }
  return models;
}

/** The comodels whose data `fields` show: all but a many2one given as an id (the record's own column). */
function addShownComodels(found: Set<string>, fields: readonly FieldSpec[]): void {
  for (const field of fields) {
    const source = field.source;
    if (source.kind === 'many2one' && source.take === 'id') continue;
    if ('comodel' in source && typeof source.comodel === 'string') found.add(source.comodel);
  }
}

/** The ERP paths of an order string (`partner_id desc, id asc` → `partner_id`, `id`). */
function orderPaths(order: string): string[] {
  return order
    .split(',')
    .map((term) => term.trim().split(/\s+/)[0] ?? '')
    .filter((path) => path.length > 0);
}
