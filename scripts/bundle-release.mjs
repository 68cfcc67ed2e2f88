// The production gateway as one committed file, packages/gateway/release/gateway.js: what lets a plain
// clone run on the server with `npm ci --omit=dev` and `npm start -w @ops-data-gateway/gateway`, no
// compiler there. esbuild bundles the gateway package's runtime/ and generated/ (and the wire codec, a
// workspace package whose compiled dist/ a clone does not have) into CommonJS for Node 22.12+; the
// production dependencies stay outside the bundle, installed by npm from packages/gateway/package.json,
// so `npm ls --omit=dev` in packages/gateway is still the truth about what runs.
// The output is deterministic (same sources, same esbuild: same bytes); a test rebuilds it and fails
// when the committed file is stale, as `make check-generated` does for generated/.
//
// The stdio MCP entry for local agents (runtime/mcp/stdio.ts, `npm run mcp`) is bundled the same way
// into release/mcp-stdio.js, so that it too runs from a plain clone.
//
// Usage: node scripts/bundle-release.mjs [outdir]   (default packages/gateway/release/: gateway.js and mcp-stdio.js)
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const gateway = join(root, 'packages', 'gateway');
const outdir = process.argv[2] ?? join(gateway, 'release');
const manifest = JSON.parse(readFileSync(join(gateway, 'package.json'), 'utf8'));
const codec = '@ops-data-gateway/codec';
const external = Object.keys(manifest.dependencies).filter((name) => name !== codec);
const { engines } = manifest;

const bundle = (entryPoint, outfile, what) =>
  build({
    absWorkingDir: gateway,
    entryPoints: [entryPoint],
    outfile: join(outdir, outfile),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${engines.node.replace(/^>=/, '')}`,
    external,
    alias: { [codec]: '../codec/src/xmlrpc-codec.ts' },
    tsconfig: 'tsconfig.json',
    legalComments: 'none',
    logLevel: 'warning',
    banner: {
      js: `// release/${outfile}: built by \`make release\` (scripts/bundle-release.mjs) from ${what}. Do not edit.`,
    },
  });

await bundle('runtime/main.ts', 'gateway.js', 'runtime/ and generated/');
await bundle('runtime/mcp/stdio.ts', 'mcp-stdio.js', 'runtime/mcp/stdio.ts');
