/**
 * @module `make live-watch-mix`: the dashboard mix with a writer, on a live Odoo (issue 31's target
 * "dashboard mix with a long TTL while a writer changes one record a second: at least 90 % of answers
 * from the cache and the gateway at least 25x the ERP's direct throughput", measured by hand on a
 * real Odoo as `make bench` measures it on the sandbox, bench/cache-bench.ts).
 *
 * A gateway (the production process, JSON-2, TTL 300 s, change detection at its defaults,
 * METRICS_PORT) behind the counting proxy; LIVE_DASHBOARD_CLIENTS (64) connections (autocannon: the
 * gateway keeps them open) poll the ten `stock/pickings` tiles for LIVE_DASHBOARD_SECONDS (30) while the administrator rewrites the
 * `origin` of the first picking by id (on the five first-page tiles) once a second, its value put
 * back at the end; then the same tiles sent to Odoo directly as the ERP calls the gateway sends, by
 * as many closed-loop clients (Odoo closes the connection after every answer: each client times its
 * answer and sends the next), the writer still writing. `total=false`, then counted. Answers by outcome from
 * `odg_cache_answers_total`, checks from `odg_cache_checks_total`. Prints Markdown rows.
 */
import { runLoad, startService, type Service, startMeasuredGateway } from '../bench/processes';
import { byLabel, minus } from '../bench/prometheus-text';
import { adminCalls } from './admin-rpc';
import { closedLoop, directTile, gatewayTile, RESOURCE, type Sent, send, tiles } from './closed-loop';
import { liveErpSettings } from './settings';

const SECONDS = Number(process.env['LIVE_DASHBOARD_SECONDS'] ?? 30);
const CLIENTS = Number(process.env['LIVE_DASHBOARD_CLIENTS'] ?? 64);
const TTL_S = 300;
const FIELD = 'origin';

const list = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${n} ${name}`)
    .join(', ') || 'none';

async function main(): Promise<void> {
  const found = liveErpSettings();
  if (!found.ok) throw new Error(`live-watch-mix: ${found.reason}; see docs/compatibility.md`);
  const settings = found.settings;
  const rpc = await adminCalls(settings, 'live-watch-mix');
  const services: Service[] = [];
  const [proxyPort, port, metricsPort] = [18_491, 18_492, 18_493];
  const proxy = await startService('bench/counting-proxy.js', [String(proxyPort), settings.url], {}, `http://127.0.0.1:${proxyPort}`, /counting proxy listening/);
  services.push(proxy);
  // The first picking by id: on the five first-page tiles (domain, fields, offset, limit, order).
  const [first] = (await rpc(RESOURCE.model, 'search_read', [[], ['id', FIELD], 0, 1, 'id asc'])) as { id: number; origin: unknown }[];
  if (!first) throw new Error(`live-watch-mix: no record of ${RESOURCE.model}`);
  let writes = 0;
  let failedWrites = 0;
  try {
    const gateway = await startMeasuredGateway(settings, proxy.url, port, { METRICS_PORT: String(metricsPort), CACHE_DEFAULT_TTL_S: String(TTL_S) });
    services.push(gateway);
    if (!(await send(gatewayTile(gateway.url, settings.key, { limit: '1', total: 'false' })[0] as Sent))) throw new Error('the gateway refuses LIVE_ERP_KEY');
    const metrics = `http://127.0.0.1:${metricsPort}/metrics`;
    console.log(
      `ERP ${settings.url} (${settings.database}), ${RESOURCE.path}, ${CLIENTS} connections to the gateway (autocannon) and ${CLIENTS} closed-loop clients to Odoo, ${SECONDS} s per side, TTL ${TTL_S} s, change detection at its defaults, one write a second (picking ${first.id}'s ${FIELD}), load average ${(await import('node:os')).loadavg()[0]?.toFixed(1)}\n`,
    );
    console.log('| Tiles | Answers (by outcome) | From the cache | Gateway | Odoo directly | Ratio | Checks in the run | ERP calls received through the gateway |');
    console.log('| --- | --- | ---: | --- | --- | ---: | --- | --- |');
    for (const counted of [false, true]) {
      const queries = tiles(counted);
      const [answersBefore, checksBefore] = [await byLabel(metrics, 'odg_cache_answers_total', 'outcome'), await byLabel(metrics, 'odg_cache_checks_total', 'outcome')];
      await fetch(`${proxy.url}/__reset`, { method: 'POST' });
      let writing = true;
      const writer = (async () => {
        while (writing) {
          const at = Date.now();
          // A write Odoo refuses under the load (its connection pool full) is counted, not fatal.
          await rpc(RESOURCE.model, 'write', [[first.id], { [FIELD]: `odg live-watch-mix ${++writes}` }]).catch(() => failedWrites++);
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - (Date.now() - at))));
        }
      })();
      const writesBefore = writes;
      // The gateway keeps its connections open: autocannon (bench/load-generator.ts, a process of its own)
      // measures it without the fetch client's own CPU in the way; Odoo closes its connections after
      // every answer, so it is measured by the closed-loop client (live/closed-loop.ts).
      const viaGateway = await runLoad({
        origin: gateway.url,
        requests: queries.map((q) => ({ method: 'GET', path: `/api/v1/${RESOURCE.path}?${new URLSearchParams(q)}`, headers: { Authorization: `Bearer ${settings.key}` } })),
        connections: CLIENTS,
        duration: SECONDS,
      });
      const gatewayUnexpected = viaGateway.errors + Object.entries(viaGateway.statuses).reduce((n, [status, count]) => n + (status === '200' ? 0 : count), 0);
      const writesDuring = writes - writesBefore;
      const answers = minus(await byLabel(metrics, 'odg_cache_answers_total', 'outcome'), answersBefore);
      const checks = minus(await byLabel(metrics, 'odg_cache_checks_total', 'outcome'), checksBefore);
      const erp = (await (await fetch(`${proxy.url}/__counts`)).json()) as Record<string, number>;
      const direct = await closedLoop(
        queries.map((q) => directTile(settings, q)),
        CLIENTS,
        SECONDS,
      );
      writing = false;
      await writer;
      const answered = Object.values(answers).reduce((a, b) => a + b, 0);
      const hitShare = (100 * (answers['hit'] ?? 0)) / Math.max(1, answered);
      const g = viaGateway.rps;
      // Odoo's answers, not its refusals (past its connection pool it answers 500 at once).
      const d = (direct.answers - direct.unexpected) / direct.seconds;
      const erpCalls = Object.fromEntries(Object.entries(erp).filter(([method]) => method === 'search_read' || method === 'search_count'));
      console.log(
        `| ${counted ? 'counted (page and count)' : '`total=false`'} | ${answered} (${list(answers)}) | **${hitShare.toFixed(1)} %** | ${g.toFixed(0)} answers/s, p50 ${viaGateway.p50.toFixed(1)} ms, p99 ${viaGateway.p99.toFixed(1)} ms (unexpected: ${gatewayUnexpected}) | ${d.toFixed(1)} answers/s, p50 ${direct.p50.toFixed(0)} ms (refused, not counted: ${direct.unexpected}) | **${(g / d).toFixed(0)}x** | ${list(checks)} (${writesDuring} writes meanwhile, ${failedWrites} refused by Odoo so far) | ${list(erpCalls)} |`,
      );
    }
  } finally {
    await rpc(RESOURCE.model, 'write', [[first.id], { [FIELD]: first.origin }]).catch((error: unknown) =>
      console.error(`live-watch-mix: could not put ${FIELD} back on picking ${first.id}: ${String(error)}`),
    );
    await Promise.all(services.map((service) => service.stop()));
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(2);
});
