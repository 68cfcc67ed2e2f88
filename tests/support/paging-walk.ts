/**
 * Walks a whole list route: twice, by offset pages and by `since_id` cursor pages, for the suites that
 * prove both pagings meet the same records; once, by cursor, for the suites whose oracle is the JSON
 * list (the exports).
 */

export type Page = { data: { id: number; [field: string]: unknown }[]; meta: { total?: number; next_since_id?: number | null } };

export interface Walks {
  readonly total: number;
  readonly byOffset: readonly number[];
  readonly byCursor: readonly number[];
}

/** `get` answers a 200 page or throws; `pages` is about how many pages each walk takes. */
export async function walkBothWays(get: (path: string) => Promise<Page>, path: string, pages = 7): Promise<Walks> {
  const total = (await get(`/api/v1/${path}?limit=1&fields=id`)).meta.total as number;
  const size = Math.max(1, Math.ceil(total / pages));
  const byOffset: number[] = [];
  for (let offset = 0; offset < total; offset += size) byOffset.push(...(await get(`/api/v1/${path}?limit=${size}&offset=${offset}&fields=id&total=false`)).data.map((r) => r.id));
  const byCursor: number[] = [];
  let cursor: number | null | undefined = 0;
  for (let walked = 0; cursor !== null && cursor !== undefined; walked++) {
    if (walked > pages * 3) throw new Error(`cursor walk of ${path} did not end after ${walked} pages`);
    const page: Page = await get(`/api/v1/${path}?limit=${size}&since_id=${cursor}&fields=id&total=false`);
    byCursor.push(...page.data.map((r) => r.id));
    cursor = page.meta.next_since_id;
  }
  return { total, byOffset, byCursor };
}

/** What both walks must show: every record once, the cursor in ascending id order, the same set. */
export function expectSameRecords({ total, byOffset, byCursor }: Walks): void {
  expect(byOffset.length).toBe(total);
  expect(new Set(byOffset).size).toBe(total);
  expect(byCursor).toEqual([...byCursor].sort((a, b) => a - b));
  expect([...byCursor].sort((a, b) => a - b)).toEqual([...byOffset].sort((a, b) => a - b));
}

/** A page answer as supertest gives it. */
type Answer = { status: number; body: Page };

/** Every record of the JSON list at `path` (with `query`, `&`-prefixed), by the since_id cursor: the oracle of the export suites. */
export async function everyRecord(get: (path: string) => PromiseLike<Answer>, path: string, query = ''): Promise<Page['data']> {
  const records: Page['data'] = [];
  for (let cursor: number | null | undefined = 0; cursor !== null && cursor !== undefined; ) {
    const res = await get(`/api/v1/${path}?since_id=${cursor}&limit=200&total=false${query}`);
    expect(res.status).toBe(200);
    records.push(...res.body.data);
    cursor = res.body.meta.next_since_id;
  }
  return records;
}
