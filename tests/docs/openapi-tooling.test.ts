/**
 * `generated/openapi.json` as third-party tools see it: Redocly's recommended ruleset finds no
 * error (in a child process, offline). Typed clients generated from it: typed-clients.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './docs-app';

const run = promisify(execFile);
const OPENAPI = join(ROOT, 'packages', 'gateway', 'generated', 'openapi.json');
const QUIET = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

/** The JS file of a package's command, run with this very node (no PATH lookup). */
function bin(pkg: string, command: string): string {
  const manifest = require.resolve(`${pkg}/package.json`, { paths: [ROOT] });
  const bins = (require(manifest) as { bin: string | Record<string, string> }).bin;
  return join(dirname(manifest), typeof bins === 'string' ? bins : (bins[command] as string));
}

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

describe('openapi.json with third-party tools', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ops-gw-openapi-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes Redocly lint (recommended ruleset, redocly.yaml) with no error', async () => {
    const { stdout } = await run(process.execPath, [bin('@redocly/cli', 'redocly'), 'lint', OPENAPI, '--config', join(ROOT, 'redocly.yaml'), '--format=json'], {
      cwd: ROOT,
      env: QUIET,
      maxBuffer: 32 * 1024 * 1024,
    });
    const report = JSON.parse(stdout) as LintReport;
    const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60000);
});
