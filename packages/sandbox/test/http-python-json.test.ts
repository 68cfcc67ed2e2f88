/**
 * JSON as Odoo's Python writes and reads it; every expected text below was produced by CPython
 * 3.11's `json` module.
 */
import { PyJsonDecodeError, dumpsJson, loadsJson } from '../src/http/python-json';

describe('dumpsJson', () => {
  it('writes json.dumps(..., ensure_ascii=False)', () => {
    expect(dumpsJson({ a: [1, 2.5, true, null, 'é\n"'], b: {}, c: [], d: 1e-7, e: 3e9 + 0.5, f: undefined })).toBe(
      '{"a": [1, 2.5, true, null, "é\\n\\""], "b": {}, "c": [], "d": 1e-07, "e": 3000000000.5}',
    );
  });
});

describe('loadsJson', () => {
  it('reads what json.loads reads, NaN and Infinity included', () => {
    expect(loadsJson('{"a": [1, "x"]}')).toEqual({ a: [1, 'x'] });
    expect(loadsJson('[NaN, Infinity, -Infinity]')).toEqual([NaN, Infinity, -Infinity]);
  });

  it.each([
    ['not json', 'Expecting value: line 1 column 1 (char 0)'],
    ['', 'Expecting value: line 1 column 1 (char 0)'],
    ['   ', 'Expecting value: line 1 column 4 (char 3)'],
    ['{"a": 1,}', 'Expecting property name enclosed in double quotes: line 1 column 9 (char 8)'],
    ['{"a" 1}', "Expecting ':' delimiter: line 1 column 6 (char 5)"],
    ['{"a": 1 "b": 2}', "Expecting ',' delimiter: line 1 column 9 (char 8)"],
    ['[1, 2,]', 'Expecting value: line 1 column 7 (char 6)'],
    ['[1 2]', "Expecting ',' delimiter: line 1 column 4 (char 3)"],
    ['"abc', 'Unterminated string starting at: line 1 column 1 (char 0)'],
    ['"a\\qb"', 'Invalid \\escape: line 1 column 3 (char 2)'],
    ['"a\\u12"', 'Invalid \\uXXXX escape: line 1 column 4 (char 3)'],
    ['"a\nb"', 'Invalid control character at: line 1 column 3 (char 2)'],
    ['{"a": 1}\n x', 'Extra data: line 2 column 2 (char 10)'],
    ['\ufeff{}', 'Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)'],
    ['01', 'Extra data: line 1 column 2 (char 1)'],
    ['[1,\n\n  x]', 'Expecting value: line 3 column 3 (char 7)'],
  ])('fails on %j as Python does', (text, message) => {
    expect(() => loadsJson(text)).toThrow(new PyJsonDecodeError(message));
  });
});
