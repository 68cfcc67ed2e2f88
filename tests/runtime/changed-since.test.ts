/**
 * `changed_since` values: a date-time becomes the second it falls in (the ERP answers whole seconds),
 * a token the gateway gave comes back as the cursor it holds (a `v1.` token of earlier versions
 * too), anything else is a 422.
 */
import { GatewayError } from '@ops-data-gateway/gateway/runtime/errors';
import { changeToken, erpSecond, parseChangedSince, secondOf } from '@ops-data-gateway/gateway/runtime/query/changed-since';

const at = (iso: string) => Date.parse(iso) / 1000;
const FIRST = { span: 0, next: 1, seen: 0, digests: [] };
const token = changeToken;

describe('changed_since', () => {
  it.each([
    ['2026-01-31T08:30:00Z', '2026-01-31T08:30:00Z'],
    ['2026-01-31', '2026-01-31T00:00:00Z'],
    ['2026-01-31T10:30:00+02:00', '2026-01-31T08:30:00Z'],
    // A fraction cannot be compared with the ERP's whole seconds: its whole second is included.
    ['2026-01-31T08:30:00.999Z', '2026-01-31T08:30:00Z'],
  ])('reads %s as the records written from %s on', (text, from) => {
    expect(parseChangedSince(text)).toEqual({ second: at(from), afterId: 0, reconcile: FIRST });
  });

  it.each([
    ['by write_date', { second: at('2026-11-25T17:07:58Z'), afterId: 15, reconcile: { span: 10000, next: 20001, seen: 1000045, digests: [4294967295, 0, 123456789] } }],
    [
      "in a first sync's copy",
      { second: 0, afterId: 500200, until: at('2026-11-27T16:00:00Z'), reconcile: { span: 100, next: 101, seen: 500200, digests: [7], resume: { from: 150, digest: 9 } } },
    ],
    ['at the start', { second: 0, afterId: 0, reconcile: FIRST }],
  ])('gives back the cursor a token holds (%s), and the token is opaque text safe in a URL', (_case, cursor) => {
    const token = changeToken(cursor);
    expect(token).toMatch(/^v2\.[A-Za-z0-9_-]+$/);
    expect(parseChangedSince(token)).toEqual(cursor);
  });

  it('reads a v1 token (given before deletions were checked): the same place, the deletion check from the first id', () => {
    const v1 = `v1.${Buffer.from(`${at('2026-11-25T17:07:58Z')}:15`).toString('base64url')}`;
    expect(parseChangedSince(v1)).toEqual({ second: at('2026-11-25T17:07:58Z'), afterId: 15, reconcile: FIRST });
  });

  it.each([
    'yesterday',
    '2026-02-30',
    'v1.',
    'v1.bm90LWEtdG9rZW4',
    `v1.${Buffer.from('1:99999999999').toString('base64url')}`,
    'v2.',
    `v2.${Buffer.from('1:2').toString('base64url')}`,
    // A token the gateway gives, made invalid: a copy ending before it starts, a next range off its span,
    // a resume outside its range, a bit too many, a digest cut short, flags it never sets.
    token({ second: 100, afterId: 0, until: 100, reconcile: FIRST }),
    token({ second: 100, afterId: 0, reconcile: { span: 100, next: 150, seen: 0, digests: [] } }),
    token({ second: 100, afterId: 0, reconcile: { span: 100, next: 101, seen: 0, digests: [], resume: { from: 201, digest: 0 } } }),
    token({ second: 100, afterId: 0, reconcile: { span: 0, next: 1, seen: 0, digests: [3] } }),
    `v2.${Buffer.from(Buffer.from(token({ second: 100, afterId: 0, reconcile: { span: 100, next: 1, seen: 0, digests: [3] } }).slice(3), 'base64url').subarray(0, -1)).toString('base64url')}`,
    `v2.${Buffer.from([8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]).toString('base64url')}`,
    `v3.${Buffer.from('100:0::1:0').toString('base64url')}`,
  ])('refuses %s with 422', (text) => {
    expect(() => parseChangedSince(text)).toThrow(GatewayError);
    try {
      parseChangedSince(text);
    } catch (error) {
      expect((error as GatewayError).status).toBe(422);
    }
  });

  it('speaks the ERP datetime text both ways', () => {
    expect(erpSecond(at('2026-11-25T17:07:58Z'))).toBe('2026-11-25 17:07:58');
    expect(secondOf('2026-11-25 17:07:58')).toBe(at('2026-11-25T17:07:58Z'));
    expect(secondOf('2026-11-25 17:07:58.123456')).toBe(at('2026-11-25T17:07:58Z'));
    expect(secondOf(false)).toBeUndefined();
  });
});
