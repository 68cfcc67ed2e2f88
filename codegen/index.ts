/**
 * @module Command line of the generator: `make generate` writes the gateway package's `generated/`
 * (packages/gateway/generated); `--check` compares and exits 1 listing stale files, without writing.
 */
import { join, resolve } from 'node:path';
import { CatalogueErrors } from './catalogue-error';
import { generate } from './generate';
import { writeGenerated } from './write';

/** Where the generated modules live: in the gateway package, beside the runtime that imports them. */
const GENERATED_DIR = join('packages', 'gateway', 'generated');

function main(argv: readonly string[]): number {
  const check = argv.includes('--check');
  const root = resolve(__dirname, '..', '..');
  const out = process.stdout;
  try {
    const files = generate({ catalogueDir: join(root, 'catalogue'), root });
    const report = writeGenerated(join(root, GENERATED_DIR), files, check);
    if (check) {
      if (report.stale.length) {
        process.stderr.write(`generated/ is stale (${report.stale.length} file(s)); run 'make generate':\n${report.stale.map((f) => `  ${f}\n`).join('')}`);
        return 1;
      }
      out.write(`generated/ is up to date (${files.size} files)\n`);
      return 0;
    }
    out.write(`generated/: ${files.size} files, ${report.written.length} written, ${report.removed.length} removed\n`);
    return 0;
  } catch (error) {
    if (error instanceof CatalogueErrors) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

process.exitCode = main(process.argv.slice(2));
