/**
 * @module What the catalogue drift check reports: one value per disagreement between the catalogue
 * (the generated `RESOURCES`) and what the ERP's `fields_get` describes, each with a stable `kind`.
 */

export const DRIFT_KINDS = {
  /** The resource's model, or a comodel the catalogue reads from, does not exist in the ERP. */
  missing_model: 'model does not exist',
  /** A field the catalogue reads, filters, scopes or orders on does not exist. */
  missing_field: 'field does not exist',
  /** The ERP field's type (or relation) cannot give the catalogue's API type. */
  type_mismatch: 'type cannot map',
  /** The ERP has selection values the catalogue's enum lacks: a response would break the OpenAPI document. */
  selection_unknown_to_catalogue: 'ERP selection value missing from the catalogue enum',
  /** The catalogue's enum has values the ERP no longer has. */
  selection_unknown_to_erp: 'catalogue enum value missing from the ERP selection',
  /** An `order` field (sortable map or default order) the ERP cannot sort on. */
  not_sortable: 'ERP cannot sort on the field',
  /** A filter or scope field the ERP cannot search on. */
  not_searchable: 'ERP cannot search on the field',
  /** An aggregate dimension or measure on a field the ERP cannot group or aggregate (not groupable; on 17, not stored). */
  not_groupable: 'ERP cannot group or aggregate on the field',
} as const;

export type DriftKind = keyof typeof DRIFT_KINDS;

export interface DriftProblem {
  /** Resource path (`fleet/vehicles`). */
  readonly resource: string;
  readonly kind: DriftKind;
  /** ERP model concerned (the resource's own model or a comodel). */
  readonly model: string;
  /** ERP field on `model`; empty for `missing_model`. */
  readonly field: string;
  readonly detail: string;
  /** What in the catalogue needs it: `field vehicle`, `filter due_before`, `scope`, `default order`, `order due_date`. */
  readonly uses: readonly string[];
}

/** Collects problems, one per resource, kind and ERP field, merging the catalogue uses. */
export class DriftProblems {
  private readonly byKey = new Map<string, { problem: DriftProblem; uses: Set<string> }>();

  add(resource: string, kind: DriftKind, model: string, field: string, detail: string, use: string): void {
    const key = `${resource}|${kind}|${model}|${field}`;
    const known = this.byKey.get(key);
    if (known) known.uses.add(use);
    else this.byKey.set(key, { problem: { resource, kind, model, field, detail, uses: [] }, uses: new Set([use]) });
  }

  list(): DriftProblem[] {
    return [...this.byKey.values()].map(({ problem, uses }) => Object.freeze({ ...problem, uses: Object.freeze([...uses]) }));
  }
}

/** `fleet.alert.due_date`, or the model alone for a missing model. */
export function qualifiedField(problem: Pick<DriftProblem, 'model' | 'field'>): string {
  return problem.field ? `${problem.model}.${problem.field}` : problem.model;
}
