// `make run` and `make dev`: bundles their launcher (tools/run-demo.ts, with the generator and the
// sandbox it runs in-process; and tools/dev/dev-worker.ts, the process a gateway runs in) with esbuild
// into dist/run/, in well under a second, instead
// of compiling the whole project with tsc first (about a minute on a fresh clone): a run needs no type
// check, and `make test`, `make typecheck` and CI do that. The dependencies stay in node_modules; the
// workspace packages are read from their sources.
//
// Usage: node scripts/bundle-tools.mjs
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

await build({
  absWorkingDir: root,
  entryPoints: ['tools/run-demo.ts', 'tools/dev/dev-worker.ts'],
  outdir: 'dist/run',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node24',
  packages: 'external',
  alias: {
    '@ops-data-gateway/sandbox': './packages/sandbox/src',
    '@ops-data-gateway/gateway': './packages/gateway',
    '@ops-data-gateway/codec': './packages/codec/src/xmlrpc-codec.ts',
  },
  tsconfig: 'tsconfig.json',
  sourcemap: 'inline',
  logLevel: 'warning',
  banner: { js: '// dist/run/: built by scripts/bundle-tools.mjs from tools/run-demo.ts and tools/dev/dev-worker.ts. Do not edit.' },
});
