/**
 * @module The live dashboard's tiles and its closed-loop client (live/dashboard.ts, live/watch-mix.ts):
 * ten `stock/pickings` tiles, as gateway requests or as the ERP calls the gateway sends for them, and
 * clients that each send their next request once the previous answer is read, timing each answer
 * from sending to its last byte (Odoo closes the connection after every answer: an open-loop
 * generator would count its reconnections into the latencies).
 */
import Ajv2020 from 'ajv/dist/2020';
import { STOCK_PICKINGS } from '@ops-data-gateway/gateway/generated/resources/stock';
import { ERP_CONTEXT, listRequests } from '@ops-data-gateway/gateway/runtime/erp-requests';
import { QueryParser } from '@ops-data-gateway/gateway/runtime/query/parse-query';
import type { LiveErpSettings } from './settings';

export const RESOURCE = STOCK_PICKINGS;
const parser = new QueryParser(RESOURCE, new Ajv2020({ strict: true, verbose: true }));

export interface Sent {
  readonly url: string;
  readonly init: RequestInit;
}

/** One tile: what is sent for it, one request or the ERP calls sent in parallel, one answer. */
export type Tile = readonly Sent[];

export interface Run {
  readonly answers: number;
  readonly seconds: number;
  readonly p50: number;
  readonly p99: number;
  readonly unexpected: number;
}

export function tiles(counted: boolean): Record<string, string>[] {
  const queries: Record<string, string>[] = [];
  const total: Record<string, string> = counted ? {} : { total: 'false' };
  for (let offset = 5; offset <= 25; offset += 5) queries.push({ order: 'id', limit: '20', offset: String(offset), ...total });
  for (const limit of [10, 20, 30, 40, 50]) queries.push({ order: 'id', limit: String(limit), ...total });
  return queries;
}

export function gatewayTile(gateway: string, key: string, query: Record<string, string>): Tile {
  return [{ url: `${gateway}/api/v1/${RESOURCE.path}?${new URLSearchParams(query)}`, init: { headers: { Authorization: `Bearer ${key}` } } }];
}

/** The ERP calls the gateway sends for the tile (its own request builder), as JSON-2 requests. */
export function directTile(settings: LiveErpSettings, query: Record<string, string>): Tile {
  const requests = listRequests(RESOURCE, parser.parseList(query));
  const json2 = (method: string, body: object): Sent => ({
    url: `${settings.url}/json/2/${RESOURCE.model}/${method}`,
    init: {
      method: 'POST',
      headers: { Authorization: `bearer ${settings.key}`, 'X-Odoo-Database': settings.database, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...body, context: ERP_CONTEXT }),
    },
  });
  const calls = [json2('search_read', requests.page)];
  if (requests.countDomain) calls.push(json2('search_count', { domain: requests.countDomain }));
  return calls;
}

export async function send(sent: Sent): Promise<boolean> {
  try {
    const response = await fetch(sent.url, sent.init);
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

/** `clients` closed loops over the tiles for `seconds`: each answer timed from sending to its last byte. */
export async function closedLoop(tileList: readonly Tile[], clients: number, seconds: number): Promise<Run> {
  const times: number[] = [];
  let unexpected = 0;
  let next = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        const tile = tileList[next++ % tileList.length] as Tile;
        const sentAt = performance.now();
        const ok = await Promise.all(tile.map(send));
        times.push(performance.now() - sentAt);
        if (ok.includes(false)) unexpected++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return { answers: times.length, seconds: elapsed, p50: percentile(times, 0.5), p99: percentile(times, 0.99), unexpected };
}
