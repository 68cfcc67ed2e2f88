/**
 * @module `make live-latency`: what the gateway adds on a live ERP, per transport. For each
 * transport the ERP offers, a built gateway (packages/gateway/dist/runtime/main.js, production V8 flags) runs against
 * the ERP from LIVE_ERP_* settings; each scenario is timed sequentially (concurrency 1) through the
 * gateway and as the same ERP call(s) sent directly with the gateway's own client, in alternating
 * rounds so drift of the machine cancels out. Prints a Markdown table (docs/compatibility.md).
 */
import Ajv2020 from 'ajv/dist/2020';
import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import { GATEWAY_MAIN, GATEWAY_NODE_FLAGS, startService } from '../bench/processes';
import { loadConfig } from '@ops-data-gateway/gateway/runtime/config';
import { ErpClient, ErpStats } from '@ops-data-gateway/gateway/runtime/erp/erp-client';
import { detailRequest, ERP_CONTEXT, listRequests } from '@ops-data-gateway/gateway/runtime/erp-requests';
import { QueryParser } from '@ops-data-gateway/gateway/runtime/query/parse-query';
import type { ResourceSpec } from '@ops-data-gateway/gateway/runtime/resource-spec';
import { liveErpSettings, transportsOf, type LiveErpSettings, type LiveTransport } from './settings';

const ROUNDS = Number(process.env['LIVE_LATENCY_ROUNDS'] ?? 5);
const PER_ROUND = Number(process.env['LIVE_LATENCY_REQUESTS'] ?? 20);
const RESOURCE_PATH = process.env['LIVE_LATENCY_RESOURCE'] ?? 'stock/pickings';

interface Scenario {
  readonly title: string;
  readonly path: string;
  /** The ERP calls the gateway sends for it (after authentication, which is cached warm). */
  readonly direct: readonly { method: 'search_read' | 'search_count'; kwargs: Record<string, unknown> }[];
}

function scenariosOf(resource: ResourceSpec, id: number): Scenario[] {
  const parser = new QueryParser(resource, new Ajv2020({ strict: true, verbose: true }));
  const list = (title: string, query: Record<string, string>): Scenario => {
    const requests = listRequests(resource, parser.parseList(query));
    const direct: Scenario['direct'][number][] = [{ method: 'search_read', kwargs: { ...requests.page } }];
    if (requests.countDomain) direct.push({ method: 'search_count', kwargs: { domain: requests.countDomain } });
    return { title, path: `/api/v1/${resource.path}?${new URLSearchParams(query)}`, direct };
  };
  return [
    { title: 'detail by id', path: `/api/v1/${resource.path}/${id}`, direct: [{ method: 'search_read', kwargs: { ...detailRequest(resource, id, parser.parseDetail({})) } }] },
    list('list, limit=50, total=false', { limit: '50', total: 'false' }),
    list('list, limit=50, with total', { limit: '50' }),
  ];
}

function p(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

async function measure(settings: LiveErpSettings, transport: LiveTransport, resource: ResourceSpec, port: number): Promise<string[]> {
  const env = {
    ERP_URL: settings.url,
    ERP_DATABASE: settings.database,
    ERP_LOGIN: settings.login,
    ERP_TRANSPORT: transport,
    DRIFT_CHECK: 'off',
    PORT: String(port),
    LOG_LEVEL: 'info',
    ...(settings.apiGroup ? { ERP_API_GROUP: settings.apiGroup } : {}),
  };
  const direct = new ErpClient(loadConfig(env).erp);
  const stats = new ErpStats();
  const uid = await direct.identify(settings.key, stats);
  if (uid === false) throw new Error(`the ERP refuses LIVE_ERP_KEY over ${transport}`);
  const sent = (await direct.call(
    { uid, key: settings.key },
    { model: resource.model, method: 'search_read', ids: null, kwargs: { domain: [], fields: ['id'], limit: 1, context: ERP_CONTEXT } },
    stats,
  )) as { id: number }[];
  const gateway = await startService(GATEWAY_MAIN, [], env, `http://127.0.0.1:${port}`, /gateway listening/, GATEWAY_NODE_FLAGS);
  const rows: string[] = [];
  try {
    for (const scenario of scenariosOf(resource, sent[0]?.id ?? 1)) {
      const viaGateway = async () => {
        const response = await fetch(`${gateway.url}${scenario.path}`, { headers: { Authorization: `Bearer ${settings.key}` } });
        if (response.status !== 200) throw new Error(`${scenario.path}: ${response.status} ${await response.text()}`);
        await response.arrayBuffer();
      };
      const viaErp = async () => {
        for (const call of scenario.direct)
          await direct.call({ uid, key: settings.key }, { model: resource.model, method: call.method, ids: null, kwargs: { ...call.kwargs, context: ERP_CONTEXT } }, stats);
      };
      const times = { gateway: [] as number[], direct: [] as number[] };
      await viaGateway(); // warms the gateway's key cache and the ERP's
      await viaErp();
      for (let round = 0; round < ROUNDS; round++) {
        for (const [side, run] of [
          ['gateway', viaGateway],
          ['direct', viaErp],
        ] as const) {
          for (let i = 0; i < PER_ROUND; i++) {
            const started = performance.now();
            await run();
            times[side].push(performance.now() - started);
          }
        }
      }
      const g = times.gateway.sort((a, b) => a - b);
      const d = times.direct.sort((a, b) => a - b);
      const f = (n: number) => n.toFixed(1);
      rows.push(
        `| ${transport} | ${scenario.title} | ${f(p(d, 0.5))} | ${f(p(g, 0.5))} | ${f(p(g, 0.5) - p(d, 0.5))} | ${f(p(d, 0.99))} | ${f(p(g, 0.99))} | ${f(p(g, 0.99) - p(d, 0.99))} |`,
      );
    }
  } finally {
    await gateway.stop();
  }
  return rows;
}

async function main(): Promise<void> {
  const found = liveErpSettings();
  if (!found.ok) {
    console.error(`live-latency: ${found.reason}; see docs/compatibility.md`);
    process.exit(2);
  }
  const settings = found.settings;
  const resource = RESOURCES.find((r) => r.path === RESOURCE_PATH);
  if (!resource) throw new Error(`no resource ${RESOURCE_PATH}`);
  const probe = new ErpClient(loadConfig({ ERP_URL: settings.url, ERP_DATABASE: settings.database, ERP_LOGIN: settings.login, ERP_TRANSPORT: 'jsonrpc' }).erp);
  const { version } = await probe.connect();
  const transports = settings.transports ?? transportsOf(version.major);
  console.log(`Odoo ${version.major} at ${settings.url}, ${resource.path}, ${ROUNDS} rounds x ${PER_ROUND} sequential requests per side, milliseconds\n`);
  console.log('| transport | scenario | direct p50 | gateway p50 | added p50 | direct p99 | gateway p99 | added p99 |');
  console.log('|---|---|---|---|---|---|---|---|');
  let port = 18_400;
  for (const transport of transports) for (const row of await measure(settings, transport, resource, port++)) console.log(row);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(2);
});
