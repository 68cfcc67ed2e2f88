/**
 * The change feed's cost model (runtime/changes/write-date-cost.ts): which case a model is in, from
 * what its two probe reads cost. The ERP here answers the probes after a set delay (the keyed read,
 * the write_date check), as a table of a given size with or without an index would; the real costs
 * are measured on the sandbox at 1M rows (`make bench`) and on a real Odoo 19 (BENCHMARKS.md).
 */
import type { Logger } from '@ops-data-gateway/gateway/runtime/log';
import type { Principal } from '@ops-data-gateway/gateway/runtime/admission/auth';
import { WriteDateCosts } from '@ops-data-gateway/gateway/runtime/changes/write-date-cost';
import { ErpStats } from '@ops-data-gateway/gateway/runtime/erp/erp-client';
import type { PageRequest } from '@ops-data-gateway/gateway/runtime/erp-requests';
import type { ResourceReader } from '@ops-data-gateway/gateway/runtime/resource-reader';
import type { ResourceSpec } from '@ops-data-gateway/gateway/runtime/resource-spec';

const principal = { uid: 7, key: 'k' } as unknown as Principal;
const resource = { model: 'stock.picking', path: 'stock/pickings' } as unknown as ResourceSpec;

/**
 * An ERP whose keyed read takes `keyedMs` and whose write_date check takes `checkMs` (on a clock of
 * its own, so that a stall of a loaded machine changes nothing); the highest id is `maxId`.
 */
function erp(keyedMs: number, checkMs: number, maxId: number) {
  const requests: PageRequest[] = [];
  let ms = 0;
  const reader = {
    async scan(_p: Principal, _r: ResourceSpec, request: PageRequest) {
      requests.push(request);
      const onWriteDate = JSON.stringify(request.domain).includes('write_date');
      await new Promise((resolve) => setImmediate(resolve));
      ms += onWriteDate ? checkMs : keyedMs;
      return onWriteDate ? [] : [{ id: maxId }];
    },
  } as unknown as ResourceReader;
  return { reader, requests, clock: () => ms };
}

/** A logger keeping its info lines (the cost model writes nothing else). */
function logger() {
  const lines: { msg: string; write_date?: string }[] = [];
  const log = { info: (fields: object, msg: string) => lines.push({ ...fields, msg }) } as unknown as Logger;
  return { log, lines };
}

describe('what a write_date check costs', () => {
  it.each([
    ['a large table without an index', 5, 120, 1_000_045, 'not_indexed'],
    ['a large table with one', 5, 6, 1_000_045, 'indexed'],
    ['a small table', 5, 6, 250, 'small'],
    ['a small table whose checks were held up (a loaded machine)', 5, 60, 250, 'small'],
    ['a middling table, not indexed', 5, 30, 50_000, 'not_indexed'],
    ['a keyed read slow itself, the check not much slower', 40, 60, 1_000_045, 'indexed'],
  ])('%s (keyed read %i ms, check %i ms, highest id %i) is %s', async (_title, keyedMs, checkMs, maxId, expected) => {
    const { reader, requests, clock } = erp(keyedMs, checkMs, maxId);
    const { log, lines } = logger();
    const cost = await new WriteDateCosts(reader, 'auto', log, Date.now, clock).of(principal, resource, new ErpStats());
    expect(cost).toEqual(expect.objectContaining({ model: 'stock.picking', case: expected, source: 'measured', maxId, checkMs, keyedMs }));
    // Two of each probe: the highest id through the primary key, and the records written from now on.
    expect(requests.map((r) => r.order)).toEqual(['id desc', 'write_date asc, id asc', 'id desc', 'write_date asc, id asc']);
    expect(requests[1]?.domain).toEqual([['write_date', '>=', expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)]]);
    expect(lines.map((line) => line.write_date)).toEqual([expected]);
  });

  it('measures a model once for those asking at once, again after 15 minutes, and logs only a change of case', async () => {
    let now = Date.parse('2026-11-27T12:00:00Z');
    const slow = erp(2, 60, 1_000_045);
    const { log, lines } = logger();
    const costs = new WriteDateCosts(slow.reader, 'auto', log, () => now, slow.clock);
    const [a, b] = await Promise.all([costs.of(principal, resource, new ErpStats()), costs.of(principal, resource, new ErpStats())]);
    expect([a.case, b]).toEqual(['not_indexed', a]);
    expect(slow.requests).toHaveLength(4);
    now += 14 * 60_000;
    await costs.of(principal, resource, new ErpStats());
    expect(slow.requests).toHaveLength(4);
    now += 2 * 60_000;
    await costs.of(principal, resource, new ErpStats());
    expect(slow.requests).toHaveLength(8);
    expect(lines).toHaveLength(1);
    expect(costs.snapshot()).toEqual([expect.objectContaining({ model: 'stock.picking', case: 'not_indexed' })]);
  });

  it.each([
    ['yes', 'indexed'],
    ['no', 'not_indexed'],
  ] as const)('takes CHANGES_WRITE_DATE_INDEX=%s as %s, without a call', async (setting, expected) => {
    const { reader, requests } = erp(1, 1, 1);
    const { log, lines } = logger();
    const costs = new WriteDateCosts(reader, setting, log);
    expect(await costs.of(principal, resource, new ErpStats())).toEqual({ model: 'stock.picking', case: expected, source: 'configured' });
    await costs.of(principal, resource, new ErpStats());
    expect(requests).toEqual([]);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.msg).toContain('CHANGES_WRITE_DATE_INDEX says');
  });
});
