/**
 * @module `make live-dashboard`: the response cache's dashboard and request coalescing on a live ERP
 * (LIVE_ERP_* settings; docs/compatibility.md), measured with a closed-loop client that times each
 * answer from sending to its last byte. Odoo answers `Connection: close`: an open-loop generator that
 * keeps its connections busy (autocannon) counts the reconnections into its latencies and, past a
 * few connections, measures its own queue; here each of `LIVE_DASHBOARD_CLIENTS` clients sends its
 * next request once its previous answer is read, over a fresh connection when the server closed it.
 *
 * - Dashboard: ten `stock/pickings` tiles (five 20-record pages at offsets 5 to 25, first pages of
 *   10 to 50 records), `total=false` then counted (the default: page and count), polled through a
 *   gateway with `CACHE_DEFAULT_TTL_S=5` (JSON-2, production V8 flags) behind a proxy that counts
 *   the calls reaching the ERP; then the same tiles as the ERP calls the gateway sends, sent to the
 *   ERP directly (a counted tile's two calls in parallel, as the gateway sends them, one answer).
 * - Coalescing: bursts of 64 identical counted requests sent at once, through a gateway with the
 *   cache off and one with it on (a new query each burst, so each is a miss), and the ERP calls
 *   each burst cost.
 *
 * Prints Markdown rows and the settings; a few minutes (LIVE_DASHBOARD_SECONDS per side and load).
 */
import { cpuSeconds, startService, type Service, startMeasuredGateway } from '../bench/processes';
import { closedLoop, directTile, gatewayTile, RESOURCE, type Sent, send, tiles } from './closed-loop';
import { liveErpSettings } from './settings';

const SECONDS = Number(process.env['LIVE_DASHBOARD_SECONDS'] ?? 20);
const CLIENTS = (process.env['LIVE_DASHBOARD_CLIENTS'] ?? '8,64').split(',').map(Number);
const BURSTS = Number(process.env['LIVE_DASHBOARD_BURSTS'] ?? 5);
const BURST_SIZE = 64;
const TTL_S = 5;

async function counts(proxy: Service): Promise<Record<string, number>> {
  return (await (await fetch(`${proxy.url}/__counts`)).json()) as Record<string, number>;
}

async function reset(proxy: Service): Promise<void> {
  await fetch(`${proxy.url}/__reset`, { method: 'POST' });
}

const calls = (c: Record<string, number>) =>
  Object.entries(c)
    .filter(([method]) => method === 'search_read' || method === 'search_count')
    .map(([method, n]) => `${n} \`${method}\``)
    .join(', ') || 'none';

async function main(): Promise<void> {
  const found = liveErpSettings();
  if (!found.ok) {
    console.error(`live-dashboard: ${found.reason}; see docs/compatibility.md`);
    process.exit(2);
  }
  const settings = found.settings;
  const services: Service[] = [];
  let port = 18_450;
  const proxy = await startService('bench/counting-proxy.js', [String(port), settings.url], {}, `http://127.0.0.1:${port}`, /counting proxy listening/);
  services.push(proxy);
  const startGateway = async (extra: Record<string, string>) => {
    port++;
    const gateway = await startMeasuredGateway(settings, proxy.url, port, extra);
    services.push(gateway);
    // The key and its read right checked once, before the clock starts.
    if (!(await send(gatewayTile(gateway.url, settings.key, { limit: '1', total: 'false' })[0] as Sent))) throw new Error('the gateway refuses LIVE_ERP_KEY');
    return gateway;
  };
  try {
    const cached = await startGateway({ CACHE_DEFAULT_TTL_S: String(TTL_S) });
    const pid = cached.process.pid as number;
    console.log(
      `ERP ${settings.url} (${settings.database}), ${RESOURCE.path}, closed loop, ${SECONDS} s per side, TTL ${TTL_S} s, load average ${(await import('node:os')).loadavg()[0]?.toFixed(1)}\n`,
    );
    console.log('| Tiles | Clients | Gateway (cache, TTL 5 s) | Odoo directly | Ratio | ERP calls received through the gateway |');
    console.log('| --- | ---: | --- | --- | ---: | --- |');
    for (const counted of [false, true]) {
      for (const clients of CLIENTS) {
        const queries = tiles(counted);
        await reset(proxy);
        const cpuBefore = cpuSeconds(pid);
        const viaGateway = await closedLoop(
          queries.map((q) => gatewayTile(cached.url, settings.key, q)),
          clients,
          SECONDS,
        );
        const cpuMs = ((cpuSeconds(pid) - cpuBefore) * 1000) / Math.max(1, viaGateway.answers);
        const erp = await counts(proxy);
        const direct = await closedLoop(
          queries.map((q) => directTile(settings, q)),
          clients,
          SECONDS,
        );
        const g = viaGateway.answers / viaGateway.seconds;
        // Odoo's answers, not its refusals (past its connection pool it answers 500 at once).
        const d = (direct.answers - direct.unexpected) / direct.seconds;
        console.log(
          `| ${counted ? 'counted (page and count)' : '`total=false`'} | ${clients} | ${g.toFixed(0)} answers/s, p50 ${viaGateway.p50.toFixed(1)} ms, p99 ${viaGateway.p99.toFixed(1)} ms, CPU ${cpuMs.toFixed(2)} ms/answer | ${d.toFixed(1)} answers/s, p50 ${direct.p50.toFixed(0)} ms, p99 ${direct.p99.toFixed(0)} ms | ${(g / d).toFixed(0)}x | ${calls(erp)} in ${viaGateway.seconds.toFixed(0)} s (unexpected statuses: ${viaGateway.unexpected + direct.unexpected}) |`,
        );
      }
    }

    const uncached = await startGateway({});
    console.log(`\nCoalescing: ${BURSTS} bursts of ${BURST_SIZE} identical counted requests sent at once (a new query each burst)\n`);
    console.log('| Gateway | ERP calls per burst (each burst) | Statuses |');
    console.log('| --- | --- | --- |');
    let burstQuery = 0;
    for (const [title, gateway] of [
      ['cache off (the default)', uncached],
      [`cache on (TTL ${TTL_S} s)`, cached],
    ] as const) {
      const perBurst: string[] = [];
      const statuses = new Map<boolean, number>();
      for (let burst = 0; burst < BURSTS; burst++) {
        const tile = gatewayTile(gateway.url, settings.key, { order: 'id', limit: String(21 + burstQuery++) })[0] as Sent;
        await reset(proxy);
        const ok = await Promise.all(Array.from({ length: BURST_SIZE }, () => send(tile)));
        for (const o of ok) statuses.set(o, (statuses.get(o) ?? 0) + 1);
        const c = await counts(proxy);
        perBurst.push(`${c['search_read'] ?? 0} + ${c['search_count'] ?? 0}`);
      }
      console.log(`| ${title} | \`search_read\` + \`search_count\`: ${perBurst.join('; ')} | ${statuses.get(true) ?? 0} × 200, ${statuses.get(false) ?? 0} other |`);
    }
  } finally {
    await Promise.all(services.map((service) => service.stop()));
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(2);
});
