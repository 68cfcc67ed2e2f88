/**
 * `make dev` over real HTTP: the launcher (dist/run/run-demo.js --watch, bundled as `make dev` does)
 * serves the sandbox and the gateway from a temporary copy of the catalogue; clients loop on a list
 * route while the test saves the catalogue as an editor would. A new field is served within a bound;
 * a broken save is printed with its file, line, column, key and what is allowed there, and the last
 * good gateway keeps serving; the fixed save is served; no request fails throughout; SIGTERM ends both.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { type DevLauncher, startDevLauncher } from '../support/dev-launcher';
import { get, waitFor } from '../reliability/support/raw-http';

const _root = join(__dirname, '..', '..');
const PATH = '/api/v1/fleet/vehicles?limit=3&total=false';
/** What a loaded machine may take from a save to the new field served (the figure measured alone is in BENCHMARKS.md). */
const SERVED_WITHIN_MS = 30000;
/** How long one request may take before it counts as failed (the gateway answers these in milliseconds). */
const ANSWER_LIMIT_MS = 15000;

describe('make dev: a catalogue save served in seconds, a broken one printed while the last good version serves', () => {
  let dev: DevLauncher;
  let launcher: ChildProcess;
  let stdout: string[];
  let stderr: string[];
  let url: string;
  let key: string;
  let fleet: string;

  beforeAll(async () => {
    dev = await startDevLauncher(join(__dirname, '..', '..'), 'dev-loop-test');
    ({ process: launcher, stdout, stderr, url, fleet } = dev);
    await waitFor(() => dev.watching() || launcher.exitCode !== null, 90000);
    expect(launcher.exitCode).toBeNull();
    key = dev.key();
  }, 120000);
  afterAll(() => {
    if (launcher && launcher.exitCode === null) launcher.kill('SIGKILL');
    dev?.cleanUp();
  });

  it('serves each good save, keeps serving through a broken one, and no request fails', async () => {
    let running = true;
    const failures: string[] = [];
    let latest: Record<string, unknown>[] = [];
    const count = (status: number, body: string) => {
      if (status !== 200) failures.push(`${status} ${body.slice(0, 200)}`);
      else latest = (JSON.parse(body) as { data: Record<string, unknown>[] }).data;
    };
    const loops = [
      ...Array.from({ length: 3 }, async () => {
        while (running) {
          try {
            // Bounded: a request that never ends is a failure to report, not a test that hangs.
            const response = await fetch(`${url}${PATH}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(ANSWER_LIMIT_MS) });
            count(response.status, await response.text());
          } catch (error) {
            failures.push(`fetch: ${String((error as Error).cause ?? error)}`);
          }
        }
      }),
      (async () => {
        while (running) {
          try {
            const answer = await Promise.race([
              get(`${url}${PATH}`, key, new Agent({ keepAlive: false })),
              new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error(`no answer within ${ANSWER_LIMIT_MS} ms`)), ANSWER_LIMIT_MS).unref()),
            ]);
            count(answer.status, answer.body);
          } catch (error) {
            failures.push(`connection: ${String(error)}`);
          }
        }
      })(),
    ];
    const serving = (field: string) => latest.length > 0 && latest.every((record) => field in record);
    try {
      await waitFor(() => latest.length > 0, 20000);
      expect(serving('color')).toBe(false);

      // A new field, saved: served within the bound.
      const original = readFileSync(fleet, 'utf8');
      const seats = /^ {6}seats: .*\n/m;
      expect(original).toMatch(seats);
      const withColour = original.replace(seats, (line) => `${line}      color: { type: string, description: Colour of the vehicle., erp: color }\n`);
      const colourLine = withColour.split('\n').findIndex((line) => line.startsWith('      color:')) + 1;
      let saved = performance.now();
      writeFileSync(fleet, withColour);
      await waitFor(() => serving('color'), SERVED_WITHIN_MS);
      const servedMs = performance.now() - saved;
      expect(stdout.join('\n')).toMatch(/^fleet\.yaml: served \d+ ms after the save/m);
      // What changed in the API follows (Redocly's diff takes a moment).
      await waitFor(() => /^ {2}additive {2}added .*\/properties\/color on GET \/api\/v1\/fleet\/vehicles/m.test(stdout.join('\n')), SERVED_WITHIN_MS);

      // A broken save: printed where it is, with what is allowed there; the last good gateway keeps serving.
      writeFileSync(fleet, withColour.replace('erp: color }', 'erp: color, typ: string }'));
      await waitFor(() => stderr.some((line) => line.includes('not served; the gateway keeps serving the last good catalogue')), SERVED_WITHIN_MS);
      expect(stderr.join('\n')).toMatch(
        new RegExp(`fleet\\.yaml:${colourLine}:\\d+: resources\\.vehicles\\.fields\\.color\\.typ: unknown key 'typ'; allowed: did you mean 'type'\\? type, format`),
      );
      const during = latest;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(serving('color')).toBe(true);
      expect(latest).not.toBe(during);

      // Fixed, with one more field: served.
      saved = performance.now();
      writeFileSync(
        fleet,
        withColour.replace(seats, (line) => `${line}      paint: { type: string, description: Paint., erp: color }\n`),
      );
      await waitFor(() => serving('paint') && serving('color'), SERVED_WITHIN_MS);
      process.stdout.write(`dev loop: a save served after ${Math.round(servedMs)} ms, then ${Math.round(performance.now() - saved)} ms\n`);
    } catch (error) {
      // What the launcher said is the first thing to read when this fails.
      process.stderr.write(`dev loop: launcher stdout:\n${stdout.slice(-40).join('\n')}\nstderr:\n${stderr.slice(-40).join('\n')}\n`);
      throw error;
    } finally {
      running = false;
      await Promise.all(loops);
    }
    // A request never answered would show as a timeout here: the handover hands back what the retiring
    // gateway was sent as it closed (runtime/server/leave-cluster.ts).
    expect(failures).toEqual([]);
  }, 180000);

  it('stops the gateway and the sandbox on SIGTERM, with exit 0', async () => {
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
    launcher.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  }, 30000);
});
