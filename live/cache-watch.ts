/**
 * @module `make live-cache-watch`: how soon a change in a live Odoo reaches cached answers, and what
 * the checks cost it (docs/caching.md, BENCHMARKS.md). A gateway (the production process, JSON-2,
 * TTL 300 s, METRICS_PORT) in front of the LIVE_ERP_* Odoo; an administrator (LIVE_ERP_ADMIN_*) copies
 * one analytic account, renames it LIVE_WATCH_ROUNDS (20) times, and each time the script polls the
 * cached list every 50 ms until it shows the new name: the delay from the write's answer to the cached
 * answer showing it. Then the checks' ERP time over the run (odg_cache_check_seconds_total) against
 * the run's duration: the share they took, and /readyz's intervals. The account is deleted at the end.
 * CACHE_WATCH_SHARE_PCT and the other settings are taken from the environment.
 *
 * LIVE_WATCH_RESOURCE=stock/pickings (or any resource; LIVE_WATCH_MODEL its ERP model, LIVE_WATCH_FIELD
 * the field written, `origin` for pickings, its API and ERP name alike) watches that resource instead:
 * the first record of its `order=id` page is rewritten each round (no copy: a picking's copy has moves
 * and a sequence), and its value put back at the end. For the checks' cost at scale (1M pickings).
 */
import { request } from 'node:http';
import { startMeasuredGateway } from '../bench/processes';
import { adminCalls } from './admin-rpc';
import { liveErpSettings } from './settings';

const RESOURCE = process.env['LIVE_WATCH_RESOURCE'];
const FIELD = process.env['LIVE_WATCH_FIELD'] ?? 'name';
const PATH = RESOURCE ? `/api/v1/${RESOURCE}?order=id&limit=50&fields=${FIELD}&total=false` : '/api/v1/analytic/accounts?limit=200&fields=name&total=false';
const MODEL = process.env['LIVE_WATCH_MODEL'] ?? 'account.analytic.account';

function get(url: string, key?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: key ? { Authorization: `Bearer ${key}` } : {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function main(): Promise<void> {
  const found = liveErpSettings();
  if (!found.ok) throw new Error(`live-cache-watch: ${found.reason}`);
  const { url, database, key } = found.settings;
  const rounds = Number(process.env['LIVE_WATCH_ROUNDS'] ?? 20);
  const rpc = await adminCalls(found.settings, 'live-cache-watch');
  const [port, metricsPort] = [18_481, 18_482];
  const gateway = await startMeasuredGateway(found.settings, url, port, { METRICS_PORT: String(metricsPort), CACHE_DEFAULT_TTL_S: '300' });
  const names = async () => (JSON.parse((await get(`${gateway.url}${PATH}`, key)).body) as { data: Record<string, unknown>[] }).data;
  let created: number | undefined;
  let rewritten: { id: number; value: unknown } | undefined;
  const delays: number[] = [];
  const started = Date.now();
  try {
    const first = (await names())[0];
    if (!first) throw new Error(`no record of ${MODEL} in the live ERP`);
    let target: number;
    if (RESOURCE) {
      const [stored] = (await rpc(MODEL, 'read', [[first['id']], [FIELD]])) as Record<string, unknown>[];
      rewritten = { id: first['id'] as number, value: stored?.[FIELD] ?? false };
      target = rewritten.id;
    } else {
      const copied = await rpc(MODEL, 'copy', [[first['id']], { name: 'odg live-cache-watch' }]);
      created = (Array.isArray(copied) ? copied[0] : copied) as number;
      target = created;
    }
    for (let round = 0; round < rounds; round++) {
      const name = `odg live-cache-watch ${round}`;
      await rpc(MODEL, 'write', [[target], { [FIELD]: name }]);
      const written = Date.now();
      for (;;) {
        if ((await names()).some((row) => row['id'] === target && row[FIELD] === name)) break;
        if (Date.now() - written > 600_000) throw new Error(`round ${round}: not seen within 600 s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      delays.push(Date.now() - written);
    }
  } finally {
    if (created !== undefined) await rpc(MODEL, 'unlink', [[created]]).catch(() => undefined);
    if (rewritten) await rpc(MODEL, 'write', [[rewritten.id], { [FIELD]: rewritten.value }]);
    const elapsed = (Date.now() - started) / 1000;
    const metrics = (await get(`http://127.0.0.1:${metricsPort}/metrics`)).body;
    const seconds = metrics
      .split('\n')
      .filter((line) => line.startsWith('odg_cache_check_seconds_total{'))
      .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
    const ready = JSON.parse((await get(`${gateway.url}/readyz`)).body) as { cache_watch?: { models?: Record<string, { check_ms: number; interval_ms: number }> } };
    await gateway.stop();
    const sorted = [...delays].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    console.log(`| ERP | ${url} (${database}), ${PATH}, JSON-2, CACHE_WATCH_SHARE_PCT=${process.env['CACHE_WATCH_SHARE_PCT'] ?? 2} |`);
    console.log('| --- | --- |');
    console.log(
      `| renames seen in the cached list (TTL 300 s) | ${delays.length}: p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, p99 ${at(0.99)} ms, max ${sorted.at(-1)} ms (in order: ${delays.join(', ')}) |`,
    );
    console.log(`| ERP time of checks / run | ${seconds.toFixed(2)} s / ${elapsed.toFixed(0)} s = ${((100 * seconds) / elapsed).toFixed(2)} % of one worker |`);
    for (const [model, m] of Object.entries(ready.cache_watch?.models ?? {})) console.log(`| ${model} | check ${m.check_ms} ms, interval ${m.interval_ms} ms |`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(2);
});
