/**
 * A process leaving node:cluster loses no connection handed to it as it closed (runtime/server/leave-cluster.ts),
 * which `make dev`'s swaps and the SIGHUP reload rely on: 30 workers retired one after the other
 * under 8 clients opening a connection per request, every request answered. Without it the same run
 * loses some: `LEAVE=exit PORT=8123 node tests/reliability/support/handover-cluster.cjs` printed 7–8
 * never answered (and 0–7 reset) in each of four runs on this machine; not asserted here, since how
 * many it loses depends on timing.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../support/free-port';

const FIXTURE = join(__dirname, 'support', 'handover-cluster.cjs');

interface Tally {
  answered: number;
  neverAnswered: number;
  failed: string[];
}

async function run(): Promise<Tally> {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), RETIREMENTS: '30' };
  const { stdout } = await promisify(execFile)(process.execPath, [FIXTURE], { env, timeout: 90000 });
  return JSON.parse(stdout.trim().split('\n').pop() as string) as Tally;
}

describe('a worker leaving the cluster', () => {
  it('hands back every connection it was sent as it closed: 30 retirements, every request answered', async () => {
    const tally = await run();
    expect(tally.answered).toBeGreaterThan(100);
    expect(tally).toEqual({ answered: tally.answered, neverAnswered: 0, failed: [] });
  }, 120000);
});
