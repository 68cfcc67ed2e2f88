/**
 * `POST /mcp` on the real process with the production heap bounds: the attack that ended it (one
 * valid key, 50 concurrent JSON-RPC batches of 16 `query_stock` calls with `limit: 200`, exit 134
 * after about 10 s) replayed at 64 batches of the largest size the endpoint accepts, three times.
 * Each tool answer is charged to the memory budget while the POST holds it, so every call answers
 * either its page (the route's own records) or a tool error that says to retry (503 `unavailable`,
 * or 504 `gateway_timeout` on a machine too loaded to start it in time); the process stays alive,
 * under RSS_BOUND_MB, and gives its whole budget back once the batches have answered.
 */
import mcpTools from '@ops-data-gateway/gateway/generated/mcp-tools.json';
import { GATEWAY_LOGIN } from '@ops-data-gateway/sandbox/seed/security';
import { startStack, type Stack } from '../support/stack';
import { rssMb, startGatewayProcess, type GatewayProcess } from './support/gateway-process';
import { freePort } from '../support/free-port';

/** The production flags of docs/production.md's "Running in production" (as hardening-memory.test.ts). */
const PRODUCTION_HEAP = '--max-semi-space-size=4 --max-old-space-size=256';
/** Measured peaks 230 to 275 MB (about 125 MB idle); without the charge the heap ran out (exit 134). */
const RSS_BOUND_MB = 320;
const BATCHES = 64;
const BATCH_SIZE = mcpTools.limits.batch_max;
const ROUNDS = 3;
/** Far beyond a round's duration on a loaded machine (about 10 s): a POST left unanswered fails the test. */
const POST_LIMIT_MS = 120000;

interface ToolResult {
  readonly isError?: boolean;
  readonly structuredContent?: { data: { id: number }[] };
  readonly content: { type: string; text: string }[];
}
interface RpcAnswer {
  readonly id: number;
  readonly result?: ToolResult;
  readonly error?: unknown;
}

const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'query_stock', arguments: { resource: 'pickings', limit: 200 } } });

describe('POST /mcp on the real process with the production heap', () => {
  let stack: Stack;
  let gateway: GatewayProcess;
  let metricsUrl: string;
  let peakMb = 0;
  let sampler: NodeJS.Timeout;

  beforeAll(async () => {
    stack = await startStack({ transport: 'json2' });
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}`;
    gateway = await startGatewayProcess({
      ERP_URL: stack.sandbox.url,
      ERP_DATABASE: stack.sandbox.database,
      ERP_TRANSPORT: 'json2',
      ERP_LOGIN: GATEWAY_LOGIN,
      METRICS_PORT: String(metricsPort),
      LOG_LEVEL: 'warn',
      NODE_OPTIONS: PRODUCTION_HEAP,
    });
    sampler = setInterval(() => {
      try {
        peakMb = Math.max(peakMb, rssMb(gateway.pid));
      } catch {
        // The process is gone: the checks below say so.
      }
    }, 50);
  }, 60000);
  afterAll(async () => {
    clearInterval(sampler);
    process.stdout.write(`mcp-memory: gateway peak RSS ${peakMb.toFixed(1)} MB (bound ${RSS_BOUND_MB} MB)\n`);
    gateway?.kill('SIGKILL');
    await gateway?.exited;
    await stack?.close();
  });

  const budgetInUse = async () => {
    const text = await (await fetch(`${metricsUrl}/metrics`)).text();
    return Number(/^odg_memory_budget_used_bytes(?:\{[^}]*\})? (\S+)$/m.exec(text)?.[1]);
  };

  it(`${BATCHES} concurrent batches of ${BATCH_SIZE} query_stock calls (limit 200), ${ROUNDS} times: every call its page or a retryable tool error, alive and under ${RSS_BOUND_MB} MB`, async () => {
    const headers = { Authorization: `Bearer ${stack.keys.valid}` };
    // The oracle: the ids of the route's own first page, read before the attack.
    const route = (await (await fetch(`${gateway.url}/api/v1/stock/pickings?limit=200&fields=id`, { headers })).json()) as { data: { id: number }[] };
    const expectedIds = route.data.map((r) => r.id);
    expect(expectedIds).toHaveLength(200);

    const outcomes = new Map<string, number>();
    const count = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      const posts = Array.from({ length: BATCHES }, async () => {
        const res = await fetch(`${gateway.url}/mcp`, {
          method: 'POST',
          headers: { ...headers, Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json', 'Mcp-Protocol-Version': '2025-03-26' },
          body: JSON.stringify(Array.from({ length: BATCH_SIZE }, (_, i) => call(i + 1))),
          signal: AbortSignal.timeout(POST_LIMIT_MS),
        });
        expect(res.status).toBe(200);
        const answers = (await res.json()) as RpcAnswer[];
        expect(answers.map((a) => a.id).sort((a, b) => a - b)).toEqual(Array.from({ length: BATCH_SIZE }, (_, i) => i + 1));
        for (const answer of answers) {
          // Never a protocol error: what the gateway cannot do now is a tool error the agent can act on.
          expect(answer.error).toBeUndefined();
          const result = answer.result as ToolResult;
          if (!result.isError) {
            expect(result.structuredContent?.data.map((r) => r.id)).toEqual(expectedIds);
            count('page');
            continue;
          }
          const { error } = JSON.parse(result.content[0]?.text ?? '{}') as { error: { code: string; status: number; retry_after?: number } };
          expect([
            ['unavailable', 503],
            ['gateway_timeout', 504],
          ]).toContainEqual([error.code, error.status]);
          if (error.code === 'unavailable') expect(error.retry_after).toBeGreaterThanOrEqual(1);
          count(error.code);
        }
      });
      await Promise.all(posts);
      process.stdout.write(`mcp-memory: round ${round + 1}: ${((performance.now() - started) / 1000).toFixed(1)} s, peak RSS so far ${peakMb.toFixed(0)} MB\n`);
      expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    }
    process.stdout.write(`mcp-memory: outcomes ${JSON.stringify(Object.fromEntries(outcomes))}\n`);
    // Both sides of the bound were reached: answers were held, and calls past the budget were refused.
    expect(outcomes.get('page')).toBeGreaterThan(0);
    expect(outcomes.get('unavailable')).toBeGreaterThan(0);
    expect([...outcomes.values()].reduce((a, b) => a + b, 0)).toBe(ROUNDS * BATCHES * BATCH_SIZE);

    expect(rssMb(gateway.pid)).toBeLessThan(RSS_BOUND_MB);
    expect(peakMb).toBeLessThan(RSS_BOUND_MB);
    expect(gateway.stderr.filter((line) => /heap out of memory/i.test(line))).toEqual([]);
    // Every POST gave its lease back (the response cache is off: nothing else holds any of the budget),
    // once the gateway has seen its connections close.
    let inUse = await budgetInUse();
    for (let i = 0; i < 40 && inUse !== 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      inUse = await budgetInUse();
    }
    expect(inUse).toBe(0);
    // And the gateway still answers a tool call in full.
    const after = await fetch(`${gateway.url}/mcp`, {
      method: 'POST',
      headers: { ...headers, Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json', 'Mcp-Protocol-Version': '2025-03-26' },
      body: JSON.stringify(call(1)),
    });
    expect(((await after.json()) as RpcAnswer).result?.structuredContent?.data.map((r) => r.id)).toEqual(expectedIds);
  }, 300000);
});
