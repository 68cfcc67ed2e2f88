/**
 * @module The generator's pipeline: load → validate → model → emit. Returns the files to write;
 * throws `CatalogueErrors` with every located problem when the catalogue is wrong.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CatalogueErrors } from './catalogue-error';
import { emitDomainResources } from './emit/resources';
import { emitDomainRouter, emitRouterIndex } from './emit/routers';
import { emitDomainTypes } from './emit/types';
import { openApiDocument } from './emit/openapi/document';
import { emitDocsAssets } from './emit/docs-assets';
import { DOCS_CSP, emitDocsPage } from './emit/docs-page';
import { emitLlmsTxt } from './emit/llms';
import { mcpTools } from './emit/mcp-tools';
import { stableJson, type GeneratedFiles } from './emit/output';
import { loadApiVersion } from './load/load-api-version';
import { loadCatalogue } from './load/load-catalogue';
import { buildModel } from './model/build-model';
import type { CatalogueModel, DomainModel } from './model/catalogue-model';
import { validateCatalogue } from './validate/validate-catalogue';

export interface GenerateOptions {
  /** Folder of the catalogue files (and of `catalogue.schema.json`, unless `schemaFile` names it). */
  readonly catalogueDir: string;
  /** Project root, for the paths shown in messages and banners. */
  readonly root: string;
  /** The catalogue's JSON Schema, when it is not in `catalogueDir` (a fixture catalogue is checked against the project's). */
  readonly schemaFile?: string;
}

/** Loads and validates the catalogue; throws `CatalogueErrors` listing every problem. */
export function readCatalogue(options: GenerateOptions): CatalogueModel {
  const { files, errors } = loadCatalogue(options.catalogueDir, options.root);
  const schema = JSON.parse(readFileSync(options.schemaFile ?? join(options.catalogueDir, 'catalogue.schema.json'), 'utf8')) as object;
  const api = loadApiVersion(options.catalogueDir, options.root);
  const problems = [...(api.errors ?? []), ...errors, ...(errors.length ? [] : validateCatalogue(files, schema))];
  if (problems.length || api.version === undefined) throw new CatalogueErrors(problems);
  return buildModel(files, api.version);
}

/**
 * What the per-domain emitters printed, by domain model: a generator that runs again and again (the dev
 * loop, `make dev`) passes the same cache to each run, and only the domains whose model changed are
 * printed again (printing TypeScript through the compiler's formatter is most of a run).
 */
export class EmitCache {
  private entries = new Map<string, string>();
  private used = new Set<string>();

  /** The text of `file` (a path in generated/) for `domain`, printed by `emitter` unless printed before for the same model. */
  emit(file: string, domain: DomainModel, emitter: (domain: DomainModel) => string): string {
    const key = `${file}:${JSON.stringify(domain)}`;
    this.used.add(key);
    let text = this.entries.get(key);
    if (text === undefined) {
      text = emitter(domain);
      this.entries.set(key, text);
    }
    return text;
  }

  /** Forgets what the run just ended did not use (domains edited or removed since). */
  prune(): void {
    for (const key of this.entries.keys()) if (!this.used.has(key)) this.entries.delete(key);
    this.used.clear();
  }
}

/** The files written per domain, by folder of generated/. */
const DOMAIN_EMITTERS = [
  ['resources', emitDomainResources],
  ['routers', emitDomainRouter],
  ['types', emitDomainTypes],
] as const;

export function generate(options: GenerateOptions, cache: EmitCache = new EmitCache()): GeneratedFiles {
  const model = readCatalogue(options);
  const files: GeneratedFiles = new Map();
  for (const domain of model.domains) {
    for (const [folder, emitter] of DOMAIN_EMITTERS) {
      const file = `${folder}/${domain.domain}.ts`;
      files.set(file, cache.emit(file, domain, emitter));
    }
  }
  cache.prune();
  files.set('routers/index.ts', emitRouterIndex(model));
  files.set('openapi.json', stableJson(openApiDocument(model)));
  files.set('mcp-tools.json', stableJson(mcpTools(model)));
  const llms = emitLlmsTxt(model);
  const html = emitDocsPage(model);
  files.set('docs-assets.ts', emitDocsAssets({ html, llms, csp: DOCS_CSP }));
  return files;
}
