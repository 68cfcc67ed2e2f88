/**
 * @module `make openapi-diff BASE=<git ref>`: the breaking-change gate. Compares the OpenAPI document
 * committed at BASE with the one generated now (Redocly's diff, codegen/changes/redocly-diff.ts), prints the changelog
 * classed breaking or additive, and fails when a breaking change comes without a major bump of the
 * catalogue's API version (catalogue/api.yaml) or an acknowledgement added since BASE to
 * catalogue/acknowledged-changes.yaml. Exit 0: nothing refused (or nothing to compare, said why);
 * 1: breaking changes refused; 2: cannot run (arguments, git, a file).
 *
 * `--base-file A --revision-file B [--acknowledged F] [--base-acknowledged G]` compares two files
 * instead (the tests build their documents).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAcknowledgements, type Acknowledgement } from './acknowledged';
import { ACKNOWLEDGED_PATH, baseDocuments, OPENAPI_PATH } from './base-document';
import { additiveLine, changelogOf, type Changelog } from '../../codegen/changes/changelog';
import { redoclyDiff } from '../../codegen/changes/redocly-diff';
import { judge, type Verdict } from './verdict';

const USAGE =
  'usage: openapi-diff --base <git ref>   |   openapi-diff --base-file <openapi.json> --revision-file <openapi.json> [--acknowledged <yaml>] [--base-acknowledged <yaml>]';

export interface Output {
  write(text: string): void;
}

export async function openApiDiff(argv: readonly string[], out: Output, root = resolve(__dirname, '..', '..', '..')): Promise<number> {
  const options = parseArgs(argv);
  if ('error' in options) return fail(out, `${options.error}\n${USAGE}`);
  let base: { openapi: unknown; acknowledgedText: string | undefined; name: string };
  if (options.base !== undefined) {
    const found = baseDocuments(root, options.base);
    if (found.kind === 'error') return fail(out, found.message);
    if (found.kind === 'nothing-to-compare') {
      out.write(`openapi-diff: nothing to compare: ${found.reason}\n`);
      return 0;
    }
    base = { openapi: found.openapi, acknowledgedText: found.acknowledgedText, name: `${found.path} at ${options.base}` };
  } else {
    const openapi = readJson(options.baseFile as string);
    if (openapi instanceof Error) return fail(out, openapi.message);
    base = { openapi, acknowledgedText: readText(options.baseAcknowledged), name: options.baseFile as string };
  }
  const revisionFile = options.revisionFile ?? join(root, OPENAPI_PATH);
  const revision = readJson(revisionFile);
  if (revision instanceof Error) return fail(out, revision.message);
  const acknowledgedFile = options.acknowledged ?? join(root, ACKNOWLEDGED_PATH);
  const acknowledged = newAcknowledgements(readText(acknowledgedFile) ?? 'acknowledged: []\n', base.acknowledgedText, acknowledgedFile);
  if (!Array.isArray(acknowledged)) return fail(out, (acknowledged as { errors: string[] }).errors.join('\n'));

  let changelog: Changelog;
  try {
    changelog = changelogOf(await redoclyDiff(base.openapi, revision), [revision, base.openapi]);
  } catch (error) {
    return fail(out, `Redocly diff failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const versions = { base: versionOf(base.openapi), revision: versionOf(revision) };
  const verdict = judge(changelog, versions, acknowledged);
  out.write(report(base.name, options.revisionFile ?? OPENAPI_PATH, versions, changelog, verdict));
  return verdict.refused.length ? 1 : 0;
}

function report(baseName: string, revisionName: string, versions: { base: string; revision: string }, changelog: Changelog, verdict: Verdict): string {
  const lines = [`openapi-diff: ${baseName} (API ${versions.base}) -> ${revisionName} (API ${versions.revision})`];
  const refused = new Set(verdict.refused);
  lines.push(`Breaking (${changelog.breaking.length}):`);
  for (const change of changelog.breaking) {
    const accepted = verdict.accepted.find((a) => a.change === change);
    lines.push(`  ${change.line}`, `      ${refused.has(change) ? 'REFUSED' : `accepted: ${accepted?.by}`}`);
  }
  lines.push(`Additive (${changelog.additive.length}):`);
  for (const change of changelog.additive) lines.push(`  ${additiveLine(change)}`);
  for (const entry of verdict.unused) lines.push(`note: acknowledged-changes.yaml line ${entry.line} matches no change: ${entry.change}`);
  if (verdict.refused.length)
    lines.push(
      `openapi-diff: ${verdict.refused.length} breaking change(s) refused: bump the major version in catalogue/api.yaml (${versions.revision}), or acknowledge each under 'acknowledged:' in ${ACKNOWLEDGED_PATH} as { change: "<the line above>", reason: ... } (* matches any text)`,
    );
  else lines.push(`openapi-diff: no breaking change refused (${changelog.breaking.length} breaking, ${changelog.additive.length} additive)`);
  return `${lines.join('\n')}\n`;
}

/** The acknowledgements of the revision that the base did not already have. */
function newAcknowledgements(text: string, baseText: string | undefined, file: string): Acknowledgement[] | { errors: readonly string[] } {
  const now = parseAcknowledgements(text, file);
  if (!now.ok) return { errors: now.errors };
  const before = baseText === undefined ? undefined : parseAcknowledgements(baseText, `${file} at the base`);
  const old = new Set(before?.ok ? before.entries.map((e) => e.change) : []);
  return now.entries.filter((entry) => !old.has(entry.change));
}

function versionOf(openapi: unknown): string {
  const version = (openapi as { info?: { version?: unknown } } | null)?.info?.version;
  return typeof version === 'string' ? version : '0.0.0';
}

type Options = { base?: string; baseFile?: string; revisionFile?: string; acknowledged?: string; baseAcknowledged?: string };

function parseArgs(argv: readonly string[]): Options | { error: string } {
  const names: Record<string, keyof Options> = {
    '--base': 'base',
    '--base-file': 'baseFile',
    '--revision-file': 'revisionFile',
    '--acknowledged': 'acknowledged',
    '--base-acknowledged': 'baseAcknowledged',
  };
  const options: Options = {};
  for (let i = 0; i < argv.length; i += 2) {
    const name = names[argv[i] as string];
    const value = argv[i + 1];
    if (!name) return { error: `unknown argument ${JSON.stringify(argv[i])}` };
    if (value === undefined || value === '') return { error: `${argv[i]} needs a value` };
    options[name] = value;
  }
  if ((options.base === undefined) === (options.baseFile === undefined)) return { error: 'give either --base <git ref> or --base-file <file>' };
  return options;
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (error) {
    return new Error(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function readText(path: string | undefined): string | undefined {
  return path !== undefined && existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

function fail(out: Output, message: string): number {
  out.write(`openapi-diff: ${message}\n`);
  return 2;
}

if (require.main === module) {
  void openApiDiff(process.argv.slice(2), process.stdout).then((code) => {
    process.exitCode = code;
  });
}
