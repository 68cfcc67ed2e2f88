/**
 * @module Reads `catalogue/*.yaml` into parsed documents that keep their source positions, so that
 * every later check can point at a file, line and column.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isNode, LineCounter, parseDocument, type Document } from 'yaml';
import type { CatalogueError } from '../catalogue-error';
import { findMisindentedLine } from './indentation';

export interface CatalogueFile {
  /** Path relative to the project root, as shown in messages. */
  readonly path: string;
  readonly document: Document.Parsed;
  readonly lineCounter: LineCounter;
  /** The plain data of the document. */
  readonly data: unknown;
}

export interface LoadedCatalogue {
  readonly files: readonly CatalogueFile[];
  readonly errors: readonly CatalogueError[];
}

/**
 * Files of the catalogue folder that are not domains: the API's version (read by the generator) and
 * the acknowledged breaking changes (read by `make openapi-diff`).
 */
export const API_FILE = 'api.yaml';
export const ACKNOWLEDGED_CHANGES_FILE = 'acknowledged-changes.yaml';
const NOT_DOMAINS: ReadonlySet<string> = new Set([API_FILE, ACKNOWLEDGED_CHANGES_FILE]);

/**
 * Each file's parse, by its path, kept while its text is unchanged: a generator run again and again
 * (`make dev`, on every save) parses only the file saved (parsing is most of loading). The plain data
 * is made afresh from the document on every load.
 */
const parses = new Map<string, { readonly text: string; readonly document: Document.Parsed; readonly lineCounter: LineCounter }>();

function parse(file: string, text: string): { document: Document.Parsed; lineCounter: LineCounter } {
  const kept = parses.get(file);
  if (kept?.text === text) return kept;
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  parses.set(file, { text, document, lineCounter });
  return { document, lineCounter };
}

/** Loads every domain file (`*.yaml` but the two above) of `dir`, sorted by name. */
export function loadCatalogue(dir: string, root: string): LoadedCatalogue {
  const names = readdirSync(dir)
    .filter((name) => name.endsWith('.yaml') && !NOT_DOMAINS.has(name))
    .sort();
  const files: CatalogueFile[] = [];
  const errors: CatalogueError[] = [];
  for (const name of names) {
    const path = relative(root, join(dir, name)) || name;
    const text = readFileSync(join(dir, name), 'utf8');
    const { document, lineCounter } = parse(join(dir, name), text);
    // A mis-indented key derails the parser, which then reports where it lost its way: name the line instead.
    const misindented = document.errors.length ? findMisindentedLine(text) : undefined;
    if (misindented) {
      const parser = document.errors[0]?.message.split('\n')[0] ?? '';
      errors.push({ file: path, line: misindented.line, column: misindented.column, message: `${misindented.message} (the YAML parser: ${parser})` });
      files.push({ path, document, lineCounter, data: document.toJS() });
      continue;
    }
    for (const problem of [...document.errors, ...document.warnings]) {
      const at = lineCounter.linePos(problem.pos[0]);
      errors.push({ file: path, line: at.line, column: at.col, message: describeProblem(problem.code, problem.message, text.slice(problem.pos[0], problem.pos[0] + 200)) });
    }
    files.push({ path, document, lineCounter, data: document.toJS() });
  }
  if (names.length === 0) errors.push({ file: relative(root, dir) || dir, line: 0, column: 0, message: 'no catalogue file (*.yaml) found' });
  return { files, errors };
}

/**
 * Position of the node at a data path (`['resources', 'vehicles', 'fields', 'plate']`), or of its
 * closest existing ancestor. With `key`, the position of the map key rather than of its value.
 */
export function locate(file: CatalogueFile, path: readonly (string | number)[], key = false): { line: number; column: number } {
  for (let depth = path.length; depth >= 0; depth--) {
    const prefix = path.slice(0, depth);
    const node = prefix.length === 0 ? file.document.contents : file.document.getIn(prefix, true);
    let offset: number | undefined;
    if (key && depth === path.length && depth > 0) offset = keyOffset(file, prefix);
    if (offset === undefined && isNode(node) && node.range) offset = node.range[0];
    if (offset !== undefined) {
      const at = file.lineCounter.linePos(offset);
      return { line: at.line, column: at.col };
    }
  }
  return { line: 1, column: 1 };
}

function keyOffset(file: CatalogueFile, path: readonly (string | number)[]): number | undefined {
  const parent = path.length === 1 ? file.document.contents : file.document.getIn(path.slice(0, -1), true);
  const last = path[path.length - 1];
  if (!parent || !('items' in (parent as object))) return undefined;
  for (const item of (parent as { items: unknown[] }).items) {
    const pair = item as { key?: { value?: unknown; range?: [number, number, number] } };
    if (pair.key && pair.key.value === last && pair.key.range) return pair.key.range[0];
  }
  return undefined;
}

/** The YAML library's first line, naming the key where it says only that one is repeated. */
function describeProblem(code: string, message: string, source: string): string {
  const first = message.split('\n')[0] ?? message;
  const key = source.split(/[:\n]/)[0]?.trim();
  if (code === 'DUPLICATE_KEY' && key) return `key '${key}' is defined twice in the same map (${first})`;
  return first;
}
