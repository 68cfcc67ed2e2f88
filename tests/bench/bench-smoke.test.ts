/**
 * The benchmark cannot rot: its smoke mode (demo data, short rounds) runs end to end in the test
 * suite, with every scenario measured on both sides and no unexpected status.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

describe('make bench-smoke', () => {
  it('measures every scenario on the gateway and directly, with the reference rows, peak RSS, what operating costs, the exports and the change feed, and reports the targets', async () => {
    const script = join(root, 'dist', 'bench', 'run.js');
    expect(existsSync(script)).toBe(true); // `make test` builds dist/ first
    const output = await new Promise<string>((resolve, reject) => {
      // A bound on a hang, not a measure: the smoke run does a fixed amount of work, which a loaded machine stretches (150 s seen at load 15; about 60 s alone).
      execFile(process.execPath, ['--disable-warning=ExperimentalWarning', script, '--smoke'], { timeout: 400000, maxBuffer: 1 << 24 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      );
    });
    for (const id of ['1', '2', '3', '4', '5a', '5b', '6a', '6b', '7a', '7b', 'floor', 'floor-memory', '2-memory']) expect(output).toMatch(new RegExp(`^\\| ${id} \\|`, 'm'));
    expect(output).toContain('Targets:');
    // What operating costs: access log, metrics, traces, compression (bench/operate.ts).
    expect(output).toContain('## Operating it');
    // The exports: every format (compressed too) read to the end, against the direct paging, and the client leaving halfway.
    for (const run of ['gateway, csv', 'gateway, ndjson', 'gateway, csv, gzip', 'gateway, ndjson, br', 'gateway, parquet', 'direct ERP paging'])
      expect(output).toMatch(new RegExp(`^\\| ${run}${run.startsWith('direct') ? '[^|]*' : ''} \\| 250 \\|`, 'm'));
    expect(output).toMatch(/Client leaving halfway through a CSV export of 1 pages/);
    // The change feed (bench/feed-cost.ts): the ERP calls alone and the feed through a gateway, without and with an index on write_date.
    for (const mix of ['total=false', 'counted']) expect(output).toMatch(new RegExp(`^- Watch mix \\(change detection on\\): the ${mix} dashboard, .* % from the cache`, 'm'));
    expect(output).toContain('## The change feed');
    for (const part of ['### As Odoo makes it: no index on write_date', '### With `CREATE INDEX ON stock_picking (write_date)`']) expect(output).toContain(part);
    expect(output.match(/^\| change-feed page: `write_date >= X`.* \| \d+ \| \d+ \| \d+ rows \|$/gm)).toHaveLength(2);
    expect(output.match(/^\| first sync from the epoch: its first \d+ pages \| \d+ \| \d+ \|/gm)).toHaveLength(2);
    expect(output.match(/The gateway's \/readyz said: `\{"stock\.picking":\{"case":"small"/g)).toHaveLength(2);
    const results = JSON.parse(readFileSync(join(root, 'bench', 'results', 'smoke.json'), 'utf8'));
    for (const result of results.results) {
      expect([result.id, result.gateway.unexpected, result.gateway.requests > 0, result.gateway.peakRssMb > 0]).toEqual([result.id, 0, true, true]);
      if (result.direct) expect([result.id, result.direct.unexpected, result.direct.requests > 0]).toEqual([result.id, 0, true]);
    }
    expect(results.soak.unexpected).toBe(0);
    const operate = results.operate.rows as { id: string; cpuMsPerRequest: number; bytes?: number }[];
    for (const id of ['log-off', 'log', 'metrics', 'traces', 'page-200-identity', 'page-200-br', 'doc/api/openapi.json-br'])
      expect([id, operate.find((row) => row.id === id)?.cpuMsPerRequest]).toEqual([id, expect.any(Number)]);
    // Compression is measured on what was sent: brotli's bytes are fewer.
    const bytes = (id: string) => operate.find((row) => row.id === id)?.bytes ?? 0;
    expect(bytes('page-200-br')).toBeLessThan(bytes('page-200-identity'));
  }, 420000);
});
