/**
 * A catalogue change in production without dropping a request: WORKERS=2 on the real process, run
 * from a release bundle; clients loop on a list route (keep-alive, as fetch does, and one connection
 * per request) while the bundle is replaced by one built from a catalogue that exposes one more
 * field, and the primary gets SIGHUP. Every request answers 200 with a whole JSON body, both workers
 * are replaced one at a time, and the new field is served after. Then a broken build on disk and
 * SIGHUP: the reload is refused and logged, and the workers running keep serving, again without a
 * failed request.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { startStack, type Stack } from '../support/stack';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process';
import { get, waitFor } from './support/raw-http';

const root = join(__dirname, '..', '..');
const PATH = '/api/v1/fleet/vehicles?limit=5&total=false';
const KEEP_ALIVE_CLIENTS = 6;
const FRESH_CONNECTION_CLIENTS = 2;

const logOf = (gateway: GatewayProcess) => gateway.stdout.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
const logged = (gateway: GatewayProcess, msg: string) => logOf(gateway).filter((line) => line['msg'] === msg);
const listeningPids = (gateway: GatewayProcess) => logged(gateway, 'gateway listening').map((line) => Number(line['pid']));

interface Tally {
  ok: number;
  withColour: number;
  failures: string[];
}

/** Clients asking PATH in a loop until `stop()`: keep-alive ones (fetch) and ones with a connection per request. */
function load(url: string, key: string): { tally: Tally; stop: () => Promise<void> } {
  const tally: Tally = { ok: 0, withColour: 0, failures: [] };
  let running = true;
  const count = (status: number, body: string) => {
    if (status !== 200) {
      tally.failures.push(`${status} ${body.slice(0, 200)}`);
      return;
    }
    try {
      const records = (JSON.parse(body) as { data: Record<string, unknown>[] }).data;
      tally.ok++;
      if (records.length > 0 && records.every((record) => 'color' in record)) tally.withColour++;
    } catch {
      tally.failures.push(`cut answer: ${body.length} bytes`);
    }
  };
  const keepAlive = async () => {
    while (running) {
      try {
        const response = await fetch(`${url}${PATH}`, { headers: { authorization: `Bearer ${key}` } });
        count(response.status, await response.text());
      } catch (error) {
        tally.failures.push(`fetch: ${String((error as Error).cause ?? error)}`);
      }
    }
  };
  const freshConnection = async () => {
    while (running) {
      try {
        const answer = await get(`${url}${PATH}`, key, new Agent({ keepAlive: false }));
        count(answer.status, answer.body);
      } catch (error) {
        tally.failures.push(`connection: ${String(error)}`);
      }
    }
  };
  const loops = [...Array.from({ length: KEEP_ALIVE_CLIENTS }, keepAlive), ...Array.from({ length: FRESH_CONNECTION_CLIENTS }, freshConnection)];
  return {
    tally,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe('SIGHUP with WORKERS=2: the workers replaced one at a time by the build on disk, no request failing', () => {
  let stack: Stack;
  let gateway: GatewayProcess;
  let dir: string;
  let bundle: string;
  let newBundle: string;

  beforeAll(async () => {
    // Under dist/: the bundle's dependencies (express...) resolve from the project's node_modules, as in a clone.
    dir = mkdtempSync(join(root, 'dist', 'reload-test-'));
    bundle = join(dir, 'gateway.js');
    copyFileSync(join(root, 'packages', 'gateway', 'release', 'gateway.js'), bundle);
    // The next build: the catalogue with one more field of the vehicles, generated and bundled as `make release` does.
    cpSync(join(root, 'catalogue'), join(dir, 'catalogue'), { recursive: true });
    cpSync(join(root, 'packages', 'gateway', 'generated'), join(dir, 'generated'), { recursive: true });
    const fleet = join(dir, 'catalogue', 'fleet.yaml');
    const seats = /^ {6}seats: .*\n/m;
    expect(readFileSync(fleet, 'utf8')).toMatch(seats);
    writeFileSync(
      fleet,
      readFileSync(fleet, 'utf8').replace(seats, (line) => `${line}      color: { type: string, description: Colour of the vehicle., erp: color }\n`),
    );
    execFileSync(process.execPath, [join(root, 'dist', 'codegen', 'index.js'), '--catalogue', join(dir, 'catalogue'), '--out', join(dir, 'generated')]);
    execFileSync(process.execPath, [join(root, 'scripts', 'bundle-release.mjs'), join(dir, 'next'), '--generated', join(dir, 'generated')]);
    newBundle = join(dir, 'next', 'gateway.js');
    stack = await startStack({ transport: 'json2' });
    gateway = await startGatewayProcess({ ERP_URL: stack.sandbox.url, ERP_DATABASE: stack.sandbox.database, ERP_TRANSPORT: 'json2', WORKERS: '2' }, 45000, bundle);
    await waitFor(() => listeningPids(gateway).length === 2, 30000);
  }, 120000);
  afterAll(async () => {
    gateway?.kill('SIGKILL');
    for (const pid of gateway ? listeningPids(gateway) : []) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await stack?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves the new field after the reload, every request under load answered 200 with a whole body', async () => {
    const before = listeningPids(gateway);
    const { tally, stop } = load(gateway.url, stack.keys.valid);
    await waitFor(() => tally.ok >= 50, 20000);
    expect(tally.withColour).toBe(0);
    // As an operator would: the new build put in place whole (a rename), then the signal.
    copyFileSync(newBundle, `${bundle}.next`);
    renameSync(`${bundle}.next`, bundle);
    gateway.kill('SIGHUP');
    await waitFor(() => logged(gateway, 'reload done: every worker runs the new build').length === 1, 60000);
    const served = tally.ok;
    await waitFor(() => tally.ok >= served + 50, 20000);
    await stop();
    expect(tally.failures).toEqual([]);
    expect(logged(gateway, 'reload: worker replaced')).toHaveLength(2);
    const after = listeningPids(gateway).slice(before.length);
    expect(after).toHaveLength(2);
    // Only the new workers answer now: a last round, each with the field.
    const last = load(gateway.url, stack.keys.valid);
    await waitFor(() => last.tally.ok >= 20, 20000);
    await last.stop();
    expect(last.tally.failures).toEqual([]);
    expect(last.tally.withColour).toBe(last.tally.ok);
  }, 120000);

  it('refuses a build that does not start, logs why, and keeps serving the one running', async () => {
    const pids = listeningPids(gateway);
    const { tally, stop } = load(gateway.url, stack.keys.valid);
    await waitFor(() => tally.ok >= 20, 20000);
    writeFileSync(`${bundle}.next`, "throw new Error('a broken build');\n");
    renameSync(`${bundle}.next`, bundle);
    gateway.kill('SIGHUP');
    await waitFor(() => logged(gateway, 'reload refused: a new worker did not start; the workers running keep serving (see its error above)').length === 1, 30000);
    const served = tally.ok;
    await waitFor(() => tally.ok >= served + 20, 20000);
    await stop();
    expect(tally.failures).toEqual([]);
    expect(tally.withColour).toBe(tally.ok);
    expect(gateway.stderr.join('\n')).toMatch(/a broken build/);
    expect(logged(gateway, 'reload refused: a new worker did not start; the workers running keep serving (see its error above)')[0]).toMatchObject({
      reason: expect.stringMatching(/^exited before listening/),
      replaced: 0,
      kept: 2,
    });
    // No worker came or went.
    expect(listeningPids(gateway)).toEqual(pids);
  }, 90000);
});
