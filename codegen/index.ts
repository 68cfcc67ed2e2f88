/**
 * @module Command line of the generator: `make generate` writes the gateway package's `generated/`
 * (packages/gateway/generated) from `catalogue/`; `--check` compares and exits 1 listing stale
 * files, without writing. `--catalogue DIR --out DIR` generates another catalogue (checked against
 * the project's catalogue.schema.json): `make fixtures` writes the expected tree of each fixture
 * catalogue of the generator's golden tests (tests/fixtures/<case>/catalogue → <case>/generated).
 *
 * When the OpenAPI document it replaces differs from the new one, it says what changed in the API
 * (changes/api-changes.ts: the breaking-change gate's changelog, each change breaking or additive).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { CatalogueErrors } from './catalogue-error';
import { apiChangeLines } from './changes/api-changes';
import { generate } from './generate';
import { writeGenerated } from './write';

/** Where the generated modules live: in the gateway package, beside the runtime that imports them. */
const GENERATED_DIR = join('packages', 'gateway', 'generated');
const OPENAPI = 'openapi.json';

/** The value following `flag` in `argv`, resolved against `root`; `fallback` when absent. */
function pathArgument(argv: readonly string[], flag: string, root: string, fallback: string): string {
  const at = argv.indexOf(flag);
  if (at < 0) return join(root, fallback);
  const value = argv[at + 1];
  if (!value || value.startsWith('--')) throw new Error(`codegen: ${flag} needs a folder`);
  return resolve(root, value);
}

async function main(argv: readonly string[]): Promise<number> {
  const check = argv.includes('--check');
  const root = resolve(__dirname, '..', '..');
  const out = process.stdout;
  try {
    const catalogueDir = pathArgument(argv, '--catalogue', root, 'catalogue');
    const outDir = pathArgument(argv, '--out', root, GENERATED_DIR);
    const openapiFile = join(outDir, OPENAPI);
    const before = existsSync(openapiFile) ? readFileSync(openapiFile, 'utf8') : undefined;
    const files = generate({ catalogueDir, root, schemaFile: join(root, 'catalogue', 'catalogue.schema.json') });
    const report = writeGenerated(outDir, files, check);
    if (check) {
      if (report.stale.length) {
        process.stderr.write(
          `${relative(root, outDir)}/ is stale (${report.stale.length} file(s)); run 'make generate' (or 'make fixtures'):\n${report.stale.map((f) => `  ${f}\n`).join('')}`,
        );
        return 1;
      }
      out.write(`${relative(root, outDir)}/ is up to date (${files.size} files)\n`);
      return 0;
    }
    out.write(`${relative(root, outDir)}/: ${files.size} files, ${report.written.length} written, ${report.removed.length} removed\n`);
    const after = files.get(OPENAPI);
    if (before !== undefined && after !== undefined && before !== after) out.write(`${(await apiChangeLines(before, after)).join('\n')}\n`);
    return 0;
  } catch (error) {
    if (error instanceof CatalogueErrors) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
