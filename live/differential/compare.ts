/**
 * @module Comparing what the live ERP and the sandbox answered to the same call. Only what must
 * differ is normalised before (see answer.ts: traceback frames); everything else that differs is
 * a mismatch, classified as shape (keys), encoding (a value of another JSON type: `false` vs `0`),
 * ordering (same items, other order), error (status, code, class, message) or value.
 *
 * Records are matched by `id` so that one wrong field is one mismatch, not a cascade. Orders that
 * the order string does not decide are compared as sets within each run of equal keys (`tieKey`).
 */
import type { Answer } from './answer';

export type DifferenceKind = 'shape' | 'encoding' | 'ordering' | 'error' | 'value';

export interface Mismatch {
  readonly kind: DifferenceKind;
  /** Where in the answer: `[id=3].name`, `code`, `` for the whole answer. */
  readonly path: string;
  readonly live: unknown;
  readonly sandbox: unknown;
}

export interface CompareOptions {
  /**
   * Order key of an item of the top-level result list (a record or an id): items with equal keys
   * may come in any order (PostgreSQL's tie order is unspecified). Absent: the order is total.
   */
  readonly tieKey?: (item: unknown) => string;
}

export function compareAnswers(live: Answer, sandbox: Answer, options: CompareOptions = {}): Mismatch[] {
  const out: Mismatch[] = [];
  if (live.kind !== sandbox.kind) {
    out.push({ kind: 'error', path: '', live: summary(live), sandbox: summary(sandbox) });
    return out;
  }
  if (live.kind === 'result' && sandbox.kind === 'result') {
    if (live.status !== sandbox.status) out.push({ kind: 'error', path: 'status', live: live.status, sandbox: sandbox.status });
    if (Boolean(live.absent) !== Boolean(sandbox.absent)) {
      out.push({ kind: 'shape', path: 'result', live: live.absent ? '(no result member)' : 'result', sandbox: sandbox.absent ? '(no result member)' : 'result' });
    }
    compareValues(live.value, sandbox.value, '', out, options.tieKey);
    return out;
  }
  const a = live as Record<string, unknown>;
  const b = sandbox as Record<string, unknown>;
  for (const key of ['status', 'code', 'title', 'name', 'contentType', 'accept', 'wwwAuthenticate', 'message', 'text']) {
    if (!sameJson(a[key], b[key])) out.push({ kind: 'error', path: key, live: a[key], sandbox: b[key] });
  }
  // Arguments repeat the message for most exceptions; compare them only when the messages agree.
  if (!out.some((m) => m.path === 'message') && !sameJson(a['arguments'], b['arguments'])) {
    out.push({ kind: 'error', path: 'arguments', live: a['arguments'], sandbox: b['arguments'] });
  }
  return out;
}

function summary(answer: Answer): unknown {
  switch (answer.kind) {
    case 'result':
      return { result: answer.value };
    case 'error':
      return { status: answer.status, code: answer.code, name: answer.name, message: answer.message };
    case 'http':
      return { status: answer.status, contentType: answer.contentType, text: answer.text };
  }
}

type JsonKind = 'false' | 'true' | 'null' | 'number' | 'string' | 'array' | 'object';

function jsonKind(value: unknown): JsonKind {
  if (value === false) return 'false';
  if (value === true) return 'true';
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'string') return 'string';
  return Array.isArray(value) ? 'array' : 'object';
}

function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/** JSON with sorted object keys: equal values give equal text. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function sameNumber(a: number, b: number): boolean {
  return a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

function compareValues(a: unknown, b: unknown, path: string, out: Mismatch[], tieKey?: (item: unknown) => string): void {
  const ka = jsonKind(a);
  const kb = jsonKind(b);
  const booleans = (k: JsonKind) => k === 'true' || k === 'false';
  if (ka !== kb) {
    out.push({ kind: booleans(ka) && booleans(kb) ? 'value' : 'encoding', path, live: a, sandbox: b });
    return;
  }
  if (ka === 'number') {
    if (!sameNumber(a as number, b as number)) out.push({ kind: 'value', path, live: a, sandbox: b });
    // 3 and 3.0 are one JSON number; XML-RPC's int/double is told apart by the codec (integers).
    else if (Number.isInteger(a) !== Number.isInteger(b)) out.push({ kind: 'encoding', path, live: a, sandbox: b });
    return;
  }
  if (ka === 'string') {
    if (a !== b) out.push({ kind: 'value', path, live: a, sandbox: b });
    return;
  }
  if (ka === 'object') {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    const onlyLive = Object.keys(ao).filter((k) => !(k in bo));
    const onlySandbox = Object.keys(bo).filter((k) => !(k in ao));
    if (onlyLive.length || onlySandbox.length) out.push({ kind: 'shape', path: path || '(object)', live: onlyLive, sandbox: onlySandbox });
    for (const key of Object.keys(ao)) if (key in bo) compareValues(ao[key], bo[key], `${path}${path ? '.' : ''}${key}`, out);
    return;
  }
  if (ka === 'array') compareArrays(a as unknown[], b as unknown[], path, out, tieKey);
}

function recordId(item: unknown): number | undefined {
  if (item && typeof item === 'object' && !Array.isArray(item)) {
    const id = (item as Record<string, unknown>)['id'];
    return typeof id === 'number' ? id : undefined;
  }
  return undefined;
}

function compareArrays(a: unknown[], b: unknown[], path: string, out: Mismatch[], tieKey?: (item: unknown) => string): void {
  const records = a.length > 0 && b.length > 0 && [...a, ...b].every((x) => recordId(x) !== undefined);
  const ids = [...a, ...b].every((x) => typeof x === 'number') && (a.length > 0 || b.length > 0);
  if (records || ids) {
    const keyOf = (x: unknown) => (records ? recordId(x)! : (x as number));
    const inB = new Map(b.map((x) => [keyOf(x), x]));
    const inA = new Map(a.map((x) => [keyOf(x), x]));
    const missing = [...inA.keys()].filter((k) => !inB.has(k));
    const extra = [...inB.keys()].filter((k) => !inA.has(k));
    // A limit or offset that cuts through a run of equal order keys may keep different members of
    // it on each side, both right: the same sequence of keys is the same answer.
    const sameKeys = tieKey !== undefined && a.length === b.length && a.every((x, i) => tieKey(x) === tieKey(b[i]));
    if ((missing.length || extra.length) && !sameKeys) {
      out.push({
        kind: 'value',
        path: `${path || '(list)'}${records ? ' ids' : ''}`,
        live: `${a.length} items; only here: ${shortList(missing)}`,
        sandbox: `${b.length} items; only here: ${shortList(extra)}`,
      });
    }
    if (records) for (const [k, x] of inA) if (inB.has(k)) compareValues(x, inB.get(k), `${path}[id=${k}]`, out);
    const commonA = a.filter((x) => inB.has(keyOf(x)));
    const commonB = b.filter((x) => inA.has(keyOf(x)));
    if (a.length === b.length && !missing.length && !sameOrder(commonA, commonB, keyOf, tieKey)) {
      out.push({ kind: 'ordering', path: path || '(list)', live: commonA.map(keyOf), sandbox: commonB.map(keyOf) });
    }
    return;
  }
  if (a.length !== b.length) {
    out.push({ kind: a.length === 0 || b.length === 0 ? 'value' : 'value', path: `${path || '(list)'} length`, live: a, sandbox: b });
    return;
  }
  const before = out.length;
  const local: Mismatch[] = [];
  for (const [i, x] of a.entries()) compareValues(x, b[i], `${path}[${i}]`, local);
  if (local.length && sameJson([...a].map(canonical).sort(), [...b].map(canonical).sort())) {
    out.push({ kind: 'ordering', path: path || '(list)', live: a, sandbox: b });
  } else {
    out.splice(before, 0, ...local);
  }
}

function shortList(items: readonly number[]): string {
  return items.length > 8 ? `${items.slice(0, 8).join(', ')}, … (${items.length})` : items.join(', ') || '-';
}

/** Same sequence, or the same runs of equal order keys with the same members each. */
function sameOrder(a: unknown[], b: unknown[], keyOf: (x: unknown) => number, tieKey?: (item: unknown) => string): boolean {
  if (a.length !== b.length) return false;
  if (a.every((x, i) => keyOf(x) === keyOf(b[i]))) return true;
  if (!tieKey) return false;
  let i = 0;
  while (i < a.length) {
    const key = tieKey(a[i]);
    let j = i;
    while (j < a.length && tieKey(a[j]) === key) j++;
    const runA = new Set(a.slice(i, j).map(keyOf));
    const runB = b.slice(i, j);
    if (runB.some((x) => !runA.has(keyOf(x)) || tieKey(x) !== key)) return false;
    i = j;
  }
  return true;
}
