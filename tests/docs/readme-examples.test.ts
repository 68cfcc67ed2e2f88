/**
 * The shell examples of the README and the topic guides (docs/*.md), pasted as a user pastes them,
 * against what `make run` starts (dist/run/run-demo.js, bundled as `make run` bundles it: the sandbox ERP and the gateway), with the
 * `API_KEY` it prints exported as the quick start says (issue 29, point 7).
 *
 * What the test changes, and only that: the ports (`make run` listens on 8080 and 8069, which a test
 * may not take: every `http://127.0.0.1:8080` and `:8069` of a command is the started stack's), the
 * directory it runs in (a fresh one, for the files `curl -OJ` writes), and, for `make scaffold`, the
 * catalogue it writes to (a copy, given as `CATALOGUE`) with the build taken as done (`-o build`).
 * docs/contract/ (copied specifications) and docs/guide/ (templates of the docs page, whose examples
 * tests/docs/docs-examples.test.ts runs) are not guides. Every `curl` line of a `sh` block and every `$ …make scaffold` line that targets the sandbox is run;
 * a line with a placeholder (`<key>`, `...`) cannot be pasted as it is and is skipped, saying so.
 *
 * Oracle: the command exits 0; curl's own status (a `.curlrc` writes it to stderr) is 200, or 401 for a
 * request without a key; the body is JSON (a page, a record or the error envelope), NDJSON or the CSV
 * file written; the scaffold adds the resource it names to the catalogue copy, which `make generate`'s
 * generator accepts.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/free-port';

const root = join(__dirname, '..', '..');

interface Example {
  readonly file: string;
  readonly line: number;
  readonly command: string;
}

/** The documents a user reads: the README and the topic guides. */
function documents(): string[] {
  const docs = join(root, 'docs');
  const guides = readdirSync(docs, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md') && !name.startsWith('contract') && !name.startsWith('guide'))
    .map((name) => join('docs', name));
  return ['README.md', ...guides.sort()];
}

/**
 * `curl` lines of `sh` blocks and `$ … make scaffold` lines of any block, with their place; a curl line
 * after a `NAME=$(…)` line of its block runs after that line, as a shell the block is pasted in would.
 */
function examplesOf(file: string): Example[] {
  const examples: Example[] = [];
  let block: string | undefined;
  let assignments: string[] = [];
  readFileSync(join(root, file), 'utf8')
    .split('\n')
    .forEach((text, index) => {
      const fence = /^\s*```(\S*)/.exec(text);
      if (fence) {
        block = block === undefined ? fence[1] : undefined;
        assignments = [];
        return;
      }
      if (block === undefined) return;
      const line = text.trim();
      if (block === 'sh' && /^[A-Z_]+=\$\(/.test(line)) assignments.push(line);
      if (block === 'sh' && line.startsWith('curl ')) examples.push({ file, line: index + 1, command: [...assignments, line].join('\n') });
      if (line.startsWith('$ ') && line.includes('make scaffold') && line.includes('127.0.0.1:8069')) examples.push({ file, line: index + 1, command: line.slice(2) });
    });
  return examples;
}

const EXAMPLES = documents().flatMap(examplesOf);
const placeholder = (command: string) => /<[a-z][^>]*>|\.\.\./i.exec(command)?.[0];
const runnable = EXAMPLES.filter((e) => !placeholder(e.command));
const withPlaceholder = EXAMPLES.filter((e) => placeholder(e.command));

let demo: ChildProcess;
let gatewayOrigin: string;
let sandboxOrigin: string;
let apiKey: string;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'odg-readme-'));
  // curl's status of each request, on stderr: stdout stays what the command gives (to a pipe too).
  writeFileSync(join(work, '.curlrc'), 'write-out = "%{stderr}HTTP %{http_code}\\n"\n');
  const [port, sandboxPort] = [await freePort(), await freePort()];
  gatewayOrigin = `http://127.0.0.1:${port}`;
  sandboxOrigin = `http://127.0.0.1:${sandboxPort}`;
  execFileSync(process.execPath, [join(root, 'scripts', 'bundle-tools.mjs')]);
  demo = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', join(root, 'dist', 'run', 'run-demo.js')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), SANDBOX_PORT: String(sandboxPort) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let seen = '';
  apiKey = await new Promise<string>((resolve, reject) => {
    demo.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const key = /export API_KEY=(\S+)/.exec(seen)?.[1];
      if (key) resolve(key);
    });
    demo.stderr?.on('data', (chunk: Buffer) => (seen += chunk.toString()));
    demo.once('exit', (code) => reject(new Error(`make run's launcher exited (${code}):\n${seen}`)));
  });
}, 120_000);

afterAll(async () => {
  if (demo && demo.exitCode === null) {
    const exited = new Promise((resolve) => demo.once('exit', resolve));
    demo.kill('SIGTERM');
    await exited;
  }
  rmSync(work, { recursive: true, force: true });
});

/** Runs a command as pasted in a shell, in a fresh directory (`make` from the repository's root, as a user runs it). */
function run(command: string, env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string; cwd: string } {
  const cwd = command.includes('make ') ? root : mkdtempSync(join(work, 'run-'));
  const pasted = command.replaceAll('http://127.0.0.1:8080', gatewayOrigin).replaceAll('http://127.0.0.1:8069', sandboxOrigin);
  const result = spawnSync('bash', ['-c', pasted], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: { PATH: process.env['PATH'] as string, HOME: work, CURL_HOME: work, API_KEY: apiKey, ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, cwd };
}

test('the documents have shell examples to run', () => {
  expect(runnable.filter((e) => /(^|\n)curl /.test(e.command)).length).toBeGreaterThanOrEqual(8);
});

/** `describe.each` of a list that may be empty (jest refuses an empty table). */
function eachOf(examples: readonly Example[], body: (example: Example) => void): void {
  for (const example of examples) describe(`${example.file}:${example.line}`, () => body(example));
}

eachOf(
  runnable.filter((e) => /(^|\n)curl /.test(e.command)),
  (example) => {
    test(example.command, () => {
      const { status, stdout, stderr, cwd } = run(example.command);
      expect([status, stderr]).toEqual([0, expect.any(String)]);
      // The last request's status (a `$(curl …)` before it writes its own first).
      const http = /HTTP ([0-9]{3})\n$/.exec(stderr);
      const body = stdout;
      const keyed = example.command.includes('Authorization:');
      expect([http?.[1], body.slice(0, 300)]).toEqual([keyed ? '200' : '401', expect.any(String)]);
      if (/ -O/.test(example.command)) {
        // `curl -OJ`: the file the server named, written in the working directory.
        // Named after the format asked (CSV when none is), and holding what that format holds.
        const format = /format=(\w+)/.exec(example.command)?.[1] ?? 'csv';
        const files = readdirSync(cwd);
        expect(files).toEqual([expect.stringMatching(new RegExp(`\\.${format}$`))]);
        const file = readFileSync(join(cwd, files[0] as string));
        if (format === 'parquet') expect([file.subarray(0, 4).toString(), file.subarray(-4).toString(), file.length > 1000]).toEqual(['PAR1', 'PAR1', true]);
        // A curl that asked for compression (--compressed) wrote the file decompressed.
        else expect(file.toString('utf8').split('\n').length).toBeGreaterThan(2);
      } else if (example.command.includes('format=ndjson')) {
        const lines = body.split('\n').filter(Boolean);
        expect(lines.length).toBeGreaterThan(0);
        for (const line of lines) expect(JSON.parse(line)).toEqual(expect.any(Object));
      } else {
        const json = JSON.parse(body) as { data?: unknown; error?: { code: string } };
        if (keyed) expect(json.data).toBeDefined();
        else expect(json.error?.code).toBe('unauthorized');
      }
    });
  },
);

eachOf(
  runnable.filter((e) => e.command.includes('make scaffold')),
  (example) => {
    test(example.command, () => {
      const catalogue = join(work, 'catalogue');
      cpSync(join(root, 'catalogue'), catalogue, { recursive: true });
      const before = readdirSync(catalogue).map((f) => readFileSync(join(catalogue, f), 'utf8'));
      const { status, stdout, stderr } = run(example.command, { CATALOGUE: catalogue, MAKEFLAGS: '-o build' });
      expect([status, stdout, stderr]).toEqual([0, expect.stringContaining('scaffold: added to '), '']);
      const resource = /RESOURCE=([a-z_]+)/.exec(example.command)?.[1] as string;
      const domain = /DOMAIN=([a-z_]+)/.exec(example.command)?.[1] as string;
      expect(readFileSync(join(catalogue, `${domain}.yaml`), 'utf8')).toMatch(new RegExp(`^  ${resource}:$`, 'm'));
      expect(readdirSync(catalogue).map((f) => readFileSync(join(catalogue, f), 'utf8'))).not.toEqual(before);
      // What the README shows of its output is what it printed.
      const shown = readFileSync(join(root, example.file), 'utf8').split('\n')[example.line] as string;
      expect(stdout.replace(/(added to|created) \S*\/([a-z_]+\.yaml)/, '$1 catalogue/$2')).toContain(shown.trim());
      // The generator accepts the catalogue with it.
      const out = join(work, 'generated');
      const generate = spawnSync(process.execPath, [join(root, 'dist', 'codegen', 'index.js'), '--catalogue', catalogue, '--out', out], { encoding: 'utf8', timeout: 120_000 });
      expect([generate.status, generate.stderr]).toEqual([0, '']);
    });
  },
);

eachOf(withPlaceholder, (example) => {
  test.skip(`${example.command} (skipped: it holds a placeholder, ${placeholder(example.command)}, to replace before pasting)`, () => undefined);
});
