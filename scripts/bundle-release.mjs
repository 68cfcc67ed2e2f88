// The production gateway as one committed file, release/gateway.js: what lets a plain clone run on
// the server with `npm ci --omit=dev` and `node release/gateway.js`, no compiler there. esbuild
// bundles runtime/ and generated/ (and the wire codec, a workspace package whose compiled dist/ a clone
// does not have) into CommonJS for Node 22.12+; the production dependencies stay outside the bundle,
// installed by npm from package.json, so `npm ls --omit=dev` is still the truth about what runs.
// The output is deterministic (same sources, same esbuild: same bytes); a test rebuilds it and fails
// when the committed file is stale, as `make check-generated` does for generated/.
//
// Usage: node scripts/bundle-release.mjs [outfile]   (default release/gateway.js)
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = process.argv[2] ?? join(root, 'release', 'gateway.js');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const codec = '@ops-data-gateway/codec';
const external = Object.keys(manifest.dependencies).filter((name) => name !== codec);
const { engines } = manifest;

await build({
  absWorkingDir: root,
  entryPoints: ['runtime/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: `node${engines.node.replace(/^>=/, '')}`,
  external,
  alias: { [codec]: './packages/codec/src/xmlrpc-codec.ts' },
  tsconfig: 'tsconfig.build.json',
  legalComments: 'none',
  logLevel: 'warning',
  banner: {
    js: '// release/gateway.js: built by `make release` (scripts/bundle-release.mjs) from runtime/ and generated/. Do not edit.',
  },
});
