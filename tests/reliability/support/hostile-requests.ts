/**
 * fast-check generators of hostile requests on the gateway's data routes: query strings with unknown,
 * repeated and look-alike keys; huge, unicode, control, percent-encoded (valid or broken), domain-
 * and SQL-looking values; numbers out of range and impossible dates; valid filter names with garbage
 * values (and sometimes good ones, so that some requests succeed); odd paths and methods; malformed
 * Authorization and other headers. Everything stays within what Node's HTTP client will send and
 * Node's parser accepts (request line and headers under 16 KiB, no framing errors such as a
 * Transfer-Encoding other than chunked): the raw-protocol cases are tested apart.
 */
import fc from 'fast-check';
import type { FilterSpec, ResourceSpec } from '@ops-data-gateway/gateway/runtime/resource-spec';
import type { RawRequest } from './keep-alive-client';

export interface HostileRequest extends RawRequest {
  /** Path of the resource whose route the request aims at (`fleet/vehicles`). */
  readonly resource: string;
  readonly route: 'list' | 'detail';
}

const COMMON = ['limit', 'offset', 'since_id', 'total', 'order', 'fields'];

const LOOK_ALIKE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'valueOf',
  'domain',
  'context',
  'model',
  'method',
  'args',
  'kwargs',
  'ids',
  'uid',
  'db',
  'limit[]',
  'limit[0]',
  'filter[state]',
  'a[b][c]',
  'fields[]',
  'order[]',
  '',
  ' ',
  'LIMIT',
  'Limit',
  'limit ',
  ' limit',
  'limit\u0000',
  'offset\t',
  'since-id',
  'sinceId',
  'id',
  'ID',
  'q',
  'search',
  'api_key',
  'key',
];

const DOMAIN_AND_SQL = [
  "[('id','>',0)]",
  "['|',('active','=',False),('active','=',True)]",
  '[["id",">",0]]',
  '["|",["active","=",false]]',
  "('id','!=',0)",
  '&',
  '|',
  '!',
  '1) OR (1=1',
  "' OR '1'='1",
  "' OR 1=1 --",
  '1; DROP TABLE res_users; --',
  "'; SELECT * FROM res_users_apikeys; --",
  '" OR ""="',
  '%',
  '_',
  '%%',
  '\\',
  '\\%',
  '*',
  '?',
  '{"$gt":""}',
  '{"$where":"1"}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as text.
  '${7*7}',
  '{{7*7}}',
  '#{7*7}',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  'None',
  'False',
  'True',
  '[]',
  '{}',
  'res.users',
  'res_users_apikeys',
  'active_test',
  'sudo()',
  '__import__("os").system("id")',
  'id desc; DROP',
  'id,password',
  'password',
  'login',
];

const NUMBERS = [
  '-1',
  '0',
  '1',
  '00001',
  '2147483647',
  '2147483648',
  '-2147483649',
  '4294967296',
  '9007199254740993',
  '1e309',
  '1e3',
  '-1e3',
  '0x10',
  '0b1',
  '0o7',
  '1.5',
  '.5',
  '5.',
  '+1',
  ' 1',
  '1 ',
  '1_000',
  '١٢٣',
  '１２３',
  '1,2',
  '1,,2',
  ',',
  '1,-1',
  '1;2',
  '99999999999999999999999999999999999999999999999999999999999999999',
];

const DATES = [
  '2026-02-30',
  '2026-02-29',
  '2024-02-29',
  '2026-13-01',
  '2026-00-10',
  '2026-04-31',
  '0000-00-00',
  '0001-01-01',
  '9999-12-31',
  '2026-1-1',
  '26-01-01',
  '20260101',
  '2026-W01',
  '2026-001',
  '2026-01-01T25:00:00Z',
  '2026-01-01T23:59:60Z',
  '2026-01-01T10:61:00Z',
  '2026-01-01T10:00:00+25:00',
  '2026-01-01T10:00:00.1234567890Z',
  '2026-01-01T10:00:00.123456789Z',
  '2026-01-01 10:00',
  '2026-01-01T10:00:00+0530',
  '2026-01-01t10:00z',
  '2026-01-01T10:00:00Z',
  '2026-01-01',
  '+002026-01-01',
  '-2026-01-01',
  '2026-01-01Z',
  '2026-01-01T',
];

const BROKEN_PERCENT = ['%', '%G1', '%1', '%zz', '%00', '%C0%AF', '%C0%80', '%FF%FE', '%ED%A0%80', '%E2%82', '%25', '%2525', '%u0041', '%0A%0D', '%F0%9F%92'];

/** Percent-encodes every byte of the UTF-8 text except the unreserved ones (lone surrogates become U+FFFD). */
function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * Encodes only what Node's client would refuse or what would change the query's structure, leaving
 * quotes, brackets, `$`, `;`, `|`, `\` and Latin-1 letters raw, as sloppy clients send them.
 */
function looseEncode(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    out += code > 0x20 && code <= 0xff && code !== 0x7f && !'&=#%+?'.includes(ch) ? ch : percentEncode(ch);
  }
  return out;
}

const encoded = (text: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 5, arbitrary: text.map(percentEncode) },
    { weight: 2, arbitrary: text.map(looseEncode) },
    { weight: 1, arbitrary: text.map((t) => percentEncode(percentEncode(t))) },
    { weight: 1, arbitrary: text.map((t) => percentEncode(t).replace(/%20/g, '+')) },
    { weight: 1, arbitrary: fc.tuple(text.map(percentEncode), fc.constantFrom(...BROKEN_PERCENT), fc.boolean()).map(([t, b, before]) => (before ? b + t : t + b)) },
  );

const garbage: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), maxLength: 8 }) },
  { weight: 3, arbitrary: fc.constantFrom(...DOMAIN_AND_SQL) },
  { weight: 3, arbitrary: fc.constantFrom(...NUMBERS) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 3, arbitrary: fc.constantFrom(...DATES) },
  { weight: 1, arbitrary: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()) },
  // Huge values: the whole request line stays under Node's 16 KiB header limit.
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('a', '9', '%', ' ', 'é', '€', '\u0000'), fc.integer({ min: 300, max: 1500 })).map(([c, n]) => c.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 2000, max: 9000 }).map((n) => 'x'.repeat(n)) },
);

/** A value the filter (or common parameter) accepts, so that some requests get through to the ERP. */
function validValue(name: string, filter: FilterSpec | undefined, resource: ResourceSpec): fc.Arbitrary<string> {
  switch (name) {
    case 'limit':
      return fc.constantFrom('1', '2', '5', '200', '500');
    case 'offset':
      return fc.constantFrom('0', '1', '10', '100000');
    case 'since_id':
      return fc.constantFrom('0', '5', '2147483647');
    case 'total':
      return fc.constantFrom('true', 'false', 'TRUE', 'False');
    case 'order': {
      const sortable = Object.keys(resource.sortable);
      return sortable.length ? fc.tuple(fc.constantFrom(...sortable), fc.constantFrom('', ' asc', ' DESC', ' desc')).map(([f, d]) => f + d) : fc.constant('id');
    }
    case 'fields':
      return fc
        .subarray(
          resource.fields.map((f) => f.name),
          { minLength: 1, maxLength: 4 },
        )
        .map((names) => names.join(','));
  }
  switch (filter?.type) {
    case 'integer':
      return fc.integer({ min: 0, max: 300 }).map(String);
    case 'number':
      return fc.constantFrom('0', '1.5', '1000', '-5');
    case 'boolean':
      return fc.constantFrom('true', 'false', 'True', 'FALSE');
    case 'enum':
      return fc.constantFrom(...(filter.values ?? ['x']));
    case 'string':
      return fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fc.constantFrom('a', 'e', '%', '_', "O'Brien"));
    case 'date':
    case 'date-time':
      return fc.constantFrom('2024-01-01', '2025-06-30', '2026-12-31T23:59:59Z', '2025-03-01T10:00:00+02:00');
    case 'integer-list':
      return fc.constantFrom('1', '1,2', '3,5,7');
    default:
      return fc.string({ maxLength: 8 });
  }
}

function queryPair(resource: ResourceSpec): fc.Arbitrary<string> {
  const filters = new Map(resource.filters.map((f) => [f.name, f]));
  const known = [...COMMON, ...filters.keys()];
  const key = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...known) },
    { weight: 2, arbitrary: fc.constantFrom(...LOOK_ALIKE_KEYS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  return key.chain((name) => {
    const value = fc.oneof({ weight: 1, arbitrary: validValue(name, filters.get(name), resource) }, { weight: 1, arbitrary: garbage });
    const encodedKey = fc.oneof({ weight: 6, arbitrary: fc.constant(percentEncode(name)) }, { weight: 1, arbitrary: encoded(fc.constant(name)) });
    return fc.oneof(
      { weight: 8, arbitrary: fc.tuple(encodedKey, encoded(value)).map(([k, v]) => `${k}=${v}`) },
      // The same key twice: an array where the parser expects one value.
      { weight: 2, arbitrary: fc.tuple(encodedKey, encoded(value), encoded(value)).map(([k, a, b]) => `${k}=${a}&${k}=${b}`) },
      { weight: 1, arbitrary: encodedKey },
      { weight: 1, arbitrary: encodedKey.map((k) => `${k}=`) },
      { weight: 1, arbitrary: fc.constantFrom('&', '&&', '=', '==', '=x', '&=&') },
    );
  });
}

const detailId: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 1, max: 80 }).map(String) },
  { weight: 3, arbitrary: fc.constantFrom(...NUMBERS).map(percentEncode) },
  { weight: 2, arbitrary: encoded(garbage) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%C0%AF', '..', '.', '%2e%2e', '%2F', '1%2F2', '1;x=2', '1.json', '1%00') },
);

/** Changes to a route's path that a sloppy or hostile client makes. */
const pathVariant: fc.Arbitrary<(path: string) => string> = fc.oneof(
  { weight: 30, arbitrary: fc.constant((p: string) => p) },
  { weight: 1, arbitrary: fc.constant((p: string) => `${p}/`) },
  { weight: 1, arbitrary: fc.constant((p: string) => p.toUpperCase()) },
  { weight: 1, arbitrary: fc.constant((p: string) => p.replace('/api/', '//api/')) },
  { weight: 1, arbitrary: fc.constant((p: string) => p.replace('/api/v1/', '/api/v1/./')) },
  { weight: 1, arbitrary: fc.constant((p: string) => p.replace('/api/v1/', '/api/v1/x/../')) },
  { weight: 1, arbitrary: fc.constant((p: string) => `${p};jsessionid=1`) },
  { weight: 1, arbitrary: fc.constant((p: string) => `${p}/extra`) },
  { weight: 1, arbitrary: fc.constant((p: string) => p.replace(/\/([^/]*)$/, '%2F$1')) },
  { weight: 1, arbitrary: fc.constant((p: string) => `${p}#fragment`) },
);

const METHODS: fc.Arbitrary<string> = fc.oneof(
  { weight: 14, arbitrary: fc.constant('GET') },
  { weight: 2, arbitrary: fc.constant('HEAD') },
  { weight: 3, arbitrary: fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'PURGE', 'SEARCH', 'LOCK', 'MKCOL', 'REPORT') },
);

function authorization(validKey: string): fc.Arbitrary<string | readonly string[] | undefined> {
  return fc.oneof(
    { weight: 14, arbitrary: fc.constant(`Bearer ${validKey}`) },
    { weight: 1, arbitrary: fc.constantFrom(`bearer ${validKey}`, `BEARER\t${validKey}`, `Bearer  ${validKey} `) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 3,
      arbitrary: fc.oneof(
        fc.constantFrom('', 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', `Basic ${validKey}`, `Token ${validKey}`, `Bearer ${validKey}x`, `Bearer ${validKey.slice(0, 39)}`),
        fc.constantFrom(`Bearer ${validKey.toUpperCase()}`, `Bearer ${validKey} extra`, `Bearer "${validKey}"`, `Bearer ${'a'.repeat(600)}`, `Bearer ${'0'.repeat(40)}`),
        // Any byte Node lets into a header value (it refuses controls and DEL).
        fc
          .string({
            unit: fc
              .integer({ min: 0x21, max: 0xff })
              .filter((c) => c !== 0x7f)
              .map((c) => String.fromCharCode(c)),
            maxLength: 60,
          })
          .map((s) => `Bearer ${s}`),
        fc.constant([`Bearer ${validKey}`, 'Bearer wrong'] as const),
        fc.constant(['Bearer wrong', `Bearer ${validKey}`] as const),
      ),
    },
  );
}

const EXTRA_HEADERS: readonly (readonly [string, string])[] = [
  ['X-Forwarded-For', '10.0.0.1, <script>, ::1'],
  ['X-Forwarded-Host', 'evil.example'],
  ['X-Forwarded-Proto', 'gopher'],
  ['Origin', 'https://evil.example'],
  ['Accept', 'text/html'],
  ['Accept', '*/*;q=abc'],
  ['Accept-Encoding', 'gzip, br, zstd'],
  ['Accept-Language', 'xx-ÿÿ'],
  ['If-None-Match', '*'],
  ['If-Modified-Since', 'yesterday'],
  ['Range', 'bytes=0-1,5-'],
  ['Content-Type', 'application/json'],
  ['Cookie', 'session=x; key=y'],
  ['X-Request-Id', '../../../../etc/passwd'],
  ['X-HTTP-Method-Override', 'DELETE'],
  ['Expect', 'nothing'],
  ['Host', 'evil.example:99999'],
  ['X-Odoo-Database', 'other'],
  ['Cache-Control', 'no-cache'],
];

export function hostileRequest(resources: readonly ResourceSpec[], validKey: string): fc.Arbitrary<HostileRequest> {
  return fc
    .record({
      resource: fc.constantFrom(...resources),
      route: fc.constantFrom('list' as const, 'detail' as const),
      id: detailId,
      variant: pathVariant,
      method: METHODS,
      authorization: authorization(validKey),
      extra: fc.subarray([...EXTRA_HEADERS], { maxLength: 3 }),
      body: fc.option(fc.constantFrom('{"domain":[["id",">",0]]}', 'limit=5', '\u0000\u0001'), { freq: 10 }),
      emptyQuery: fc.constantFrom('', '?', '?&'),
    })
    .chain((base) =>
      fc.array(queryPair(base.resource), { maxLength: 6 }).map((pairs): HostileRequest => {
        const route = `/api/v1/${base.resource.path}${base.route === 'detail' ? `/${base.id}` : ''}`;
        const query = pairs.length ? `?${pairs.join('&')}` : base.emptyQuery;
        const headers: Record<string, string | readonly string[]> = {};
        if (base.authorization !== undefined) headers['Authorization'] = base.authorization;
        for (const [name, value] of base.extra) headers[name] = value;
        if (base.body !== null) headers['Content-Length'] = String(Buffer.byteLength(base.body));
        return {
          resource: base.resource.path,
          route: base.route,
          method: base.method,
          path: base.variant(route) + query,
          headers,
          ...(base.body !== null ? { body: base.body } : {}),
        };
      }),
    );
}
