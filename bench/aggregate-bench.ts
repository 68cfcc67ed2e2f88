/**
 * @module The aggregate route on the benchmark's `stock/pickings` (1,000,000 rows): "count by state"
 * answered by the gateway (one grouped read in the ERP), against the same answer computed on the client
 * from an NDJSON export of the pickings' states (every row on the wire, counted as it arrives), in the
 * same run; and the route's cost on a cache miss (response cache off: every request reads the ERP)
 * and a cache hit. The two answers are compared: the bench fails if the counts differ.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { Service } from './processes';
import { RESOURCE } from './scenarios';

type GatewayStarter = (erpUrl: string, extra?: Record<string, string>) => Promise<Service>;

export interface AggregateBench {
  readonly rows: number;
  /** Median seconds of the route with the response cache off (each a grouped read in the ERP). */
  readonly missSeconds: number;
  /** Median seconds of the route answered from the response cache. */
  readonly hitSeconds: number;
  readonly exportSeconds: number;
  readonly exportBytes: number;
  readonly groups: number;
  readonly requests: number;
}

const PATH = `/api/v1/${RESOURCE.path}/aggregate?group_by=state`;

async function get(origin: string, path: string, key: string, onData?: (chunk: Buffer) => void): Promise<{ seconds: number; body: string; bytes: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { headers: { Authorization: `Bearer ${key}` } }, (res: IncomingMessage) => {
      if (res.statusCode !== 200) return reject(new Error(`${path}: ${res.statusCode}`));
      const kept: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (onData) onData(chunk);
        else kept.push(chunk);
      });
      res.on('end', () => resolve({ seconds: (performance.now() - started) / 1000, body: Buffer.concat(kept).toString('utf8'), bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** Counts by state from an NDJSON export, line by line as it arrives (what a client without the route does). */
async function countOnClient(origin: string, key: string): Promise<{ counts: Map<string, number>; seconds: number; bytes: number; rows: number }> {
  const counts = new Map<string, number>();
  let rest = '';
  let rows = 0;
  const take = (line: string) => {
    if (!line) return;
    const state = (JSON.parse(line) as { state: string | null }).state ?? 'null';
    counts.set(state, (counts.get(state) ?? 0) + 1);
    rows++;
  };
  const { seconds, bytes } = await get(origin, `/api/v1/${RESOURCE.path}?format=ndjson&fields=state`, key, (chunk) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) take(line);
  });
  take(rest);
  return { counts, seconds, bytes, rows };
}

/** `uncached`: a gateway of the run without a response cache (the default); one with a cache is started here. */
export async function benchAggregate(sandboxUrl: string, key: string, uncached: Service, startGateway: GatewayStarter, requests: number): Promise<AggregateBench> {
  const cached = await startGateway(sandboxUrl, { CACHE_DEFAULT_TTL_S: '600' });
  try {
    await get(uncached.url, `/api/v1/${RESOURCE.path}?limit=1&total=false`, key); // key check and read right cached
    const miss: number[] = [];
    let answer = '';
    for (let i = 0; i < requests; i++) {
      const res = await get(uncached.url, PATH, key);
      miss.push(res.seconds);
      answer = res.body;
    }
    await get(cached.url, PATH, key); // fills the entry
    const hit: number[] = [];
    for (let i = 0; i < requests; i++) hit.push((await get(cached.url, PATH, key)).seconds);
    const client = await countOnClient(uncached.url, key);
    const groups = (JSON.parse(answer) as { data: { state: string | null; count: number }[] }).data;
    for (const group of groups) {
      const counted = client.counts.get(group.state ?? 'null') ?? 0;
      if (counted !== group.count) throw new Error(`aggregate bench: state ${group.state}: the route counts ${group.count}, the export ${counted}`);
    }
    if (groups.reduce((sum, g) => sum + g.count, 0) !== client.rows) throw new Error('aggregate bench: the groups do not add up to the exported rows');
    return { rows: client.rows, missSeconds: median(miss), hitSeconds: median(hit), exportSeconds: client.seconds, exportBytes: client.bytes, groups: groups.length, requests };
  } finally {
    await cached.stop();
  }
}

export function aggregateReport(result: AggregateBench): string[] {
  const ms = (s: number) => (s * 1000).toFixed(s < 0.01 ? 2 : 0);
  return [
    '',
    `## Summaries: count of ${RESOURCE.path} by state (${result.rows.toLocaleString('en')} rows, ${result.groups} groups)`,
    '',
    '| Way | Time | On the wire |',
    '| --- | --- | --- |',
    `| gateway \`${PATH}\`, response cache off (one grouped read in the ERP), median of ${result.requests} | ${ms(result.missSeconds)} ms | one small JSON |`,
    `| the same, answered from the response cache, median of ${result.requests} | ${ms(result.hitSeconds)} ms | one small JSON |`,
    `| client: NDJSON export of \`fields=state\`, counted line by line | ${ms(result.exportSeconds)} ms | ${(result.exportBytes / 1e6).toFixed(1)} MB |`,
    '',
    `Export-and-count takes ${(result.exportSeconds / result.missSeconds).toFixed(0)}x the route's uncached time (same run; equal counts checked).`,
    '',
  ];
}
