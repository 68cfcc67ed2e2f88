/** @module What the MCP tools of generated/mcp-tools.json share: their shape, annotations and common arguments. */
import type { CatalogueModel } from '../model/catalogue-model';

export type Schema = Record<string, unknown>;

export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Schema;
  readonly outputSchema: Schema;
  readonly annotations: Schema;
}

export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** What a tool that reads the ERP costs and may answer besides its own errors: the same as its data route. */
export const DATA_CALL_TEXT =
  "Costs what its data route costs against the key's rate limit (tool error rate_limited, status 429, with retry_after, past it). " +
  'Tool error unavailable (status 503, with retry_after) when the gateway already holds as many answers as its memory budget allows: retry after that many seconds, or ask for fewer records.';

/**
 * `meta.unreadable_fields` of the API: fields answered null for want of a read right, not for being
 * empty (the agents guide says so once; tools/list is charged to the memory budget ten times over,
 * so the schema repeated in every tool stays bare, as `personal_fields_omitted`'s).
 */
export const UNREADABLE_FIELDS = { type: 'array', items: { type: 'string' } } as const;

export const FIELDS_TEXT = 'Fields to return (default: every field except personal data). Personal-data fields (see describe_resource) are returned only when named here.';

/** Every resource's path, `<domain>/<resource>`. */
export function resourcePaths(model: CatalogueModel): string[] {
  return model.domains.flatMap((d) => d.resources.map((r) => r.path));
}

/** The `resource` argument of a tool that takes any resource of the catalogue. */
export function resourceArgument(model: CatalogueModel): Schema {
  return { type: 'string', enum: resourcePaths(model), description: "The resource, as '<domain>/<resource>' (list_resources lists them)." };
}
