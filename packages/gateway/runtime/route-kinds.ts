/**
 * @module The kinds of data route, declared once. A resource's routes are its kinds' paths after
 * `/api/v1/<domain>/<resource>`; each kind names what a request of it is charged against its key's
 * rate limit (RATE_LIMIT_COSTS) before the ERP is asked.
 *
 * Both sides of the generator register each kind against this declaration, in a table keyed by
 * `RouteKind`, so that a kind declared here and not registered on one side fails the type check:
 * - the generator, codegen/kinds/kind-emitters.ts: its query schema, route, OpenAPI operation, MCP
 *   tools, docs card line and llms.txt line;
 * - the runtime, data-routes/kinds/data-kinds.ts: how its request is read, what it costs and how it
 *   is answered, behind the guard every kind shares (data-routes/guard.ts); and mcp/tool-calls.ts:
 *   the MCP tools that call it.
 * docs/contributing.md ("Add a route kind") walks through it.
 *
 * A leaf: it imports nothing, so that every layer may read it (admission's rate limits, settings.ts's
 * default of RATE_LIMIT_COSTS and config.ts's check of it). The generator imports its types only, as it does resource-spec.ts (it
 * builds before the gateway it generates), and restates each kind's path typed by the literal declared
 * here, so the two cannot differ.
 */

/** What a kind of route declares. */
interface RouteKindDeclaration {
  /** The route's path after the resource's, in Express's notation (`/:id`); '' for the resource's own path. */
  readonly path: string;
  /** What a request of this kind may be charged up front; which one, its handler says once the query is read. */
  readonly costs: readonly string[];
}

const ROUTE_KINDS = {
  /**
   * `GET /api/v1/<domain>/<resource>`: a page of records (JSON), an export of every matching record
   * (CSV, NDJSON or Parquet) or a page of the change feed (`changed_since`). A page that counts its matches
   * (`total=true`: two ERP calls) is `counted_list`, any other `list`; a page that expands relations
   * (`expand`: one more ERP call per relation) is `expanded`; an export (`format=csv`…, for old
   * clients) is `export`, as on the export route.
   */
  list: { path: '', costs: ['list', 'counted_list', 'expanded', 'export'] },
  /**
   * `GET /api/v1/<domain>/<resource>/export`: every matching record as a file in one of
   * EXPORT_FORMATS, streamed: `export`, a kind of its own (every matching record, page after page
   * from the ERP), as an export on the list route is. Declared before the detail route, whose `/:id`
   * would take its path.
   */
  export: { path: '/export', costs: ['export'] },
  /**
   * `GET /api/v1/<domain>/<resource>/aggregate`: the records grouped by the resource's dimensions,
   * counted and measured by the ERP in one grouped read (JSON, CSV or NDJSON).
   */
  aggregate: { path: '/aggregate', costs: ['aggregate'] },
  /** `GET /api/v1/<domain>/<resource>/{id}`: one record (`expanded` with `expand`). */
  detail: { path: '/:id', costs: ['detail', 'expanded'] },
} as const satisfies Readonly<Record<string, RouteKindDeclaration>>;

export type RouteKinds = typeof ROUTE_KINDS;
export type RouteKind = keyof RouteKinds;
/** The kinds in their declared order: the order of each resource's routes, in the routers and the OpenAPI document. */
export const ROUTE_KIND_ORDER = Object.keys(ROUTE_KINDS) as readonly RouteKind[];

/** What a request is charged up front, by its kind. */
export type RequestCost = RouteKinds[RouteKind]['costs'][number];
/**
 * What an answer is charged instead once written, whatever its kind: `not_modified` (a 304) and
 * `cached` (a 200 the response cache gave: the ERP was not asked).
 */
export const ANSWER_COSTS = ['not_modified', 'cached'] as const;
export type AnswerCost = (typeof ANSWER_COSTS)[number];
export type CostKind = RequestCost | AnswerCost;
/** The costs charged up front, by kind in their declared order, each once (two kinds may share one). */
export const REQUEST_COSTS: readonly RequestCost[] = [...new Set(ROUTE_KIND_ORDER.flatMap((kind) => ROUTE_KINDS[kind].costs))];
/** Every cost kind, the request costs then the answer costs: the keys of RATE_LIMIT_COSTS. */
export const COST_KINDS: readonly CostKind[] = [...REQUEST_COSTS, ...ANSWER_COSTS];

/**
 * The formats of an export, declared once: the export route answers each (`format=<name>`, or
 * `Accept: <mediaType>`), as the list route does for compatibility. The runtime's encoders
 * (export/export-encoders.ts) and the generator's OpenAPI operation, query schemas and docs
 * (codegen/kinds/export/) are tables keyed by `ExportFormat`: a format added here and missing on one
 * side fails the type check.
 */
export const EXPORT_FORMATS = {
  csv: { mediaType: 'text/csv', extension: 'csv', compressible: true },
  ndjson: { mediaType: 'application/x-ndjson', extension: 'ndjson', compressible: true },
  /** Typed columns (export/parquet-encoder.ts); already compressed inside (snappy): never gzip or brotli on top. */
  parquet: { mediaType: 'application/vnd.apache.parquet', extension: 'parquet', compressible: false },
} as const satisfies Readonly<Record<string, { readonly mediaType: string; readonly extension: string; readonly compressible: boolean }>>;

/** `csv_dialect` (CSV exports only): RFC 4180 as loaders read it, or what Excel opens as it should. */
export type CsvDialect = 'rfc4180' | 'excel' | 'excel-semicolon';

export type ExportFormats = typeof EXPORT_FORMATS;
export type ExportFormat = keyof ExportFormats;
/** The formats in their declared order; the first is the export's default (no `format`, no `Accept` naming one). */
export const EXPORT_FORMAT_ORDER = Object.keys(EXPORT_FORMATS) as readonly ExportFormat[];
