/**
 * The gateway as the documentation tests see it: no ERP behind it (the documentation routes never
 * call one; `ERP_URL` names a loopback port nothing listens on) and a public base URL with a path,
 * so that the `{base_url}` substitution is visible.
 */
import type { Express } from 'express';
import { join } from 'node:path';
import { readCatalogue } from '../../codegen/generate';
import type { CatalogueModel, ResourceModel } from '../../codegen/model/catalogue-model';
import { createApp } from '@ops-data-gateway/gateway/runtime/app';
import { loadConfig } from '@ops-data-gateway/gateway/runtime/config';
import { createLogger } from '@ops-data-gateway/gateway/runtime/log';

export const ROOT = join(__dirname, '..', '..');
export const PUBLIC_BASE_URL = 'https://ops.example.test/gateway';
export const DOC_PATHS = ['/api/docs', '/api/openapi.json', '/api/llms.txt', '/llms.txt'] as const;

export function createDocsApp(): Express {
  const config = loadConfig({ ERP_URL: 'http://127.0.0.1:9', ERP_DATABASE: 'unused', PUBLIC_BASE_URL, LOG_LEVEL: 'silent' });
  return createApp(config, { logger: createLogger('silent') }).app;
}

/** The catalogue read the way the generator reads it: the tests' only list of routes and parameters. */
export function catalogue(): CatalogueModel {
  return readCatalogue({ catalogueDir: join(ROOT, 'catalogue'), root: ROOT });
}

/** The text of every inline `<script>` or `<style>` element of a page, in order. */
export function inlineBlocks(html: string, tag: 'script' | 'style'): string[] {
  return [...html.matchAll(new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1] as string);
}

/**
 * The fields llms.txt says on their name's line rather than on their own (`- driver: ... Id: driver_id.`):
 * the integer id (or ids) of a relation whose name a field of the resource also gives. The first such
 * id of a name is folded into it; the test's own reading of the rule, not the emitter's.
 */
export function idsOnNameLines(resource: ResourceModel): Set<string> {
  const relation = (field: ResourceModel['fields'][number]): string | undefined => {
    const { source } = field;
    if (source.kind === 'many2one' || source.kind === 'x2many') return `${source.kind}:${source.erp}`;
    if (source.kind === 'related') return `related:${source.erp}.${source.comodelField}`;
    return undefined;
  };
  const isId = (field: ResourceModel['fields'][number]) => field.type === 'integer' || field.items === 'integer';
  const named = new Set<string>();
  const folded = new Set<string>();
  for (const field of resource.fields) {
    const key = relation(field);
    if (!key || !isId(field) || named.has(key)) continue;
    if (resource.fields.some((other) => other !== field && !isId(other) && relation(other) === key)) {
      folded.add(field.name);
      named.add(key);
    }
  }
  return folded;
}
