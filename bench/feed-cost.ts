/**
 * @module What the change feed costs an ERP (JSON-2): `make live-feed-cost` on a live Odoo, and the
 * change-feed section of `make bench` on the sandbox at 1M rows, with and without an index on
 * `write_date` (BENCHMARKS.md). Read-only. On one resource (`stock/pickings`).
 *
 * 1. The ERP calls themselves, each timed alone by a closed-loop client: one request at a time, on a
 *    connection of its own (Odoo answers `Connection: close`), from the request's first byte to the
 *    answer's last; `rounds` times each after one warm-up, p50 and fastest. Issue 31's
 *    table (a list page, the latest write, a count of the last second, a feed page by write_date, a
 *    count of everything) and the calls the feed makes now (its caught-up read, a copy page, a
 *    deletion check, the cost probe).
 * 2. Through a gateway (a built one, production flags), page by page, with the ERP time each answer's
 *    `Server-Timing` reports: a first sync from the epoch (`pages` pages of 200 at its start, in the
 *    middle of the copy and at its end; the whole of it with `full`), caught-up polls
 *    (a token at the horizon), the case the gateway detected (/readyz), and, for comparison, the same
 *    first pages read by write_date throughout (CHANGES_WRITE_DATE_INDEX=yes: what every page cost
 *    before).
 */
import { request } from 'node:http';
import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import { changeScanRequest, copyScanRequest, ERP_CONTEXT, HIGHEST_ID_REQUEST, idRangeRequest, type PageRequest } from '@ops-data-gateway/gateway/runtime/erp-requests';
import { changeToken, erpSecond } from '@ops-data-gateway/gateway/runtime/query/changed-since';
import { startMeasuredGateway, type Service } from './processes';

/** The ERP measured, and how. */
export interface FeedCostOptions {
  readonly url: string;
  readonly database: string;
  readonly login: string;
  readonly key: string;
  readonly apiGroup?: string;
  /** Timed calls of each ERP call (after one warm-up). */
  readonly rounds: number;
  /** Pages of each part of the first sync through the gateway. */
  readonly pages: number;
  /** Also a whole first sync. */
  readonly full: boolean;
  /** Caught-up polls, one a second. */
  readonly polls: number;
  /** Also the first pages read by write_date throughout (a gateway of its own). */
  readonly compareWalk: boolean;
  readonly resource: string;
  /** Ports of the two gateways (the feed as it is, and read by write_date throughout). */
  readonly ports: readonly [number, number];
}

const LIMIT = 200;
const SETTLE_S = 10;
const FIRST = { span: 0, next: 1, seen: 0, digests: [] };

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly ms: number;
}

/** One request on a connection of its own, timed from its first byte to the answer's last. */
function send(url: string, method: 'GET' | 'POST', headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { method, agent: false, headers: { ...headers, ...(body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) }) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers, ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function json2(settings: FeedCostOptions, model: string, method: string, kwargs: object): Promise<Answer> {
  return send(
    `${settings.url}/json/2/${model}/${method}`,
    'POST',
    { Authorization: `bearer ${settings.key}`, 'X-Odoo-Database': settings.database, 'Content-Type': 'application/json' },
    JSON.stringify({ ...kwargs, context: ERP_CONTEXT }),
  );
}

const f = (n: number | undefined, digits = 0) => (n === undefined || Number.isNaN(n) ? '–' : n.toFixed(digits));
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function timeCall(settings: FeedCostOptions, model: string, method: string, kwargs: object): Promise<{ p50: number; min: number; rows: string }> {
  const run = async () => {
    const answer = await json2(settings, model, method, kwargs);
    if (answer.status !== 200) throw new Error(`${model}/${method}: ${answer.status} ${answer.body.slice(0, 300)}`);
    return answer;
  };
  await run();
  const times: number[] = [];
  let last: Answer | undefined;
  for (let i = 0; i < settings.rounds; i++) {
    last = await run();
    times.push(last.ms);
  }
  const parsed = JSON.parse((last as Answer).body) as unknown;
  return { p50: median(times), min: Math.min(...times), rows: Array.isArray(parsed) ? `${parsed.length} rows` : String(parsed) };
}

async function directCalls(settings: FeedCostOptions, model: string, highest: number, latest: string): Promise<string[]> {
  const now = Math.floor(Date.now() / 1000);
  const horizon = now - SETTLE_S;
  const middle = Math.floor(highest / 2);
  // A feed page by write_date from half a year before the latest write, as issue 31 measured it.
  const halfYear = Math.floor(Date.parse(`${latest.replace(' ', 'T')}Z`) / 1000) - 182 * 86400;
  const read = (request: PageRequest) => ({ ...request });
  const calls: [string, string, object][] = [
    ['`search_read`, 50 ids by `id desc` (a list page)', 'search_read', { domain: [], fields: ['id'], order: 'id desc', limit: 50 }],
    ['latest write: `order: write_date desc`, `limit: 1`', 'search_read', { domain: [], fields: ['id', 'write_date'], order: 'write_date desc', limit: 1 }],
    ['`search_count` of records written in the last second', 'search_count', { domain: [['write_date', '>=', erpSecond(now - 1)]] }],
    [
      'change-feed page: `write_date >= X`, `order: write_date asc, id asc`, `limit: 200`',
      'search_read',
      read(changeScanRequest(halfYear, horizon, 0, LIMIT, 'write_date asc, id asc')),
    ],
    ['`search_count` of everything', 'search_count', { domain: [] }],
    [
      "the feed's caught-up read: `write_date` in the last minute before the horizon",
      'search_read',
      read(changeScanRequest(horizon - 60, horizon, 0, LIMIT + 1, 'write_date asc, id asc')),
    ],
    ['a copy page: written before the horizon, `id > middle`, `order: id asc`, `limit: 201`', 'search_read', read(copyScanRequest(0, horizon, middle, LIMIT + 1))],
    ['a deletion check: the ids of 10,000 (ids only)', 'search_read', read(idRangeRequest(middle, middle + 10_000))],
    ["the cost probe's keyed read: the highest id", 'search_read', read(HIGHEST_ID_REQUEST)],
    [
      "the cost probe's check: `write_date >= now`, `limit: 1`",
      'search_read',
      { domain: [['write_date', '>=', erpSecond(now)]], fields: ['id'], order: 'write_date asc, id asc', limit: 1 },
    ],
  ];
  const lines = ['| ERP call | p50 ms | fastest ms | answer |', '| --- | ---: | ---: | --- |'];
  for (const [title, method, kwargs] of calls) {
    const t = await timeCall(settings, model, method, kwargs);
    lines.push(`| ${title} | ${f(t.p50)} | ${f(t.min)} | ${t.rows} |`);
    process.stderr.write(`feed-cost: ${title}: ${f(t.p50)} ms\n`);
  }
  return lines;
}

interface Page {
  readonly ms: number;
  readonly erpMs: number;
  readonly erpCalls: number;
  readonly records: number;
  readonly removed: number;
  readonly next: string;
  readonly more: boolean;
}

function startGateway(settings: FeedCostOptions, port: number, extra: Record<string, string>): Promise<Service> {
  return startMeasuredGateway(settings, settings.url, port, { ERP_TIMEOUT_MS: '120000', ...extra });
}

/** The second of the write_date of the first record at or after `id`. */
async function writeSecondOf(settings: FeedCostOptions, model: string, id: number): Promise<number> {
  const answer = await json2(settings, model, 'search_read', { domain: [['id', '>=', id]], fields: ['write_date'], order: 'id asc', limit: 1 });
  const [row] = JSON.parse(answer.body) as { write_date: string }[];
  return Math.floor(Date.parse(`${(row?.write_date ?? '1970-01-01 00:00:00').slice(0, 19).replace(' ', 'T')}Z`) / 1000);
}

async function feedPage(gateway: Service, settings: FeedCostOptions, since: string): Promise<Page> {
  const answer = await send(`${gateway.url}/api/v1/${settings.resource}?changed_since=${encodeURIComponent(since)}&limit=${LIMIT}`, 'GET', {
    Authorization: `Bearer ${settings.key}`,
  });
  if (answer.status !== 200) throw new Error(`feed page: ${answer.status} ${answer.body.slice(0, 300)}`);
  const timing = String(answer.headers['server-timing'] ?? '');
  const body = JSON.parse(answer.body) as { data: unknown[]; meta: { next_changed_since: string; more_changes: boolean; removed_ids: number[] } };
  return {
    ms: answer.ms,
    erpMs: Number(/erp;dur=([0-9.]+)/.exec(timing)?.[1]),
    erpCalls: Number(/ERP calls: (\d+)/.exec(timing)?.[1]),
    records: body.data.length,
    removed: body.meta.removed_ids.length,
    next: body.meta.next_changed_since,
    more: body.meta.more_changes,
  };
}

/** `count` pages from `since` (fewer if the feed catches up). */
async function pages(gateway: Service, settings: FeedCostOptions, since: string, count: number): Promise<Page[]> {
  const read: Page[] = [];
  let token = since;
  for (let i = 0; i < count; i++) {
    const page = await feedPage(gateway, settings, token);
    read.push(page);
    token = page.next;
    if (!page.more) break;
  }
  return read;
}

function row(title: string, read: readonly Page[]): string {
  const sum = (pick: (p: Page) => number) => read.reduce((n, p) => n + pick(p), 0);
  return `| ${title} | ${read.length} | ${sum((p) => p.records)} | ${f(median(read.map((p) => p.erpMs)))} | ${f(Math.max(...read.map((p) => p.erpMs)))} | ${f(median(read.map((p) => p.erpCalls)), 0)} | ${f(median(read.map((p) => p.ms)))} |`;
}

async function throughGateway(settings: FeedCostOptions, model: string, highest: number): Promise<string[]> {
  const lines = [
    '| Feed calls through the gateway | pages | records | ERP ms per page, p50 | ERP ms, most | ERP calls per page | page ms, p50 |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const gateway = await startGateway(settings, settings.ports[0], {});
  let detected = '';
  try {
    const start = await pages(gateway, settings, '1970-01-01T00:00:00Z', settings.pages);
    lines.push(row(`first sync from the epoch: its first ${start.length} pages`, start));
    const ready = JSON.parse((await send(`${gateway.url}/readyz`, 'GET', {})).body) as { changes?: { write_date?: Record<string, { case?: string }> } };
    detected = JSON.stringify(ready.changes?.write_date ?? {});
    const copies = Object.values(ready.changes?.write_date ?? {})[0]?.case === 'not_indexed';
    // The middle and the end of that first sync, from tokens made as the gateway makes them: where it
    // copies (no index), a copy's (its `until`: the first page's horizon); else one by write_date, at
    // the write_date of the record in the middle of the id space and of one near its end.
    const until = Math.floor(Date.now() / 1000) - SETTLE_S;
    for (const [title, afterId] of [
      ['in the middle', Math.floor(highest / 2)],
      ['near the end', Math.max(0, highest - settings.pages * LIMIT)],
    ] as const) {
      const token = copies
        ? changeToken({ second: 0, afterId, until, reconcile: FIRST })
        : changeToken({ second: await writeSecondOf(settings, model, afterId), afterId: 0, reconcile: FIRST });
      const read = await pages(gateway, settings, token, settings.pages);
      lines.push(row(`first sync, ${title} (${copies ? 'of the copy by id' : 'by write_date'}, ${read.length} pages)`, read));
    }
    if (settings.full) {
      const started = performance.now();
      const all = await pages(gateway, settings, '1970-01-01T00:00:00Z', 1_000_000);
      const erp = all.reduce((n, p) => n + p.erpMs, 0);
      lines.push(row(`**a whole first sync**, ${((performance.now() - started) / 1000).toFixed(0)} s, ERP ${(erp / 1000).toFixed(0)} s`, all));
    }
    // Caught up: a token at the horizon, polled once a second (each poll reads the second just settled);
    // the deletion check goes round the id space, a range a call.
    const polls: Page[] = [];
    let token = changeToken({ second: Math.floor(Date.now() / 1000) - SETTLE_S, afterId: 0, reconcile: FIRST });
    for (let i = 0; i < settings.polls; i++) {
      const started = performance.now();
      const page = await feedPage(gateway, settings, token);
      polls.push(page);
      token = page.next;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - (performance.now() - started))));
    }
    lines.push(row('caught-up polls, one a second (a read by write_date, a deletion check of 10,000 ids)', polls));
  } finally {
    await gateway.stop();
  }
  // What every page cost when the feed read by write_date only.
  if (settings.compareWalk) {
    const walk = await startGateway(settings, settings.ports[1], { CHANGES_WRITE_DATE_INDEX: 'yes' });
    try {
      const read = await pages(walk, settings, '1970-01-01T00:00:00Z', Math.min(settings.pages, 5));
      lines.push(row(`first sync read by write_date throughout (CHANGES_WRITE_DATE_INDEX=yes), its first ${read.length} pages`, read));
    } finally {
      await walk.stop();
    }
  }
  lines.push('', `The gateway's /readyz said: \`${detected}\``);
  return lines;
}

/** The whole report, as Markdown lines. */
export async function measureFeedCost(settings: FeedCostOptions): Promise<string[]> {
  const resource = RESOURCES.find((r) => r.path === settings.resource);
  if (!resource) throw new Error(`no resource ${settings.resource}`);
  const count = JSON.parse((await json2(settings, resource.model, 'search_count', { domain: [] })).body) as number;
  const [top] = JSON.parse((await json2(settings, resource.model, 'search_read', HIGHEST_ID_REQUEST)).body) as { id: number }[];
  const [latest] = JSON.parse((await json2(settings, resource.model, 'search_read', { domain: [], fields: ['write_date'], order: 'write_date desc', limit: 1 })).body) as {
    write_date: string;
  }[];
  return [
    `${settings.url} (${settings.database}), \`${resource.model}\`: ${count.toLocaleString('en')} records, highest id ${top?.id}; JSON-2, closed loop, ${settings.rounds} timed calls each after one warm-up.`,
    '',
    ...(await directCalls(settings, resource.model, top?.id ?? 0, latest?.write_date ?? erpSecond(Date.now() / 1000))),
    '',
    ...(await throughGateway(settings, resource.model, top?.id ?? 0)),
  ];
}
