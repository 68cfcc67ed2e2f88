/**
 * @module What a `warn`-mode gateway does about drift when serving a resource, derived from the
 * problems: a resource whose model is missing is unavailable; a field whose ERP field (or `related`
 * comodel field) is missing is left out of the ERP read and answered as `null`.
 */
import type { ResourceSpec } from '../resource-spec';
import type { DriftProblem } from './drift-problem';

export interface DriftGaps {
  /** The resource's model when the ERP lacks it (every route of the resource answers 503). */
  readonly missingModel?: string;
  /** ERP fields of the resource's model to leave out of `search_read`. */
  readonly erpFields: ReadonlySet<string>;
  /** API fields answered as `null`. */
  readonly apiFields: ReadonlySet<string>;
}

export const NO_GAPS: DriftGaps = Object.freeze({ erpFields: new Set<string>(), apiFields: new Set<string>() });

export function driftGapsOf(resource: ResourceSpec, problems: readonly DriftProblem[]): DriftGaps {
  const mine = problems.filter((p) => p.resource === resource.path);
  if (mine.length === 0) return NO_GAPS;
  const missing = (model: string, field: string) => mine.some((p) => p.model === model && ((p.kind === 'missing_field' && p.field === field) || p.kind === 'missing_model'));
  if (missing(resource.model, '')) return { missingModel: resource.model, erpFields: new Set(), apiFields: new Set() };
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
  return erpFields.size || apiFields.size ? { erpFields, apiFields } : NO_GAPS;
}
