/**
 * @module What `make run` and `make dev` build before serving, and nothing else: the generated tree
 * from the catalogue (the generator run in-process, writing only the files whose text changed), then
 * the gateway bundled by esbuild with the release's own options (scripts/bundle-release.mjs) into
 * dist/run/. No tsc: a run needs no type check (`make typecheck`, `make test` and CI do it).
 *
 * Each step is skipped when its inputs are what they were at its last run (a hash of their text,
 * kept beside the bundle): a second `make run` with nothing changed starts the gateway at once.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuildContext, BuildOptions } from 'esbuild';
import { EmitCache, generate } from '../../codegen/generate';
import { writeGenerated } from '../../codegen/write';

export interface BuildPaths {
  /** The project's root (scripts/, codegen/, packages/). */
  readonly root: string;
  readonly catalogueDir: string;
  /** Where the generated tree is written: packages/gateway/generated/, or another (tests, benchmark). */
  readonly generatedDir: string;
  /** Where the gateway bundle goes (gateway.js) with its stamp. */
  readonly outDir: string;
}

export interface BuildReport {
  /** The bundle to run. */
  readonly bundle: string;
  /** The OpenAPI document before and after, when this build changed it (for the changelog). */
  readonly openapi?: { readonly before: string; readonly after: string };
  /** What each step took, in ms (absent when skipped). */
  readonly generateMs?: number;
  readonly bundleMs?: number;
}

type BundleOptions = (options: { outdir: string; generated?: string }) => { gateway: BuildOptions };

/** Files (under `dirs`, by extension) whose text decides a step's output. */
function hashOf(root: string, dirs: readonly string[], extensions: readonly string[]): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir).sort()) {
      if (name === 'node_modules' || name === 'dist') continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (extensions.some((ext) => name.endsWith(ext))) hash.update(relative(root, path)).update('\0').update(readFileSync(path)).update('\0');
    }
  };
  for (const dir of dirs) walk(dir);
  return hash.digest('hex');
}

export class GatewayBuilder {
  private readonly cache = new EmitCache();
  private context: BuildContext | undefined;
  private readonly stampFile: string;

  constructor(private readonly paths: BuildPaths) {
    this.stampFile = join(paths.outDir, '.inputs');
  }

  /** The generated tree and the bundle, each rebuilt only when its inputs changed; throws CatalogueErrors on a bad catalogue. */
  async build(): Promise<BuildReport> {
    const { root, catalogueDir, generatedDir, outDir } = this.paths;
    const stamp = existsSync(this.stampFile) ? (JSON.parse(readFileSync(this.stampFile, 'utf8')) as { generate?: string; bundle?: string }) : {};
    const report: { bundle: string; openapi?: { before: string; after: string }; generateMs?: number; bundleMs?: number } = { bundle: join(outDir, 'gateway.js') };

    // The generator's inputs: the catalogue, the generator itself and the documents it renders.
    const generateInputs = `${hashOf(root, [catalogueDir, join(root, 'codegen'), join(root, 'docs', 'guide')], ['.yaml', '.json', '.ts', '.md', '.css', '.js'])}:${relative(root, generatedDir)}`;
    if (stamp.generate !== generateInputs || !existsSync(join(generatedDir, 'openapi.json'))) {
      const started = performance.now();
      const openapiFile = join(generatedDir, 'openapi.json');
      const before = existsSync(openapiFile) ? readFileSync(openapiFile, 'utf8') : undefined;
      const files = generate({ catalogueDir, root, schemaFile: join(root, 'catalogue', 'catalogue.schema.json') }, this.cache);
      writeGenerated(generatedDir, files, false);
      const after = files.get('openapi.json');
      if (before !== undefined && after !== undefined && before !== after) report.openapi = { before, after };
      report.generateMs = performance.now() - started;
      stamp.generate = generateInputs;
    }

    // The bundle's inputs: the runtime, the generated tree, the codec.
    const bundleInputs = hashOf(
      root,
      [join(root, 'packages', 'gateway', 'runtime'), generatedDir, join(root, 'packages', 'codec', 'src')],
      ['.ts', '.json', '.html', '.txt', '.css', '.js'],
    );
    if (stamp.bundle !== bundleInputs || !existsSync(report.bundle)) {
      const started = performance.now();
      await (await this.bundler()).rebuild();
      report.bundleMs = performance.now() - started;
      stamp.bundle = bundleInputs;
    }
    mkdirSync(outDir, { recursive: true });
    writeFileSync(this.stampFile, JSON.stringify(stamp));
    return report;
  }

  /**
   * Runs each step once without writing anything new, so that the first save of `make dev` finds the
   * generator's per-domain cache filled, its modules compiled by V8 and esbuild's incremental context
   * built: that save then costs what later ones do. The bundle is rewritten with the same text.
   */
  async warm(): Promise<void> {
    const { root, catalogueDir } = this.paths;
    try {
      generate({ catalogueDir, root, schemaFile: join(root, 'catalogue', 'catalogue.schema.json') }, this.cache);
      await (await this.bundler()).rebuild();
    } catch {
      // A catalogue broken since the last build: the next save reports it.
    }
  }

  private async bundler(): Promise<BuildContext> {
    if (!this.context) {
      const { root, generatedDir, outDir } = this.paths;
      const { gatewayBundleOptions } = (await import(pathToFileURL(join(root, 'scripts', 'bundle-release.mjs')).href)) as { gatewayBundleOptions: BundleOptions };
      const own = resolve(root, 'packages', 'gateway', 'generated');
      const options = gatewayBundleOptions({ outdir: outDir, ...(resolve(generatedDir) === own ? {} : { generated: generatedDir }) }).gateway;
      const { context } = await import('esbuild');
      this.context = await context({ ...options, logLevel: 'silent' });
    }
    return this.context;
  }

  async dispose(): Promise<void> {
    await this.context?.dispose();
  }
}
