/**
 * The oracle of `expand` (issue 30): what a client gets by calling both routes and joining by hand.
 * A `to_one` relation is the related resource's detail route on the link (404: null); a `to_many` one
 * is its list route filtered on the link, in its default order, cut at the bound per record with the
 * count and the paging link named in `meta.expanded`. The rest of each record is the unexpanded
 * page's. Used on the sandbox (tests/e2e/expand.test.ts) and on a live Odoo (tests/live/).
 */
import type { RelationSpec, ResourceSpec } from '@ops-data-gateway/gateway/runtime/resource-spec';

type Row = Record<string, unknown> & { id: number };
interface Answer {
  readonly status: number;
  readonly body: unknown;
}
interface Page {
  data: Row[];
  meta: { total?: number; expanded?: unknown };
}

/** Related records listed per record (runtime/resource-reader.ts, EXPAND_PER_RECORD). */
export const EXPAND_PER_RECORD = 50;

/** Compares `?limit=<parents>&expand=<relation>` (list, then the detail of its first record) with the hand join; returns how many records were compared. */
export async function expectExpandedIsTheJoin(get: (path: string) => Promise<Answer>, resource: ResourceSpec, relation: RelationSpec, parents: number): Promise<number> {
  const page = async (path: string): Promise<Page> => {
    const answer = await get(path);
    expect([path, answer.status]).toEqual([path, 200]);
    return answer.body as Page;
  };
  const plain = await page(`/api/v1/${resource.path}?limit=${parents}`);
  const expanded = await page(`/api/v1/${resource.path}?limit=${parents}&expand=${relation.name}`);
  expect(expanded.data.map((r) => r.id)).toEqual(plain.data.map((r) => r.id));
  expect(expanded.meta.total).toBe(plain.meta.total);
  const truncated: { id: number; total: number; next: string }[] = [];
  for (const [i, record] of expanded.data.entries()) {
    const { [relation.name]: related, ...own } = record;
    expect(own).toEqual(plain.data[i]);
    if (relation.kind === 'to_one') {
      const link = record[relation.via] as number | null;
      const answer = link === null ? undefined : await get(`/api/v1/${relation.target}/${link}`);
      if (answer) expect([200, 404]).toContain(answer.status);
      const expected = answer?.status === 200 ? (answer.body as { data: Row }).data : null;
      expect([record.id, related]).toEqual([record.id, expected]);
    } else {
      const children = await page(`/api/v1/${relation.target}?${relation.filter}=${record.id}&limit=200`);
      expect([record.id, related]).toEqual([record.id, children.data.slice(0, EXPAND_PER_RECORD)]);
      if ((children.meta.total as number) > EXPAND_PER_RECORD)
        truncated.push({ id: record.id, total: children.meta.total as number, next: `/api/v1/${relation.target}?${relation.filter}=${record.id}&offset=${EXPAND_PER_RECORD}` });
    }
  }
  if (relation.kind === 'to_many') expect(expanded.meta.expanded).toEqual({ [relation.name]: { resource: relation.target, per_record_max: EXPAND_PER_RECORD, truncated } });
  else expect(expanded.meta.expanded).toBeUndefined();
  // The detail route expands the same way.
  const first = expanded.data[0];
  if (first) expect(((await get(`/api/v1/${resource.path}/${first.id}?expand=${relation.name}`)).body as { data: Row }).data).toEqual(first);
  return expanded.data.length;
}
