/**
 * @module Writes generated files, or in check mode compares them with what is on disk. Only files
 * whose content changed are written; files that the generator no longer produces are removed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { GeneratedFiles } from './emit/output';

export interface WriteReport {
  readonly written: readonly string[];
  readonly removed: readonly string[];
  /** In check mode: files that differ, are missing or are extra. */
  readonly stale: readonly string[];
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

export function writeGenerated(outDir: string, files: GeneratedFiles, check: boolean): WriteReport {
  const written: string[] = [];
  const stale: string[] = [];
  for (const [path, content] of [...files.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const target = join(outDir, path);
    const current = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
    if (current === content) continue;
    if (check) {
      stale.push(path);
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
    written.push(path);
  }
  const removed: string[] = [];
  for (const file of listFiles(outDir)) {
    const path = relative(outDir, file).split('\\').join('/');
    if (files.has(path)) continue;
    if (check) stale.push(path);
    else {
      rmSync(file);
      removed.push(path);
    }
  }
  return { written, removed, stale };
}
