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
// `make run` and `make dev` run the gateway bundled by the same options (gatewayBundleOptions, imported
// by tools/dev/build-gateway.ts) into dist/: what they serve is built as production's is. `generated`
// bundles another generated/ tree in place of the package's (the dev loop's tests and benchmark
// generate into a folder of their own).
//
// Usage: node scripts/bundle-release.mjs [outdir] [--generated DIR]
//   (default packages/gateway/release/: gateway.js and mcp-stdio.js; DIR: another generated/ tree)
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const gateway = join(root, 'packages', 'gateway');
const codec = '@ops-data-gateway/codec';

/**
 * The esbuild options of the gateway's bundles: `gateway` (runtime/main.ts) and `mcpStdio`
 * (runtime/mcp/stdio.ts), written into `outdir`; `generated`, a generated/ tree read in place of
 * packages/gateway/generated/. Imported at run time by tools/dev/build-gateway.ts (by path, from its
 * bundle: knip cannot follow it).
 * @public
 */
export function gatewayBundleOptions({ outdir, generated }) {
  const manifest = JSON.parse(readFileSync(join(gateway, 'package.json'), 'utf8'));
  const external = Object.keys(manifest.dependencies).filter((name) => name !== codec);
  const options = (entryPoint, outfile, what) => ({
    absWorkingDir: gateway,
    entryPoints: [entryPoint],
    outfile: resolve(outdir, outfile),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${manifest.engines.node.replace(/^>=/, '')}`,
    external,
    alias: { [codec]: '../codec/src/xmlrpc-codec.ts' },
    tsconfig: 'tsconfig.json',
    legalComments: 'none',
    logLevel: 'warning',
    banner: {
      js: `// release/${outfile}: built by \`make release\` (scripts/bundle-release.mjs) from ${what}. Do not edit.`,
    },
    ...(generated ? { plugins: [generatedFrom(generated)] } : {}),
  });
  return {
    gateway: options('runtime/main.ts', 'gateway.js', 'runtime/ and generated/'),
    mcpStdio: options('runtime/mcp/stdio.ts', 'mcp-stdio.js', 'runtime/mcp/stdio.ts'),
  };
}

/**
 * Reads the modules of packages/gateway/generated/ from `dir` instead: an import that lands in the
 * package's generated/ is taken from `dir`, and the modules of `dir` import as if they were in the
 * package (their `../../runtime/...` and their dependencies resolve from there).
 */
function generatedFrom(dir) {
  const own = join(gateway, 'generated');
  const under = (path, folder) => path === folder || path.startsWith(folder + sep);
  const moved = (path, from, to) => (under(path, from) ? join(to, relative(from, path)) : path);
  const self = Symbol('generated-from');
  return {
    name: 'generated-from',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === self || args.kind === 'entry-point') return undefined;
        const resolveDir = moved(args.resolveDir, dir, own);
        const found = await pluginBuild.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir, pluginData: self });
        if (found.errors.length) {
          // A module that only the other tree has (a new domain's router): found beside its importer.
          const beside = await pluginBuild.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: self });
          return beside.errors.length ? { errors: found.errors } : { path: beside.path, external: beside.external, namespace: beside.namespace };
        }
        if (found.external || !under(found.path, own)) return { path: found.path, external: found.external, namespace: found.namespace };
        const path = moved(found.path, own, dir);
        if (!existsSync(path)) return { errors: [{ text: `${relative(dir, path)} is not in ${dir}` }] };
        return { path };
      });
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--generated');
  const generated = at >= 0 ? resolve(args.splice(at, 2)[1]) : undefined;
  const { gateway: gatewayBundle, mcpStdio } = gatewayBundleOptions({ outdir: args[0] ?? join(gateway, 'release'), generated });
  await build(gatewayBundle);
  await build(mcpStdio);
}
