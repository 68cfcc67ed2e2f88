/**
 * @module JSON as Odoo's Python reads and writes it. `dumpsJson` writes what `json.dumps` writes
 * (`", "` and `": "` separators, Python float reprs, `NaN`/`Infinity`; JS has one number type, so
 * an integral float such as `5.0` is written `5`); `loadsJson` accepts what
 * `json.loads` accepts and fails with its messages ("Expecting value: line 1 column 1 (char 0)"),
 * which JSON-2 shows in its 400 answers. The fast path is `JSON.parse`; the Python-faithful
 * scanner below only runs when that fails.
 */
import { pythonFloatRepr } from '@ops-data-gateway/codec';

/** `json.JSONDecodeError`: `message` is the full Python text, position included. */
export class PyJsonDecodeError extends Error {
  override readonly name = 'PyJsonDecodeError';
}

/** Nesting the scanner follows before giving up (Python's own limit is its recursion limit). */
const MAX_NESTING = 1000;

export function dumpsJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
    return Number.isSafeInteger(value) ? String(value) : pythonFloatRepr(value);
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => dumpsJson(item)).join(', ')}]`;
  if (typeof value === 'object') {
    const members: string[] = [];
    for (const [key, member] of Object.entries(value)) {
      if (member !== undefined) members.push(`${JSON.stringify(key)}: ${dumpsJson(member)}`);
    }
    return `{${members.join(', ')}}`;
  }
  return 'null';
}

export function loadsJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return new PythonJsonScanner(text).parseDocument();
  }
}

const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const NUMBER = /(-?(?:0|[1-9]\d*))(\.\d+)?([eE][-+]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

/** A port of Python's `json` scanner (strict mode), with the C accelerator's error messages. */
class PythonJsonScanner {
  constructor(private readonly s: string) {}

  parseDocument(): unknown {
    if (this.s.startsWith('\ufeff')) throw this.error('Unexpected UTF-8 BOM (decode using utf-8-sig)', 0, false);
    const start = this.skipWhitespace(0);
    const [value, end] = this.scanValue(start, 0);
    const after = this.skipWhitespace(end);
    if (after !== this.s.length) throw this.error('Extra data', after);
    return value;
  }

  private scanValue(idx: number, depth: number): [unknown, number] {
    if (depth > MAX_NESTING) throw this.error('Maximum nesting depth exceeded', idx);
    const s = this.s;
    const c = s[idx];
    if (c === '"') return this.scanString(idx + 1);
    if (c === '{') return this.scanObject(idx + 1, depth + 1);
    if (c === '[') return this.scanArray(idx + 1, depth + 1);
    for (const [word, value] of [
      ['null', null],
      ['true', true],
      ['false', false],
      ['NaN', NaN],
      ['Infinity', Infinity],
      ['-Infinity', -Infinity],
    ] as const) {
      if (s.startsWith(word, idx)) return [value, idx + word.length];
    }
    NUMBER.lastIndex = idx;
    const m = NUMBER.exec(s);
    if (m) return [Number(m[0]), idx + m[0].length];
    throw this.error('Expecting value', idx);
  }

  private scanString(begin: number): [string, number] {
    const s = this.s;
    let out = '';
    let end = begin;
    for (;;) {
      if (end >= s.length) throw this.error('Unterminated string starting at', begin - 1);
      const c = s[end] as string;
      if (c === '"') return [out, end + 1];
      if (c !== '\\') {
        if (c.charCodeAt(0) < 0x20) throw this.error('Invalid control character at', end);
        out += c;
        end += 1;
        continue;
      }
      const esc = s[end + 1];
      if (esc === undefined) throw this.error('Unterminated string starting at', begin - 1);
      if (esc === 'u') {
        const hex = s.slice(end + 2, end + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw this.error('Invalid \\uXXXX escape', end + 1);
        out += String.fromCharCode(parseInt(hex, 16));
        end += 6;
      } else {
        const decoded = Object.hasOwn(ESCAPES, esc) ? ESCAPES[esc] : undefined;
        if (decoded === undefined) throw this.error('Invalid \\escape', end);
        out += decoded;
        end += 2;
      }
    }
  }

  private scanObject(idx: number, depth: number): [Record<string, unknown>, number] {
    const s = this.s;
    const result: Record<string, unknown> = {};
    let end = this.skipWhitespace(idx);
    if (s[end] !== '"') {
      if (s[end] === '}') return [result, end + 1];
      throw this.error('Expecting property name enclosed in double quotes', end);
    }
    end += 1;
    for (;;) {
      const [key, afterKey] = this.scanString(end);
      end = this.skipWhitespace(afterKey);
      if (s[end] !== ':') throw this.error("Expecting ':' delimiter", end);
      end = this.skipWhitespace(end + 1);
      const [value, afterValue] = this.scanValue(end, depth);
      Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
      end = this.skipWhitespace(afterValue);
      const next = s[end];
      end += 1;
      if (next === '}') return [result, end];
      if (next !== ',') throw this.error("Expecting ',' delimiter", end - 1);
      end = this.skipWhitespace(end);
      if (s[end] !== '"') throw this.error('Expecting property name enclosed in double quotes', end);
      end += 1;
    }
  }

  private scanArray(idx: number, depth: number): [unknown[], number] {
    const s = this.s;
    const result: unknown[] = [];
    let end = this.skipWhitespace(idx);
    if (s[end] === ']') return [result, end + 1];
    for (;;) {
      const [value, afterValue] = this.scanValue(end, depth);
      result.push(value);
      end = this.skipWhitespace(afterValue);
      const next = s[end];
      end += 1;
      if (next === ']') return [result, end];
      if (next !== ',') throw this.error("Expecting ',' delimiter", end - 1);
      end = this.skipWhitespace(end);
    }
  }

  private skipWhitespace(idx: number): number {
    WHITESPACE.lastIndex = idx;
    WHITESPACE.exec(this.s);
    return WHITESPACE.lastIndex;
  }

  /** `JSONDecodeError(msg, doc, pos)`: "msg: line L column C (char P)". */
  private error(message: string, pos: number, withPosition = true): PyJsonDecodeError {
    if (!withPosition) return new PyJsonDecodeError(`${message}: line 1 column 1 (char 0)`);
    const before = this.s.slice(0, pos);
    const line = before.split('\n').length;
    const column = pos - before.lastIndexOf('\n');
    return new PyJsonDecodeError(`${message}: line ${line} column ${column} (char ${pos})`);
  }
}
