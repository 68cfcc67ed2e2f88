/**
 * @module What a `warn`-mode gateway does about drift when serving a resource, derived from the
 * problems:
 * - a resource whose model is missing, or whose scope needs a field the ERP lacks or cannot search,
 *   is unavailable (serving it without its scope could show records nobody meant to expose);
 * - a field whose ERP field (or `related` comodel field) is missing is left out of the ERP read and
 *   answered as `null`;
 * - a filter or sort key on such a field is unavailable (asked for, it answers 503 naming the field:
 *   ignoring it would return records the caller did not ask for); the default order drops it.
 */
import { GatewayError } from '../errors';
import type { ListQuery } from '../query/parse-query';
import type { ResourceSpec } from '../resource-spec';
import type { DriftKind, DriftProblem } from './drift-problem';

/** A resource, filter or field missing in the ERP comes back with a fix and a restart (the check runs at start-up), not soon. */
const DRIFT_RETRY_AFTER_S = 300;

export interface DriftGaps {
  /** Why every route of the resource answers 503 (a missing model, an unusable scope). */
  readonly unavailable?: string;
  /** ERP fields of the resource's model to leave out of `search_read`. */
  readonly erpFields: ReadonlySet<string>;
  /** API fields answered as `null`. */
  readonly apiFields: ReadonlySet<string>;
  /** Filters that cannot be applied, with the reason. */
  readonly filters: ReadonlyMap<string, string>;
  /** API sort keys that cannot be used, with the reason. */
  readonly sortKeys: ReadonlyMap<string, string>;
  /** ERP fields of the default order that the ERP cannot sort on (left out of it). */
  readonly defaultOrderDrops: ReadonlySet<string>;
  /** Aggregate dimensions and measures (API names) the ERP cannot group or aggregate, with the reason. */
  readonly aggregates: ReadonlyMap<string, string>;
}

export const NO_GAPS: DriftGaps = Object.freeze({
  erpFields: new Set<string>(),
  apiFields: new Set<string>(),
  filters: new Map<string, string>(),
  sortKeys: new Map<string, string>(),
  defaultOrderDrops: new Set<string>(),
  aggregates: new Map<string, string>(),
});

/** Kinds that make a filter or the scope impossible to send. */
const BREAKS_SEARCH: ReadonlySet<DriftKind> = new Set(['missing_model', 'missing_field', 'not_searchable']);
/** Kinds that make a sort key impossible to send. */
const BREAKS_SORT: ReadonlySet<DriftKind> = new Set(['missing_model', 'missing_field', 'not_sortable']);
/** Kinds that make a grouped read on a field impossible. */
const BREAKS_GROUPING: ReadonlySet<DriftKind> = new Set(['missing_model', 'missing_field', 'not_groupable']);

export function driftGapsOf(resource: ResourceSpec, problems: readonly DriftProblem[]): DriftGaps {
  const mine = problems.filter((p) => p.resource === resource.path);
  if (mine.length === 0) return NO_GAPS;
  const ownModel = mine.find((p) => p.kind === 'missing_model' && p.model === resource.model);
  if (ownModel) return { ...NO_GAPS, unavailable: `The ERP has no model ${resource.model} (catalogue drift): ${resource.path} is unavailable.` };
  const scope = mine.find((p) => BREAKS_SEARCH.has(p.kind) && p.uses.includes('scope'));
  if (scope) return { ...NO_GAPS, unavailable: `${resource.path} is unavailable: its scope needs ${qualified(scope)}, and ${scope.detail} (catalogue drift).` };

  const missing = (model: string, field: string) => mine.some((p) => p.model === model && ((p.kind === 'missing_field' && p.field === field) || p.kind === 'missing_model'));
  const erpFields = new Set<string>();
  const apiFields = new Set<string>();
  for (const field of resource.fields) {
    const source = field.source;
    if (source.kind === 'id' || source.kind === 'url') continue;
    if (missing(resource.model, source.erp)) {
      erpFields.add(source.erp);
      apiFields.add(field.name);
    } else if (source.kind === 'related' && missing(source.comodel, source.comodelField)) {
      apiFields.add(field.name);
    }
  }
  const filters = new Map<string, string>();
  const sortKeys = new Map<string, string>();
  const defaultOrderDrops = new Set<string>();
  const aggregates = new Map<string, string>();
  for (const problem of mine) {
    const reason = `${qualified(problem)}: ${problem.detail} (catalogue drift)`;
    for (const use of problem.uses) {
      if (use.startsWith('filter ') && BREAKS_SEARCH.has(problem.kind)) filters.set(use.slice('filter '.length), reason);
      else if (use.startsWith('order ') && BREAKS_SORT.has(problem.kind)) sortKeys.set(use.slice('order '.length), reason);
      else if (use === 'default order' && BREAKS_SORT.has(problem.kind)) defaultOrderDrops.add(problem.field);
      else if ((use.startsWith('dimension ') || use.startsWith('measure ')) && BREAKS_GROUPING.has(problem.kind)) aggregates.set(use.slice(use.indexOf(' ') + 1), reason);
    }
  }
  if (!erpFields.size && !apiFields.size && !filters.size && !sortKeys.size && !defaultOrderDrops.size && !aggregates.size) return NO_GAPS;
  return { erpFields, apiFields, filters, sortKeys, defaultOrderDrops, aggregates };
}

function qualified(problem: DriftProblem): string {
  return problem.field ? `${problem.model}.${problem.field}` : problem.model;
}

/** 503 `unavailable` for what drift makes impossible to serve faithfully. */
export function driftUnavailable(message: string): GatewayError {
  return new GatewayError('unavailable', message, { headers: { 'Retry-After': String(DRIFT_RETRY_AFTER_S) } });
}

/** The list query as it can be sent to this ERP: refused if it needs a filter or sort key the ERP lacks. */
export function servableListQuery(query: ListQuery, gaps: DriftGaps): ListQuery {
  if (gaps === NO_GAPS) return query;
  for (const term of query.filters) {
    const reason = gaps.filters.get(term.filter.name);
    if (reason) throw driftUnavailable(`The filter ${term.filter.name} is unavailable: ${reason}.`);
  }
  for (const key of query.sortKeys) {
    const reason = gaps.sortKeys.get(key);
    if (reason) throw driftUnavailable(`Sorting by ${key} is unavailable: ${reason}.`);
  }
  if (query.sortKeys.length || query.sinceId !== undefined || !gaps.defaultOrderDrops.size) return query;
  const order = query.order
    .split(',')
    .filter((term) => !gaps.defaultOrderDrops.has(term.trim().split(/\s+/)[0] ?? ''))
    .join(',')
    .trim();
  return { ...query, order };
}
