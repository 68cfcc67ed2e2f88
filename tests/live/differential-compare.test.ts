/**
 * The differential check's reading of answers and its comparison, on hand-made replies: what is
 * normalised (traceback frames, AccessError group lists, werkzeug's header case) and how a
 * mismatch is classified (shape, encoding, ordering, error, value), ties included.
 */
import { lastTracebackLine, readJson2, readJsonRpc, readXmlRpc, withoutGroupList, type Answer } from '../../live/differential/answer';
import { compareAnswers } from '../../live/differential/compare';
import { nullPrefix } from '../../live/differential/mirror';
import { tieKeyOf } from '../../live/differential/series';
import { tiesBy } from '../../live/differential/group-series';
import { encodeFault, encodeMethodResponse } from '@ops-data-gateway/codec';

const result = (value: unknown): Answer => ({ kind: 'result', status: 200, value });
const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  text: JSON.stringify(body),
});

describe('reading answers', () => {
  it("leaves out a PostgreSQL error's quote of Odoo's SQL (both sides), keeps its first line and HINT", () => {
    const pg =
      'function sum(character varying) does not exist\nLINE 1: SELECT "purchase_order"."state", COUNT(*), SUM("purchase_ord...\n                                                   ^\nHINT:  No function matches.\n';
    expect(lastTracebackLine(pg)).toBe('function sum(character varying) does not exist\nHINT:  No function matches.\n');
    const traceback = `Traceback (most recent call last):\n  File "x.py", line 3, in f\n    g()\npsycopg2.errors.UndefinedFunction: ${pg}`;
    expect(lastTracebackLine(traceback)).toBe('psycopg2.errors.UndefinedFunction: function sum(character varying) does not exist\nHINT:  No function matches.');
  });

  it('keeps only the last line of a traceback', () => {
    const text = "Traceback (most recent call last):\n  File \"x.py\", line 3, in f\n    g()\nValueError: Invalid field 'x' on model 'y'\n";
    expect(lastTracebackLine(text)).toBe("ValueError: Invalid field 'x' on model 'y'");
    expect(lastTracebackLine('Access Denied')).toBe('Access Denied');
  });

  it('reads XML-RPC results and faults (fault 1 without its frames)', () => {
    expect(readXmlRpc({ status: 200, headers: {}, text: encodeMethodResponse([1, false, 'a']) })).toEqual(result([1, false, 'a']));
    const fault = readXmlRpc({ status: 200, headers: {}, text: encodeFault(1, 'Traceback (most recent call last):\n  File "a", line 1\nKeyError: \'x\'\n') });
    expect(fault).toEqual({ kind: 'error', status: 200, code: 1, message: "KeyError: 'x'" });
  });

  it('reads JSON-RPC errors without debug and tells an absent result from null', () => {
    const error = readJsonRpc(
      json(200, {
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: 0,
          message: 'Odoo Server Error',
          data: { name: 'odoo.exceptions.AccessDenied', message: 'Access Denied', arguments: ['Access Denied'], debug: 'Traceback…' },
        },
      }),
    );
    expect(error).toEqual({
      kind: 'error',
      status: 200,
      code: 0,
      title: 'Odoo Server Error',
      name: 'odoo.exceptions.AccessDenied',
      message: 'Access Denied',
      arguments: ['Access Denied'],
    });
    expect(readJsonRpc(json(200, { jsonrpc: '2.0', id: 1 }))).toEqual({ kind: 'result', status: 200, value: null, absent: true });
  });

  it('reads JSON-2 errors with their status and WWW-Authenticate in any case', () => {
    const answer = readJson2(
      json(401, { name: 'werkzeug.exceptions.Unauthorized', message: 'Invalid apikey', arguments: ['Invalid apikey', 401] }, { 'www-authenticate': 'Bearer ' }),
    );
    expect(answer).toMatchObject({ kind: 'error', status: 401, wwwAuthenticate: 'bearer' });
    const page = readJson2({
      status: 415,
      headers: { 'content-type': 'text/html; charset=utf-8', accept: 'application/json' },
      text: '<!doctype html><title>415</title><h1>Unsupported Media Type</h1><p>Try again.</p>',
    });
    expect(page).toEqual({ kind: 'http', status: 415, contentType: 'text/html', accept: 'application/json', text: 'Unsupported Media Type Try again.' });
  });

  it('replaces the group list of an AccessError, or its absence, by one placeholder: groups are configuration', () => {
    const listed = "You are not allowed to access 'X' (x) records.\n\nThis operation is allowed for the following groups:\n\t- A\n\t- B\n\nContact your administrator.";
    const none = "You are not allowed to access 'X' (x) records.\n\nNo group currently allows this operation.\n\nContact your administrator.";
    const expected = "You are not allowed to access 'X' (x) records.\n\n<groups that allow this>\n\nContact your administrator.";
    expect([withoutGroupList(listed), withoutGroupList(none)]).toEqual([expected, expected]);
  });
});

describe('comparing answers', () => {
  it('finds nothing in equal answers', () => {
    expect(compareAnswers(result([{ id: 1, a: [2, 'x'] }]), result([{ id: 1, a: [2, 'x'] }]))).toEqual([]);
  });

  it('classifies encodings: false against 0, "" against false, an int against a double', () => {
    const kinds = compareAnswers(result([{ id: 1, n: false, s: '', f: 1 }]), result([{ id: 1, n: 0, s: false, f: 1.5 }])).map((m) => [m.kind, m.path]);
    expect(kinds).toEqual([
      ['encoding', '[id=1].n'],
      ['encoding', '[id=1].s'],
      ['value', '[id=1].f'],
    ]);
  });

  it('matches records by id: a missing record and a wrong field are one mismatch each', () => {
    const mismatches = compareAnswers(
      result([
        { id: 1, a: 'x' },
        { id: 2, a: 'y' },
      ]),
      result([{ id: 1, a: 'z' }]),
    );
    expect(mismatches.map((m) => [m.kind, m.path])).toEqual([
      ['value', '(list) ids'],
      ['value', '[id=1].a'],
    ]);
  });

  it('reports keys one side lacks as shape', () => {
    expect(compareAnswers(result({ a: 1, b: 2 }), result({ a: 1, c: 2 }))).toEqual([{ kind: 'shape', path: '(object)', live: ['b'], sandbox: ['c'] }]);
  });

  it('reports another order as ordering, unless only ties differ', () => {
    expect(compareAnswers(result([1, 2, 3]), result([2, 1, 3]))[0]?.kind).toBe('ordering');
    const snapshot = new Map([['m', new Map([1, 2, 3].map((id) => [id, { id, k: id === 3 ? 'b' : 'a' }]))]]);
    const tieKey = tieKeyOf(snapshot, 'm', 'k');
    expect(compareAnswers(result([1, 2, 3]), result([2, 1, 3]), { tieKey })).toEqual([]);
    expect(compareAnswers(result([1, 2, 3]), result([3, 1, 2]), { tieKey })[0]?.kind).toBe('ordering');
  });

  it('treats rows equal to the second under a datetime key as ties, whatever keys follow (fractions are not read)', () => {
    const at = (id: number, date: string) => [id, { id, d: date }] as const;
    const snapshot = new Map([['m', new Map([at(1, '2026-01-01 10:00:00'), at(2, '2026-01-01 10:00:00'), at(3, '2026-01-01 10:00:01')])]]);
    const tieKey = tieKeyOf(snapshot, 'm', 'd, id');
    expect(compareAnswers(result([1, 2, 3]), result([2, 1, 3]), { tieKey })).toEqual([]);
    expect(compareAnswers(result([1, 2, 3]), result([3, 1, 2]), { tieKey })[0]?.kind).toBe('ordering');
  });

  it('accepts other members of a tie run cut by a limit, but not a member of another run', () => {
    const snapshot = new Map([['m', new Map([1, 2, 3, 4].map((id) => [id, { id, k: id === 4 ? 'b' : 'a' }]))]]);
    const tieKey = tieKeyOf(snapshot, 'm', 'k');
    expect(compareAnswers(result([1, 2]), result([3, 1]), { tieKey })).toEqual([]);
    expect(compareAnswers(result([1, 2]), result([1, 4]), { tieKey })[0]?.kind).toBe('value');
  });

  it('compares errors by status, code, class and message, and a result against an error', () => {
    const a: Answer = { kind: 'error', status: 200, code: 2, message: 'x' };
    const b: Answer = { kind: 'error', status: 200, code: 1, message: 'ValueError: x' };
    expect(compareAnswers(a, b).map((m) => m.path)).toEqual(['code', 'message']);
    expect(compareAnswers(result(1), a)[0]?.kind).toBe('error');
  });
});

describe('NULL numbers from two orders', () => {
  it('finds the rows that move from first to last', () => {
    expect([...nullPrefix([4, 5, 1, 2, 3], [1, 2, 3, 4, 5])]).toEqual([4, 5]);
    expect([...nullPrefix([1, 2, 3], [1, 2, 3])]).toEqual([]);
  });
});

describe('grouped reads that tie under the order asked', () => {
  const groups = (...rows: [string, number][]) => rows.map(([state, count]) => ({ state, __count: count }));
  const project = tiesBy((g) => JSON.stringify(g['__count']));

  it('compares the groups of one count as a set, in the order of the counts', () => {
    const live = result(project(groups(['a', 3], ['b', 3], ['c', 1])));
    expect(compareAnswers(live, result(project(groups(['b', 3], ['a', 3], ['c', 1]))))).toEqual([]);
  });

  it('still reports groups out of the order asked, or with other counts', () => {
    const live = result(project(groups(['a', 3], ['b', 3], ['c', 1])));
    expect(compareAnswers(live, result(project(groups(['c', 1], ['a', 3], ['b', 3]))))).not.toEqual([]);
    expect(compareAnswers(live, result(project(groups(['a', 3], ['b', 2], ['c', 1]))))).not.toEqual([]);
  });
});
