/**
 * @module What a regeneration changed in the API, said by the generator as it writes (`make generate`,
 * `make dev`): the changelog of Redocly's diff between the OpenAPI document it replaces and the new
 * one (the breaking-change gate's own changelog, changelog.ts), each change breaking or additive, and
 * what the gate asks of a breaking one before CI lets it through.
 */
import { additiveLine, changelogOf } from './changelog';
import { redoclyDiff } from './redocly-diff';

/** Lines that say what changed from `before` to `after` (two OpenAPI documents as JSON text). */
export async function apiChangeLines(before: string, after: string): Promise<string[]> {
  if (before === after) return ['API unchanged'];
  let changelog: ReturnType<typeof changelogOf>;
  try {
    const [base, revision] = [JSON.parse(before) as unknown, JSON.parse(after) as unknown];
    changelog = changelogOf(await redoclyDiff(base, revision), [revision, base]);
  } catch (error) {
    return [`API changes not computed (Redocly diff failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`];
  }
  const { breaking, additive } = changelog;
  if (breaking.length === 0 && additive.length === 0) return ['API changes: none a client can see (descriptions and examples only)'];
  const lines = [`API changes: ${breaking.length} breaking, ${additive.length} additive`];
  for (const change of breaking) lines.push(`  breaking  ${change.line}`);
  for (const change of additive) lines.push(`  additive  ${additiveLine(change)}`);
  if (breaking.length)
    lines.push('  a breaking change fails CI (make openapi-diff) unless the major version in catalogue/api.yaml goes up, or catalogue/acknowledged-changes.yaml acknowledges it');
  return lines;
}
