/**
 * @module The normalised catalogue every emitter reads: domains and resources sorted, every
 * default resolved, every ERP mapping in the runtime's own shape.
 */
import type { FieldSpec, FilterSpec, QuerySchemas, RelationSpec, ResourceSpec } from '../../packages/gateway/runtime/resource-spec';

export interface FieldModel extends FieldSpec {
  readonly description: string;
  readonly sortable: boolean;
}

export interface FilterModel extends FilterSpec {
  readonly description: string;
  /** A valid example value, for the docs and llms.txt. */
  readonly example: string;
}

export interface RelationModel extends RelationSpec {
  readonly description: string;
}

export interface ResourceModel extends Omit<ResourceSpec, 'fields' | 'filters' | 'relations' | keyof QuerySchemas> {
  readonly relations: readonly RelationModel[];
  readonly title: string;
  readonly description: string;
  readonly fields: readonly FieldModel[];
  readonly filters: readonly FilterModel[];
  /** The default order in API terms when it can be said so, else the ERP order string. */
  readonly defaultOrderText: string;
  /** Source file, for generated banners. */
  readonly file: string;
}

export interface DomainModel {
  readonly domain: string;
  readonly title: string;
  readonly description: string;
  readonly file: string;
  readonly resources: readonly ResourceModel[];
}

export interface CatalogueModel {
  /** The API's semantic version (catalogue/api.yaml). */
  readonly version: string;
  readonly domains: readonly DomainModel[];
}

/** Common parameters of list routes (interface spec, "Query parameters common to list routes"). */
/** The list route's query parameters besides the filters (it also takes the export's `format` and `csv_formulas`, for compatibility: undocumented there). */
export const COMMON_LIST_PARAMETERS = ['limit', 'offset', 'since_id', 'total', 'order', 'fields', 'changed_since', 'expand'] as const;
/** The export route's query parameters besides the filters. */
export const EXPORT_PARAMETERS = ['format', 'fields', 'since_id', 'csv_formulas', 'changed_since'] as const;

export const LIMITS = Object.freeze({
  limitDefault: 50,
  limitMax: 200,
  limitMin: 1,
  offsetMin: 0,
  sinceIdMin: 0,
  /** XML-RPC integers are 32-bit: no id, offset or cursor beyond this can be sent to the ERP. */
  int32Max: 2147483647,
  /** JSON-RPC messages in one POST to /mcp (a batch): more is refused before any tool runs. */
  mcpBatchMax: 16,
  /** Tool calls of one POST to /mcp that run at once; the others of its batch wait their turn. */
  mcpCallsInFlight: 4,
  /** Related records of one record in an expanded `to_many` relation; more are paged from the related list route. */
  expandPerRecord: 50,
});
