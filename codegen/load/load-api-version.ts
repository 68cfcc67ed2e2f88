/**
 * @module The API's version, kept by the catalogue in `api.yaml` (`version: MAJOR.MINOR.PATCH`): the
 * OpenAPI document's info.version, the docs page and llms.txt say it, and `make openapi-diff` lets a
 * breaking change through when its major number goes up.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import type { CatalogueError } from '../catalogue-error';
import { API_FILE } from './load-catalogue';

const SEMVER = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$/;

export type LoadedApiVersion = { readonly version: string; readonly errors?: undefined } | { readonly version?: undefined; readonly errors: readonly CatalogueError[] };

export function loadApiVersion(dir: string, root: string): LoadedApiVersion {
  const path = join(dir, API_FILE);
  const shown = relative(root, path) || API_FILE;
  if (!existsSync(path)) return { errors: [{ file: shown, line: 0, column: 0, message: "missing: the catalogue keeps the API's version there (version: 1.0.0)" }] };
  const lineCounter = new LineCounter();
  const document = parseDocument(readFileSync(path, 'utf8'), { lineCounter, uniqueKeys: true, prettyErrors: false });
  const at = (offset: number | undefined) => {
    const pos = lineCounter.linePos(offset ?? 0);
    return { line: pos.line, column: pos.col };
  };
  if (document.errors.length) return { errors: document.errors.map((e) => ({ file: shown, ...at(e.pos[0]), message: e.message.split('\n')[0] ?? e.message })) };
  const data = document.toJS() as unknown;
  const keys = data && typeof data === 'object' ? Object.keys(data) : [];
  const offsetOf = (key: string) => (document.getIn([key], true) as { range?: [number, number, number] } | undefined)?.range?.[0];
  const unknown = keys.find((key) => key !== 'version');
  if (unknown) {
    const pair = isMap(document.contents) ? document.contents.items.find((item) => isScalar(item.key) && item.key.value === unknown) : undefined;
    const keyOffset = isScalar(pair?.key) ? pair.key.range?.[0] : undefined;
    return { errors: [{ file: shown, ...at(keyOffset), key: unknown, message: `unknown key '${unknown}'`, allowed: 'version (the only key of this file)' }] };
  }
  const version = (data as { version?: unknown } | null)?.version;
  if (typeof version !== 'string' || !SEMVER.test(version)) {
    // As written: YAML reads `1.0` as the number 1.
    const node = document.getIn(['version'], true);
    const written = isScalar(node) && node.source !== undefined ? node.source : JSON.stringify(version ?? null);
    return { errors: [{ file: shown, ...at(offsetOf('version')), key: 'version', message: `${written} is not a semantic version`, allowed: 'MAJOR.MINOR.PATCH, such as 1.0.0' }] };
  }
  return { version };
}
