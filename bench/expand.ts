/**
 * @module `make bench` (and `--expand-only`): what `expand` saves (issue 30). A page of 200 (20 with
 * `--smoke`) purchase orders with their lines, asked once with `expand=lines`, against what a client does
 * without it: the page, then one request of the lines per order (1 + N). Each side is timed end to end
 * (sequential requests, as a script or a dashboard loading one screen makes them) and its ERP calls
 * are counted by a proxy in front of the sandbox. Medians over the rounds.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Service } from './processes';

type GatewayStarter = (erpUrl: string, extra?: Record<string, string>) => Promise<Service>;

interface Side {
  readonly label: string;
  readonly parents: number;
  readonly children: number;
  readonly httpRequests: number;
  readonly erpCalls: number;
  readonly ms: number;
}

export interface ExpandBench {
  readonly expanded: Side;
  readonly joined: Side;
}

async function getJson(origin: string, path: string, key: string): Promise<{ data: { id: number; lines?: unknown[] }[]; meta: { total?: number } }> {
  const res = await fetch(`${origin}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  return (await res.json()) as { data: { id: number; lines?: unknown[] }[]; meta: { total?: number } };
}

function countingProxy(target: string): Promise<{ server: Server; url: string; calls: () => number }> {
  const upstream = new URL(target);
  let calls = 0;
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/json/2/')) calls++;
    const out = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls: () => calls })));
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** `parents`: the page's size (200 in `make bench`; the smoke run, which the test suite times, takes fewer). */
export async function benchExpand(sandboxUrl: string, key: string, startGateway: GatewayStarter, rounds: number, parents: number): Promise<ExpandBench> {
  const proxy = await countingProxy(sandboxUrl);
  const gateway = await startGateway(proxy.url);
  try {
    const origin = gateway.url;
    const page = `/api/v1/purchase/orders?limit=${parents}&total=false`;
    // Warm: the key check and the read rights are cached by the first request.
    await getJson(origin, `${page}&expand=lines`, key);
    const expanded: Side[] = [];
    const joined: Side[] = [];
    for (let round = 0; round < rounds; round++) {
      let calls = proxy.calls();
      let started = performance.now();
      const one = await getJson(origin, `${page}&expand=lines`, key);
      expanded.push({
        label: 'expand=lines: one request',
        parents: one.data.length,
        children: one.data.reduce((n, order) => n + (order.lines?.length ?? 0), 0),
        httpRequests: 1,
        erpCalls: proxy.calls() - calls,
        ms: performance.now() - started,
      });
      calls = proxy.calls();
      started = performance.now();
      const orders = await getJson(origin, page, key);
      let children = 0;
      for (const order of orders.data) children += (await getJson(origin, `/api/v1/purchase/order-lines?order_id=${order.id}&limit=50&total=false`, key)).data.length;
      joined.push({
        label: '1 + N requests, joined by the client',
        parents: orders.data.length,
        children,
        httpRequests: 1 + orders.data.length,
        erpCalls: proxy.calls() - calls,
        ms: performance.now() - started,
      });
    }
    const pick = (sides: Side[]): Side => ({ ...(sides[0] as Side), erpCalls: median(sides.map((s) => s.erpCalls)), ms: median(sides.map((s) => s.ms)) });
    return { expanded: pick(expanded), joined: pick(joined) };
  } finally {
    await gateway.stop();
    proxy.server.close();
  }
}

export function expandReport(result: ExpandBench): string[] {
  const row = (s: Side) => `| ${s.label} | ${s.parents} | ${s.children} | ${s.httpRequests} | ${s.erpCalls} | ${s.ms.toFixed(1)} |`;
  return [
    '| Purchase orders with their lines | Orders | Lines | HTTP requests | ERP calls | Time (ms, median) |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    row(result.expanded),
    row(result.joined),
  ];
}
