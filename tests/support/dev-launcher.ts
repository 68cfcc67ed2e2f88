/**
 * `make dev`'s launcher (dist/run/run-demo.js --watch, bundled as `make dev` does) on a temporary copy
 * of the catalogue, on free ports, for the dev-loop test (tests/operate/dev-loop.test.ts) and bench
 * (bench/catalogue-loop.ts). Its output is kept line by line; the caller waits for what it needs.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

export interface DevLauncher {
  readonly process: ChildProcess;
  readonly url: string;
  /** Every line the launcher wrote, in order. */
  readonly stdout: string[];
  readonly stderr: string[];
  /** The copy's fleet catalogue, which the caller edits as an editor would. */
  readonly fleet: string;
  /** Once it says `watching`: the demo key it printed. */
  key(): string;
  /** Whether it said it watches the catalogue (it serves then). */
  watching(): boolean;
  /** Its temporary copies removed (the process is the caller's to stop first). */
  cleanUp(): void;
}

/** `root`: the project's (this module runs from its source under jest and from dist/ in the bench). */
export async function startDevLauncher(root: string, name: string): Promise<DevLauncher> {
  execFileSync(process.execPath, [join(root, 'scripts', 'bundle-tools.mjs')]);
  const dir = mkdtempSync(join(tmpdir(), `odg-${name}-`));
  // The bundle under dist/: its dependencies resolve from the project's node_modules.
  const out = mkdtempSync(join(root, 'dist', `${name}-`));
  cpSync(join(root, 'catalogue'), join(dir, 'catalogue'), { recursive: true });
  cpSync(join(root, 'packages', 'gateway', 'generated'), join(dir, 'generated'), { recursive: true });
  const [port, sandboxPort] = [await freePort(), await freePort()];
  const launcher = spawn(
    process.execPath,
    [
      '--disable-warning=ExperimentalWarning',
      join(root, 'dist', 'run', 'run-demo.js'),
      '--watch',
      ...['--catalogue', join(dir, 'catalogue'), '--generated', join(dir, 'generated'), '--out', out, '--sandbox-db', join(dir, 'demo.db')],
    ],
    { env: { PATH: process.env['PATH'] ?? '', PORT: String(port), SANDBOX_PORT: String(sandboxPort), LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stdout: string[] = [];
  const stderr: string[] = [];
  launcher.stdout?.on('data', (chunk: Buffer) => stdout.push(...chunk.toString('utf8').split('\n')));
  launcher.stderr?.on('data', (chunk: Buffer) => stderr.push(...chunk.toString('utf8').split('\n')));
  return {
    process: launcher,
    url: `http://127.0.0.1:${port}`,
    stdout,
    stderr,
    fleet: join(dir, 'catalogue', 'fleet.yaml'),
    key: () => (stdout.find((line) => line.startsWith('  export API_KEY=')) as string).split('=')[1] as string,
    watching: () => stdout.some((line) => line.startsWith('watching ')),
    cleanUp: () => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    },
  };
}
