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

export const FIELDS_TEXT = 'Fields to return (default: every field except personal data). Personal-data fields (see describe_resource) are returned only when named here.';

/** Every resource's path, `<domain>/<resource>`. */
export function resourcePaths(model: CatalogueModel): string[] {
  return model.domains.flatMap((d) => d.resources.map((r) => r.path));
}

/** The `resource` argument of a tool that takes any resource of the catalogue. */
export function resourceArgument(model: CatalogueModel): Schema {
  return { type: 'string', enum: resourcePaths(model), description: "The resource, as '<domain>/<resource>' (list_resources lists them)." };
}
