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

/** Read-only and closed-world (the MCP schema reads destructiveHint and idempotentHint only when readOnlyHint is false). */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false };

/**
 * A record in a tool's output schema: an object with its id. Its fields and their types are
 * `describe_resource`'s answer: typed records in every tool's output schema made `tools/list` 99 KB,
 * which every client puts in every prompt.
 */
export const ANY_RECORD = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } as const;

export const FIELDS_TEXT = 'Default: all but personal data (only when named).';

/**
 * The `expand` argument of the query and record tools: bare, as tools/list is charged to the memory
 * budget ten times over; describe_resource says its syntax and each resource's relations.
 */
export const EXPAND_ARGUMENT = { type: 'string' } as const;

/** Every resource's path, `<domain>/<resource>`. */
function resourcePaths(model: CatalogueModel): string[] {
  return model.domains.flatMap((d) => d.resources.map((r) => r.path));
}

/** The `resource` argument of a tool that takes any resource of the catalogue. */
export function resourceArgument(model: CatalogueModel): Schema {
  return { type: 'string', enum: resourcePaths(model) };
}
