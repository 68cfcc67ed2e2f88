/**
 * @module `catalogue/acknowledged-changes.yaml`: breaking changes made on purpose without a major
 * version bump, each with the reason consumers can live with it. An entry's `change` is a changelog
 * line as `make openapi-diff` prints it (`[rule] GET /route: message`), where `*` stands for any
 * text (one entry for the same change on every route).
 */
import { isMap, isSeq, LineCounter, parseDocument } from 'yaml';

export interface Acknowledgement {
  readonly change: string;
  readonly reason: string;
  /** 1-based line of the entry, for messages. */
  readonly line: number;
  readonly matches: (line: string) => boolean;
}

export type ParsedAcknowledgements = { readonly ok: true; readonly entries: readonly Acknowledgement[] } | { readonly ok: false; readonly errors: readonly string[] };

export function parseAcknowledgements(text: string, file: string): ParsedAcknowledgements {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const lineOf = (offset: number | undefined) => lineCounter.linePos(offset ?? 0).line;
  if (document.errors.length) return { ok: false, errors: document.errors.map((e) => `${file}:${lineOf(e.pos[0])}: ${e.message.split('\n')[0]}`) };
  const root = document.contents;
  const list = isMap(root) ? root.get('acknowledged', true) : undefined;
  if (!isMap(root) || root.items.length !== 1 || !isSeq(list))
    return { ok: false, errors: [`${file}:1: expected one key, 'acknowledged', holding a list (acknowledged: [] when empty)`] };
  const entries: Acknowledgement[] = [];
  const errors: string[] = [];
  for (const item of list.items) {
    const line = lineOf(isMap(item) ? item.range?.[0] : undefined);
    const data = isMap(item) ? (item.toJSON() as Record<string, unknown>) : undefined;
    const unknown = data && Object.keys(data).find((key) => key !== 'change' && key !== 'reason');
    if (!data || unknown) {
      errors.push(`${file}:${line}: each entry is { change, reason }${unknown ? ` (unknown key '${unknown}')` : ''}`);
      continue;
    }
    const { change, reason } = data;
    if (typeof change !== 'string' || !change.trim()) errors.push(`${file}:${line}: 'change' must be a changelog line as make openapi-diff prints it`);
    else if (typeof reason !== 'string' || !reason.trim()) errors.push(`${file}:${line}: the acknowledgement of '${change}' needs a 'reason'`);
    else entries.push({ change, reason, line, matches: globMatcher(change) });
  }
  return errors.length ? { ok: false, errors } : { ok: true, entries };
}

/** `*` matches any text; everything else literally. */
function globMatcher(pattern: string): (line: string) => boolean {
  const regex = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`, 's');
  return (line) => regex.test(line);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
