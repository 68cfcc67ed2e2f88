/**
 * @module Runs Redocly CLI's `diff` (a kept tool that reads OpenAPI 3.1 and rates every change by the
 * semantic-version bump it needs, direction-aware: a new enum value is safe in a query parameter and
 * breaking in a response) on two OpenAPI documents, and returns its changes.
 *
 * Both documents are compared without their prose (description, summary, title, examples): prose
 * never breaks a client, and Redocly pairs list items such as parameters by likeness, so a long
 * description rewritten made it report the `order` parameter as removed and added again.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One change as Redocly reports it (`--format json`). */
export interface RedoclyChange {
  /** JSON pointer of the change, by the first route that reaches it (`#/paths/~1api~1v1~1…/get/…`). */
  readonly path: string;
  readonly kind: 'added' | 'removed' | 'modified';
  readonly impact: 'major' | 'minor' | 'patch';
  /** The rules that rated it (empty for a change no rule finds breaking). */
  readonly verdicts: readonly { readonly ruleId: string; readonly message: string }[];
  /** The keyword changed, for a `modified` change (`enum`, `type`, `description`…). */
  readonly property?: string;
}

/** Every rule of Redocly's `diff-recommended` set, each rating its change `major`. */
const CONFIG = 'extends:\n  - diff-recommended\ntelemetry: off\n';
const PROSE: ReadonlySet<string> = new Set(['description', 'summary', 'title', 'example', 'examples', 'x-generated-by']);

export async function redoclyDiff(base: unknown, revision: unknown): Promise<readonly RedoclyChange[]> {
  const dir = mkdtempSync(join(tmpdir(), 'odg-openapi-diff-'));
  try {
    writeFileSync(join(dir, 'redocly.yaml'), CONFIG);
    writeFileSync(join(dir, 'base.json'), JSON.stringify(withoutProse(base)));
    writeFileSync(join(dir, 'revision.json'), JSON.stringify(withoutProse(revision)));
    const args = [redoclyBin(), 'diff', 'base.json', 'revision.json', '--config', 'redocly.yaml', '--format', 'json', '--fail-on', 'none', '--lint-config', 'off'];
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
    const { stdout } = await run(process.execPath, args, { cwd: dir, env, maxBuffer: 256 * 1024 * 1024 });
    const report = JSON.parse(stdout) as { changes?: RedoclyChange[] };
    if (!Array.isArray(report.changes)) throw new Error('Redocly diff answered no list of changes');
    return report.changes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The document without its prose: text-valued `description`, `summary`, `title`, and every example. */
function withoutProse(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutProse);
  if (!value || typeof value !== 'object') return value;
  const kept: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    // An object under such a key is a schema property of that name (`properties.description`): kept.
    if (PROSE.has(key) && (typeof inner !== 'object' || key === 'examples' || key === 'example')) continue;
    kept[key] = withoutProse(inner);
  }
  return kept;
}

function redoclyBin(): string {
  const manifest = require.resolve('@redocly/cli/package.json');
  const bins = (require(manifest) as { bin: string | Record<string, string> }).bin;
  return join(dirname(manifest), typeof bins === 'string' ? bins : (bins['redocly'] as string));
}
