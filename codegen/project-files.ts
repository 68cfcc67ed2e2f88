/**
 * @module Files of the project the generator reads besides the catalogue (the docs page's CSS and
 * script, the guide's Markdown), found from where the generator runs: codegen/ under jest, or
 * dist/codegen/ once compiled (`make generate`), which holds no copy of them.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'codegen', 'index.ts'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`codegen: no project root (a folder holding codegen/index.ts) above ${__dirname}`);
    dir = up;
  }
  return dir;
}

/** The path of a file of the project, from its root: `projectFile('docs', 'guide', 'intro.md')`. */
export function projectFile(...segments: readonly string[]): string {
  return join(projectRoot(), ...segments);
}
