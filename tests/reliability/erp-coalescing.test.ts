/**
 * Request coalescing (runtime/erp/coalesce.ts): identical ERP reads in flight for the same ERP
 * account are sent once and the answer, or the error, shared; nothing is remembered once the call is
 * over; two accounts never share; each request keeps its own deadline. Observed at the ERP through
 * the fault proxy, which counts what reaches it, and in the gateway's request log.
 */
import type { FaultProxy } from '../support/fault-proxy';
import { expectDocumented } from '../support/openapi-responses';
import { startStackBehindProxy, type Stack } from '../support/stack';
import { mintKey } from './support/sandbox-keys';

const ERP_TIMEOUT_MS = 1500;
const LIST = '/api/v1/fleet/vehicles?limit=50&fields=plate,fuel_type';
const SEARCH_READ = /\/json\/2\/fleet\.vehicle\/search_read$/;

describe('ERP request coalescing', () => {
  let stack: Stack;
  let proxy: FaultProxy;

  beforeAll(async () => {
    // A request may outlast one ERP call's deadline: the last test tells the two apart.
    ({ stack, proxy } = await startStackBehindProxy({ transport: 'json2', env: { ERP_TIMEOUT_MS: String(ERP_TIMEOUT_MS), REQUEST_TIMEOUT_MS: '4000' } }));
  });
  afterAll(async () => {
    // The proxy first: its delayed forwards are cancelled before the ERP behind it goes.
    await proxy.close();
    await stack.close();
  });
  beforeEach(() => {
    proxy.mode = { kind: 'forward' };
    proxy.resetCounts();
  });

  const sent = (pattern: RegExp) => proxy.requests.filter((line) => pattern.test(line)).length;
  const requestLines = (route: string) =>
    stack.logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['msg'] === 'request' && line['route'] === route);

  it('sends 64 concurrent identical list requests of one key to the ERP at most twice, and gives all 64 the same 200 answer', async () => {
    // A key the gateway has never seen: the key check, the group and the read right are shared too.
    const key = mintKey(stack.dbPath, { name: 'coalescing' });
    proxy.mode = { kind: 'delay', ms: 200 };
    const logged = requestLines('/api/v1/fleet/vehicles').length;
    const answers = await Promise.all(Array.from({ length: 64 }, () => stack.get(LIST, key)));
    for (const res of answers) expectDocumented(LIST, res);
    expect(answers.map((res) => res.status)).toEqual(Array(64).fill(200));
    expect(new Set(answers.map((res) => res.text)).size).toBe(1);
    expect(JSON.parse(answers[0]?.text ?? '{}').data).toHaveLength(50);
    expect(sent(/fleet\.vehicle\/search_read$/)).toBeLessThanOrEqual(2);
    expect(sent(/fleet\.vehicle\/search_count$/)).toBeLessThanOrEqual(2);
    expect(sent(/fleet\.vehicle\/has_access$/)).toBeLessThanOrEqual(2);
    // The log stays honest: the calls the lines claim to have sent are the calls the ERP received (the
    // version probe of the first connection aside), and every other answer is logged as shared.
    const lines = requestLines('/api/v1/fleet/vehicles').slice(logged);
    expect(lines).toHaveLength(64);
    expect(lines.reduce((sum, line) => sum + (line['erp_calls'] as number), 0)).toBe(sent(/^POST \/json\/2\//));
    expect(lines.filter((line) => ((line['erp_shared'] as number | undefined) ?? 0) > 0).length).toBeGreaterThanOrEqual(60);
  });

  it("never shares between accounts: the no-read account gets 403 on fleet/vehicles while the API account's identical request is in flight", async () => {
    // A new API key: its read right on fleet.vehicle is asked of the ERP too, the very call the
    // no-read account makes next (a call keyed without the account would answer it "readable").
    const key = mintKey(stack.dbPath, { name: 'coalescing, two accounts' });
    const SLOW = /\/json\/2\/fleet\.vehicle\/(has_access|search_read)$/;
    proxy.mode = { kind: 'delay', ms: 800, only: SLOW };
    let apiAnswered = false;
    const api = stack.get(LIST, key).then((res) => {
      apiAnswered = true;
      return res;
    });
    while (sent(SLOW) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const noRead = expectDocumented(LIST, await stack.get(LIST, stack.keys.no_read.key));
    expect([noRead.status, noRead.body.error?.code, apiAnswered]).toEqual([403, 'forbidden', false]);
    const res = expectDocumented(LIST, await api);
    expect(res.status).toBe(200);
    // Each account's read right was asked of the ERP with its own key.
    expect(sent(/fleet\.vehicle\/has_access$/)).toBe(2);
    expect(sent(SEARCH_READ)).toBe(1);
  });

  it("never shares a key check between keys: a refused key gets 401 while a valid key's identical check is in flight, and the valid key still gets 200", async () => {
    // Two keys the gateway has never seen, asked for at once: the valid one's check is held at the
    // ERP; the refused ones (an unknown key, an expired one) must get the ERP's own verdict.
    const key = mintKey(stack.dbPath, { name: 'coalescing, key checks' });
    const CHECK = /\/json\/2\/res\.users\/context_get$/;
    proxy.mode = { kind: 'delay', ms: 600, only: CHECK };
    // Sent now (the request is lazy until something awaits it).
    const valid = Promise.resolve(stack.get(LIST, key));
    while (sent(CHECK) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const refused = await Promise.all([stack.get(LIST, 'f'.repeat(40)), stack.get(LIST, stack.keys.expired)]);
    for (const res of refused) expectDocumented(LIST, res);
    expect(refused.map((res) => [res.status, res.body.error?.code])).toEqual([
      [401, 'unauthorized'],
      [401, 'unauthorized'],
    ]);
    const res = expectDocumented(LIST, await valid);
    expect(res.status).toBe(200);
    // One key check per distinct key reached the ERP.
    expect(sent(CHECK)).toBe(3);
  });

  it('shares an ERP error among the requests waiting for the call, and forgets it: the next request asks again', async () => {
    expect((await stack.get(LIST)).status).toBe(200);
    proxy.resetCounts();
    const failure = { status: 500, body: JSON.stringify({ name: 'builtins.KeyError', message: 'boom', arguments: ['boom'], context: {}, debug: '' }) };
    proxy.mode = { kind: 'delay', ms: 300, only: SEARCH_READ, answer: { kind: 'rewrite', rewrite: () => failure } };
    const failed = await Promise.all(Array.from({ length: 8 }, () => stack.get(LIST)));
    for (const res of failed) expectDocumented(LIST, res);
    expect(failed.map((res) => [res.status, res.body.error?.code])).toEqual(Array(8).fill([502, 'bad_gateway']));
    expect(sent(SEARCH_READ)).toBe(1);
    proxy.mode = { kind: 'forward' };
    const again = expectDocumented(LIST, await stack.get(LIST));
    expect(again.status).toBe(200);
    expect(sent(SEARCH_READ)).toBe(2);
  });

  it('keeps each request to its own ERP deadline: the first gets 504 at ERP_TIMEOUT_MS, one that joined later gets the shared answer', async () => {
    expect((await stack.get(LIST)).status).toBe(200);
    proxy.resetCounts();
    proxy.mode = { kind: 'delay', ms: ERP_TIMEOUT_MS + 500, only: SEARCH_READ };
    const started = performance.now();
    const first = stack.get(LIST).then((res) => ({ res, ms: performance.now() - started }));
    while (sent(SEARCH_READ) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 800));
    const second = await stack.get(LIST);
    const early = await first;
    expect(expectDocumented(LIST, early.res).status).toBe(504);
    expect(early.ms).toBeLessThan(ERP_TIMEOUT_MS + 400);
    expect(expectDocumented(LIST, second).status).toBe(200);
    expect(sent(SEARCH_READ)).toBe(1);
  });
});
