/**
 * `changed_since` values: a date-time becomes the second it falls in (the ERP answers whole seconds),
 * a token the gateway gave comes back as the cursor it holds, anything else is a 422.
 */
import { GatewayError } from '@ops-data-gateway/gateway/runtime/errors';
import { changeToken, erpSecond, parseChangedSince, secondOf } from '@ops-data-gateway/gateway/runtime/query/changed-since';

const at = (iso: string) => Date.parse(iso) / 1000;

describe('changed_since', () => {
  it.each([
    ['2026-01-31T08:30:00Z', '2026-01-31T08:30:00Z'],
    ['2026-01-31', '2026-01-31T00:00:00Z'],
    ['2026-01-31T10:30:00+02:00', '2026-01-31T08:30:00Z'],
    // A fraction cannot be compared with the ERP's whole seconds: its whole second is included.
    ['2026-01-31T08:30:00.999Z', '2026-01-31T08:30:00Z'],
  ])('reads %s as the records written from %s on', (text, from) => {
    expect(parseChangedSince(text)).toEqual({ second: at(from), afterId: 0 });
  });

  it('gives back the cursor a token holds, and the token is opaque text safe in a URL', () => {
    const cursor = { second: at('2026-11-25T17:07:58Z'), afterId: 15 };
    const token = changeToken(cursor);
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(parseChangedSince(token)).toEqual(cursor);
  });

  it.each(['yesterday', '2026-02-30', 'v1.', 'v1.bm90LWEtdG9rZW4', `v1.${Buffer.from('1:99999999999').toString('base64url')}`])('refuses %s with 422', (text) => {
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
