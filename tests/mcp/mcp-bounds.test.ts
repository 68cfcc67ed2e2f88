/**
 * The bounds of one `POST /mcp` (docs/agents.md, "For agents: MCP and llms.txt"), over real HTTP against the
 * sandbox, with JSON-RPC batches written by hand (the SDK's client sends one message per POST):
 * - a batch larger than `batch_max` is refused (400) before any tool runs; one of `batch_max` is answered;
 * - at most `calls_in_flight` tool calls of a POST run at once, counted where the ERP receives them;
 * - a call not started within REQUEST_TIMEOUT_MS answers `gateway_timeout`, so a batch takes about
 *   one request timeout, not one per call;
 * - answers past the memory budget are the tool error `unavailable` (503, retry_after), `tools/list`
 *   a JSON-RPC error saying the same, and the budget is given back once the POST has answered;
 * - each data call costs what its route costs against the key's rate limit, the catalogue tools nothing.
 */
import mcpTools from '@ops-data-gateway/gateway/generated/mcp-tools.json';
import type { FaultProxy } from '../support/fault-proxy';
import { startStack, startStackBehindProxy, type Stack } from '../support/stack';
import { mintKey } from '../reliability/support/sandbox-keys';

const { batch_max: BATCH_MAX, calls_in_flight: IN_FLIGHT } = mcpTools.limits;

interface RpcAnswer {
  readonly id: number;
  readonly result?: { isError?: boolean; structuredContent?: { data: unknown }; content: { text: string }[]; tools?: unknown[] };
  readonly error?: { code: number; message: string; data?: { code: string; status: number; retry_after: number } };
}
interface ToolError {
  readonly code: string;
  readonly message: string;
  readonly status: number;
  readonly retry_after?: number;
}

const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

async function post(stack: Stack, body: unknown, key = stack.keys.valid): Promise<{ status: number; body: unknown; headers: Headers }> {
  const res = await fetch(`${stack.url}/mcp`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json', 'Mcp-Protocol-Version': '2025-03-26' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** The answers of a batch, by id (JSON-RPC allows any order). */
async function batch(stack: Stack, messages: readonly ({ id: number } & Record<string, unknown>)[], key?: string): Promise<RpcAnswer[]> {
  const res = await post(stack, messages, key);
  expect(res.status).toBe(200);
  // The SDK answers a batch of one message with that message's answer alone, not an array of one.
  const answers = Array.isArray(res.body) ? (res.body as RpcAnswer[]) : [res.body as RpcAnswer];
  expect(answers.map((a) => a.id).sort((a, b) => a - b)).toEqual(messages.map((m) => m.id).sort((a, b) => a - b));
  return answers.sort((a, b) => a.id - b.id);
}

function toolErrorOf(answer: RpcAnswer): ToolError | undefined {
  if (!answer.result?.isError) return undefined;
  return (JSON.parse(answer.result.content[0]?.text ?? '{}') as { error: ToolError }).error;
}

const fleetPage = (id: number, sinceId: number) => toolCall(id, 'query_fleet', { resource: 'vehicles', since_id: sinceId, limit: 1, total: false, fields: ['id', 'plate'] });

/** A batch of BATCH_MAX one-record pages (distinct: none coalesced) while the ERP holds every search_read for `delayMs`. */
async function slowedBatch(stack: Stack, proxy: FaultProxy, delayMs: number): Promise<{ answers: RpcAnswer[]; ms: number }> {
  proxy.mode = { kind: 'delay', ms: delayMs, only: /search_read/ };
  proxy.resetCounts();
  const started = performance.now();
  try {
    const answers = await batch(
      stack,
      Array.from({ length: BATCH_MAX }, (_, i) => fleetPage(i + 1, i)),
    );
    return { answers, ms: performance.now() - started };
  } finally {
    proxy.mode = { kind: 'forward' };
  }
}

describe('batch size and calls in flight (a slow ERP)', () => {
  let stack: Stack;
  let proxy: FaultProxy;
  beforeAll(async () => {
    ({ stack, proxy } = await startStackBehindProxy({ transport: 'json2' }));
    // Key check, group and read right cached: each call below is one search_read.
    expect((await stack.get('/api/v1/fleet/vehicles?limit=1&total=false&fields=plate')).status).toBe(200);
  });
  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
  });

  it(`refuses a batch of ${BATCH_MAX + 1} messages with 400 naming the limit, before any tool runs`, async () => {
    const before = stack.logLines.length;
    const res = await post(
      stack,
      Array.from({ length: BATCH_MAX + 1 }, (_, i) => fleetPage(i + 1, i)),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'bad_request', message: `At most ${BATCH_MAX} JSON-RPC messages per request (this batch has ${BATCH_MAX + 1}).` } });
    expect(stack.logLines.slice(before).filter((l) => l.includes('/api/v1/'))).toEqual([]);
  });

  it(`answers a batch of ${BATCH_MAX} calls, ${IN_FLIGHT} at a time where the ERP receives them`, async () => {
    const { answers, ms } = await slowedBatch(stack, proxy, 300);
    expect(answers.map((a) => [a.id, toolErrorOf(a)])).toEqual(Array.from({ length: BATCH_MAX }, (_, i) => [i + 1, undefined]));
    // Distinct reads (since_id i), none coalesced: all sent to the ERP, never more than IN_FLIGHT at once.
    expect(proxy.requests.filter((r) => r.includes('search_read'))).toHaveLength(BATCH_MAX);
    expect(proxy.maxInFlight).toBe(IN_FLIGHT);
    // In waves: at least BATCH_MAX / IN_FLIGHT delays end to end.
    expect(ms).toBeGreaterThanOrEqual((BATCH_MAX / IN_FLIGHT) * 300);
    // Each call its own page, as the route gives it.
    for (const [i, answer] of answers.entries()) {
      const http = await stack.get(`/api/v1/fleet/vehicles?since_id=${i}&limit=1&total=false&fields=id,plate`);
      expect(answer.result?.structuredContent?.data).toEqual(http.body.data);
    }
  });
});

describe('a batch against an ERP that never answers (REQUEST_TIMEOUT_MS=1000)', () => {
  let stack: Stack;
  let proxy: FaultProxy;
  beforeAll(async () => {
    ({ stack, proxy } = await startStackBehindProxy({ transport: 'json2', env: { ERP_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '1000' } }));
    expect((await stack.get('/api/v1/fleet/vehicles?limit=1&total=false&fields=plate')).status).toBe(200);
  });
  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
  });

  it(`answers within about one request timeout: ${IN_FLIGHT} calls time out at the ERP, the others are never started`, async () => {
    const { answers, ms } = await slowedBatch(stack, proxy, 60000);
    const errors = answers.map(toolErrorOf);
    expect(errors.every((e) => e?.code === 'gateway_timeout' && e.status === 504)).toBe(true);
    const notStarted = errors.filter((e) => /did not start within the request timeout \(1000 ms\)/.test(e?.message ?? ''));
    expect(notStarted).toHaveLength(BATCH_MAX - IN_FLIGHT);
    expect(proxy.requests.filter((r) => r.includes('search_read'))).toHaveLength(IN_FLIGHT);
    // Not one timeout per wave (4 s): the calls of the POST share its deadline. Generous for a loaded machine.
    expect(ms).toBeLessThan(3500);
  });
});

describe('the memory budget (MEMORY_BUDGET_BYTES at its 1 MiB minimum)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ transport: 'json2', env: { MEMORY_BUDGET_BYTES: String(1024 * 1024), METRICS_PORT: '0' } });
  });
  afterAll(() => stack?.close());

  const budgetInUse = async () => {
    const text = await (await fetch(`${stack.metricsUrl}/metrics`)).text();
    return Number(/^odg_memory_budget_used_bytes(?:\{[^}]*\})? (\S+)$/m.exec(text)?.[1]);
  };

  it('answers what fits and refuses the rest as the tool error unavailable with retry_after, then gives the budget back', async () => {
    const page = await stack.get('/api/v1/stock/pickings?limit=200&fields=id');
    const answers = await batch(
      stack,
      Array.from({ length: IN_FLIGHT }, (_, i) => toolCall(i + 1, 'query_stock', { resource: 'pickings', limit: 200 })),
    );
    const refused = answers.map(toolErrorOf).filter((e) => e !== undefined);
    // A 200-record page (about 80 KB) is held ten times over: one fits in 1 MiB at most.
    expect(refused.length).toBeGreaterThanOrEqual(IN_FLIGHT - 1);
    for (const error of refused) {
      expect(error).toEqual({ code: 'unavailable', status: 503, retry_after: 1, message: expect.stringMatching(/memory allows\. Retry shortly\./) });
    }
    for (const answer of answers.filter((a) => !a.result?.isError)) {
      expect(((answer.result?.structuredContent?.data ?? []) as { id: number }[]).map((r) => r.id)).toEqual(page.body.data.map((r: { id: number }) => r.id));
    }
    expect(answers.every((a) => a.error === undefined)).toBe(true);
    expect(await budgetInUse()).toBe(0);
  });

  it('charges tools/list too: a batch of them gets JSON-RPC errors past the budget', async () => {
    const one = (await post(stack, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).body as RpcAnswer;
    expect(one.result?.tools).toHaveLength(mcpTools.tools.length);
    // Each answer is held ten times over until the batch is answered: a full batch of 16 cannot fit in 1 MiB.
    const size = JSON.stringify(mcpTools.tools).length;
    const fitting = Math.floor((1024 * 1024) / (size * 10));
    expect(fitting).toBeLessThan(16);
    const answers = await batch(
      stack,
      Array.from({ length: 16 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' })),
    );
    const listed = answers.filter((a) => a.result?.tools?.length === mcpTools.tools.length).length;
    expect(listed).toBeGreaterThan(0);
    expect(listed).toBeLessThanOrEqual(fitting);
    const errors = answers.filter((a) => a.error).map((a) => a.error);
    expect(errors).toHaveLength(16 - listed);
    for (const error of errors)
      expect(error).toEqual({ code: -32603, message: expect.stringMatching(/memory allows/), data: { code: 'unavailable', status: 503, retry_after: 1 } });
    expect(await budgetInUse()).toBe(0);
  });

  it('a small answer still fits beside nothing else: the budget was given back', async () => {
    const [answer] = await batch(stack, [toolCall(1, 'get_record', { resource: 'stock/pickings', id: 1 })]);
    expect(toolErrorOf(answer as RpcAnswer)).toBeUndefined();
  });
});

describe('rate limits: a batch costs what its calls cost as GETs (RATE_LIMIT_POINTS=10, list 2, counted list 3, detail 1)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      transport: 'json2',
      env: { RATE_LIMIT_POINTS: '10', RATE_LIMIT_WINDOW_SECONDS: '600', RATE_LIMIT_COSTS: 'list=2,counted_list=3,detail=1' },
    });
  });
  afterAll(() => stack?.close());

  const remaining = (header: string | string[] | null | undefined) => Number(/^"per-key";r=(\d+);t=\d+$/.exec(String(header))?.[1]);

  it('charges each data call its route cost, the catalogue tools nothing, and refuses past the quota with rate_limited and retry_after', async () => {
    const key = mintKey(stack.dbPath, { name: 'mcp batch' });
    const first = await batch(
      stack,
      [
        toolCall(1, 'query_fleet', { resource: 'vehicles', limit: 2, total: false }),
        toolCall(2, 'get_record', { resource: 'fleet/vehicles', id: 1 }),
        toolCall(3, 'query_fleet', { resource: 'vehicles', limit: 2 }),
        toolCall(4, 'list_resources', {}),
        toolCall(5, 'describe_resource', { resource: 'fleet/vehicles' }),
        { jsonrpc: '2.0', id: 6, method: 'tools/list' },
      ],
      key,
    );
    expect(first.map(toolErrorOf)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
    // 2 + 1 + 3 spent by the batch; this GET (a list, 2) leaves 2.
    const route = await stack.get('/api/v1/fleet/vehicles?limit=2&total=false', key);
    expect(route.status).toBe(200);
    expect(remaining(route.headers['ratelimit'])).toBe(10 - 6 - 2);
    const second = await batch(
      stack,
      Array.from({ length: 4 }, (_, i) => toolCall(i + 1, 'get_record', { resource: 'fleet/vehicles', id: i + 1 })),
      key,
    );
    const errors = second.map(toolErrorOf);
    expect(errors.filter((e) => e === undefined)).toHaveLength(2);
    const refused = errors.filter((e) => e !== undefined);
    expect(refused).toHaveLength(2);
    for (const error of refused) {
      expect(error).toMatchObject({ code: 'rate_limited', status: 429 });
      expect(error?.retry_after).toBeGreaterThanOrEqual(1);
    }
    // The catalogue tools ask nothing of the ERP and still answer.
    const [free] = await batch(stack, [toolCall(1, 'describe_resource', { resource: 'fleet/vehicles' })], key);
    expect(toolErrorOf(free as RpcAnswer)).toBeUndefined();
  });
});
