/**
 * `Server-Timing` and the access line's `erp_ms` tell the truth (issue 29, point 6): `erp` is the wall
 * time the request waited for the ERP, calls in parallel counted once, and `gw` the rest, so that
 * `erp + gw` never exceeds the request's own time. Over real HTTP, with every ERP read slowed to
 * DELAY_MS by a proxy so that the ERP's share is large and known: a list with its count (page and
 * count sent in parallel: summing them gave more ERP time than the request took, and `gw` 0), the
 * change feed, an export, an MCP tool call (official SDK), identical requests sharing one ERP call,
 * and cached answers (a miss, requests waiting for that miss's read, a hit).
 *
 * The request's own time is the access line's `ms` (its end: the last byte handed to the socket),
 * and no more than what the client measured from sending to the end of the answer.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FaultProxy } from '../support/fault-proxy';
import { startStackBehindProxy, type Stack } from '../support/stack';

/** Every read (not the key checks) waits this long at the proxy. */
const DELAY_MS = 300;
const READS = /\/(search_read|search_count|read)$/;

interface Timing {
  readonly erp: number;
  readonly gw: number;
  readonly calls: number;
  readonly cache: string;
}

function timingOf(header: string | null): Timing {
  if (!header) throw new Error('no Server-Timing header');
  const entries = new Map(header.split(/,\s*/).map((entry) => [entry.split(';')[0], entry] as const));
  const duration = (name: string) => Number(/;dur=(-?[0-9.]+)/.exec(entries.get(name) ?? '')?.[1]);
  return {
    erp: duration('erp'),
    gw: duration('gw'),
    calls: Number(/ERP calls: ([0-9]+)/.exec(entries.get('erp') ?? '')?.[1]),
    cache: /cache;desc=([a-z]+)/.exec(header)?.[1] ?? '',
  };
}

interface AccessLine {
  readonly request_id: string;
  readonly route: string;
  readonly status: number;
  readonly ms: number;
  readonly erp_calls: number;
  readonly erp_shared?: number;
  readonly erp_ms: number;
  readonly cache?: string;
}

function accessLines(stack: Stack): AccessLine[] {
  return stack.logLines.map((line) => JSON.parse(line) as AccessLine & { msg: string }).filter((line) => line.msg === 'request');
}

/** The access line is written once the answer is out: wait for it. */
async function accessLineOf(stack: Stack, id: string): Promise<AccessLine> {
  for (let i = 0; i < 200; i++) {
    const line = accessLines(stack).find((l) => l.request_id === id);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no access line for ${id}`);
}

interface Timed {
  readonly status: number;
  readonly timing: Timing | undefined;
  readonly line: AccessLine;
  /** What the client measured, from sending to the last byte of the answer. */
  readonly clientMs: number;
}

let sequence = 0;

async function timedGet(stack: Stack, path: string, headers: Record<string, string> = {}): Promise<Timed> {
  const id = `timing-${++sequence}`;
  const started = performance.now();
  const res = await fetch(`${stack.url}${path}`, { headers: { Authorization: `Bearer ${stack.keys.valid}`, 'X-Request-Id': id, ...headers } });
  await res.arrayBuffer();
  const clientMs = performance.now() - started;
  const header = res.headers.get('server-timing');
  return { status: res.status, timing: header ? timingOf(header) : undefined, line: await accessLineOf(stack, id), clientMs };
}

/** The invariants every answer meets, whatever it did. */
function expectTruthful({ timing, line, clientMs }: Timed): void {
  expect(line.erp_ms).toBeGreaterThanOrEqual(0);
  expect(line.erp_ms).toBeLessThanOrEqual(line.ms);
  expect(line.ms).toBeLessThanOrEqual(clientMs);
  if (!timing) return;
  expect(timing.erp).toBeGreaterThanOrEqual(0);
  expect(timing.gw).toBeGreaterThanOrEqual(0);
  // The header is written before the body: the time so far, at most the line's.
  expect(timing.erp + timing.gw).toBeLessThanOrEqual(line.ms + 1e-9);
  expect(timing.erp).toBeLessThanOrEqual(line.erp_ms + 1e-9);
  expect(timing.calls).toBe(line.erp_calls);
}

describe('Server-Timing and erp_ms: the ERP wall time, the gateway the rest', () => {
  let stack: Stack;
  let proxy: FaultProxy;
  beforeAll(async () => {
    ({ stack, proxy } = await startStackBehindProxy({ transport: 'json2', env: { CHANGES_SETTLE_MS: '0' } }));
    // The key and its read rights checked once, unslowed: what follows is the reads alone.
    expect((await stack.get('/api/v1/fleet/vehicles?limit=1')).status).toBe(200);
    expect((await stack.get('/api/v1/stock/pickings?limit=1')).status).toBe(200);
    proxy.mode = { kind: 'delay', ms: DELAY_MS, only: READS };
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
  });

  it('a list with its count: page and count in parallel count once, and the gateway keeps its share', async () => {
    const answer = await timedGet(stack, '/api/v1/fleet/vehicles?limit=2');
    expect(answer.status).toBe(200);
    expectTruthful(answer);
    const timing = answer.timing as Timing;
    expect([timing.calls, answer.line.erp_calls]).toEqual([2, 2]);
    // Each call took DELAY_MS at least: their sum, 2 x DELAY_MS, is more than the whole request took.
    expect(timing.erp).toBeGreaterThanOrEqual(DELAY_MS);
  });

  it('a detail, and a list without count: one call, its whole time', async () => {
    for (const path of ['/api/v1/fleet/vehicles/1', '/api/v1/stock/pickings?limit=3&total=false']) {
      const answer = await timedGet(stack, path);
      expect([path, answer.status]).toEqual([path, 200]);
      expectTruthful(answer);
      expect(answer.timing?.erp).toBeGreaterThanOrEqual(DELAY_MS);
    }
  });

  it('the change feed', async () => {
    const answer = await timedGet(stack, `/api/v1/stock/pickings?changed_since=${encodeURIComponent('2000-01-01T00:00:00Z')}&limit=5`);
    expect(answer.status).toBe(200);
    expectTruthful(answer);
    expect(answer.timing?.erp).toBeGreaterThanOrEqual(DELAY_MS);
  });

  it.each(['csv', 'ndjson'])('an export (%s): its access line', async (format) => {
    const answer = await timedGet(stack, `/api/v1/stock/pickings?format=${format}`);
    expect(answer.status).toBe(200);
    expectTruthful(answer);
    expect(answer.line.erp_ms).toBeGreaterThanOrEqual(DELAY_MS);
  });

  it('identical requests in flight: the ones that take the shared answer waited for the ERP too', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => timedGet(stack, '/api/v1/fleet/vehicles?limit=4&fields=plate')));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expectTruthful(answer);
    }
    const sharers = answers.filter((a) => (a.line.erp_shared ?? 0) > 0);
    expect(sharers.length).toBeGreaterThan(0);
    for (const sharer of sharers) expect(sharer.line.erp_ms).toBeGreaterThan(0);
  });

  it('an MCP tool call: its route line, and the POST line', async () => {
    const before = accessLines(stack).length;
    const client = new Client({ name: 'server-timing-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${stack.keys.valid}` } } }));
    try {
      const result = await client.callTool({ name: 'query_fleet', arguments: { resource: 'vehicles', limit: 2 } });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    let lines: AccessLine[] = [];
    for (let i = 0; i < 200 && !lines.some((l) => l.route === '/api/v1/fleet/vehicles'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      lines = accessLines(stack).slice(before);
    }
    const route = lines.find((l) => l.route === '/api/v1/fleet/vehicles') as AccessLine;
    expect(route.status).toBe(200);
    expect(route.erp_calls).toBeGreaterThan(0);
    expect(route.erp_ms).toBeGreaterThanOrEqual(DELAY_MS);
    expect(route.erp_ms).toBeLessThanOrEqual(route.ms);
    const posts = lines.filter((l) => l.route === '/mcp');
    expect(posts.length).toBeGreaterThan(0);
    for (const post of posts) expect(post.erp_ms).toBeLessThanOrEqual(post.ms);
  });
});

describe('Server-Timing and erp_ms with the response cache', () => {
  let stack: Stack;
  let proxy: FaultProxy;
  beforeAll(async () => {
    ({ stack, proxy } = await startStackBehindProxy({ transport: 'json2', env: { CACHE_DEFAULT_TTL_S: '60' } }));
    expect((await stack.get('/api/v1/fleet/vehicles?limit=1')).status).toBe(200);
    proxy.mode = { kind: 'delay', ms: DELAY_MS, only: READS };
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
  });

  it('a miss, the requests waiting for its read, then a hit', async () => {
    const path = '/api/v1/fleet/vehicles?limit=3&fields=plate,model';
    const burst = await Promise.all(Array.from({ length: 4 }, () => timedGet(stack, path)));
    for (const answer of burst) {
      expect(answer.status).toBe(200);
      expectTruthful(answer);
    }
    // One request read the entry (page and count in parallel); the others, arriving while it read
    // (all of them, unless the machine delayed one past DELAY_MS: then it is a hit), waited for it.
    const readers = burst.filter((a) => a.line.erp_calls > 0);
    expect(readers.map((a) => [a.line.erp_calls, a.timing?.cache])).toEqual([[2, 'miss']]);
    expect(readers[0]?.timing?.erp).toBeGreaterThanOrEqual(DELAY_MS);
    const waiters = burst.filter((a) => a.line.erp_calls === 0 && a.timing?.cache === 'miss');
    expect(waiters.length).toBeGreaterThan(0);
    for (const waiter of waiters) expect(waiter.timing?.erp).toBeGreaterThan(0);

    const hit = await timedGet(stack, path);
    expect([hit.status, hit.timing?.cache, hit.timing?.erp, hit.line.erp_calls]).toEqual([200, 'hit', 0, 0]);
    expectTruthful(hit);
  });
});
