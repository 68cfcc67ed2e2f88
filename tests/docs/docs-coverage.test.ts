/**
 * Every data route, field and parameter of the catalogue (read as the generator reads it, never a
 * hand list) appears in the three served documents: OpenAPI paths and parameters, the HTML page's
 * resource cards (by their anchors) and llms.txt's route sections.
 */
import request from 'supertest';
import { COMMON_LIST_PARAMETERS, EXPORT_PARAMETERS, type ResourceModel } from '../../codegen/model/catalogue-model';
import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import { catalogue, createDocsApp } from './docs-app';

interface Parameter {
  name?: string;
  in?: string;
  $ref?: string;
}
interface OpenApi {
  paths: Record<string, { get: { parameters: Parameter[] } }>;
  components: { parameters: Record<string, Parameter> };
}

const model = catalogue();
const resources = model.domains.flatMap((d) => d.resources);
const docs: { openapi: OpenApi; html: string; llms: string } = { openapi: { paths: {}, components: { parameters: {} } }, html: '', llms: '' };

beforeAll(async () => {
  const app = createDocsApp();
  docs.openapi = (await request(app).get('/api/openapi.json')).body as OpenApi;
  docs.html = (await request(app).get('/api/docs')).text;
  docs.llms = (await request(app).get('/api/llms.txt')).text;
});

function parameterNames(path: string): string[] {
  const operation = docs.openapi.paths[path]?.get;
  if (!operation) throw new Error(`${path} is not in openapi.json`);
  return operation.parameters.map((p) => (p.$ref ? docs.openapi.components.parameters[p.$ref.split('/').pop() as string]?.name : p.name) as string);
}

/** The HTML of a resource's card, found by its anchor. */
function card(resource: ResourceModel): string {
  const start = docs.html.indexOf(`<article class="res" id="${resource.path}">`);
  if (start < 0) throw new Error(`no card with anchor #${resource.path}`);
  return docs.html.slice(start, docs.html.indexOf('</article>', start));
}

/** The llms.txt section of a resource, from its heading to the next one. */
function section(resource: ResourceModel): string {
  const start = docs.llms.indexOf(`\n### ${resource.path}: `);
  if (start < 0) throw new Error(`no llms.txt section for ${resource.path}`);
  const end = docs.llms.indexOf('\n#', start + 1);
  return docs.llms.slice(start, end < 0 ? undefined : end);
}

describe('the documents cover the catalogue', () => {
  it('has the resources the gateway serves to check, in every domain', () => {
    expect(resources.length).toBeGreaterThan(0);
    expect(resources.map((r) => r.path)).toEqual(RESOURCES.map((r) => r.path));
    for (const domain of model.domains) expect(domain.resources.length).toBeGreaterThan(0);
  });

  it('lists exactly the catalogue routes in openapi.json, each with its parameters', () => {
    const expected = resources.flatMap((r) => [`/api/v1/${r.path}`, `/api/v1/${r.path}/export`, ...(r.aggregate ? [`/api/v1/${r.path}/aggregate`] : []), `/api/v1/${r.path}/{id}`]);
    expect(Object.keys(docs.openapi.paths).sort()).toEqual(expected.sort());
    for (const r of resources) {
      // Besides the query and path parameters, the If-None-Match header of a conditional GET.
      expect(parameterNames(`/api/v1/${r.path}`).sort()).toEqual([...COMMON_LIST_PARAMETERS, ...r.filters.map((f) => f.name), 'If-None-Match'].sort());
      expect(parameterNames(`/api/v1/${r.path}/export`).sort()).toEqual([...EXPORT_PARAMETERS, ...r.filters.map((f) => f.name)].sort());
      expect(parameterNames(`/api/v1/${r.path}/{id}`).sort()).toEqual(['If-None-Match', 'expand', 'fields', 'id']);
      if (r.aggregate)
        expect(parameterNames(`/api/v1/${r.path}/aggregate`).sort()).toEqual(
          ['group_by', 'measures', 'order', 'limit', 'offset', 'format', 'csv_formulas', ...r.filters.map((f) => f.name), 'If-None-Match'].sort(),
        );
    }
  });

  it.each(resources.map((r) => [r.path, r] as const))('documents %s on the HTML page', (_path, r) => {
    const html = card(r);
    expect(html).toContain(`<a href="#${r.path}">`);
    expect(docs.html).toContain(`<li><a href="#${r.path}">`);
    expect(html).toContain(`<code>GET /api/v1/${r.path}</code>`);
    expect(html).toContain(`<code>GET /api/v1/${r.path}/export</code>`);
    expect(html).toContain(`<code>GET /api/v1/${r.path}/{id}</code>`);
    for (const f of r.fields) expect(html).toContain(`<tr><td><code>${f.name}</code></td>`);
    for (const f of r.filters) expect(html).toContain(`<tr><td><code>${f.name}</code>`);
    for (const f of r.filters) for (const v of f.values ?? []) expect(html).toContain(`<code>${v}</code>`);
    expect(html).toContain(`/api/v1/${r.path}?`);
  });

  it.each(resources.map((r) => [r.path, r] as const))('documents %s in llms.txt', (_path, r) => {
    const text = section(r);
    // The list's path, then the routes after it as suffixes (export, detail).
    expect(text).toContain(`Routes: GET /api/v1/${r.path}, + /export, + /{id}.`);
    expect(text).toContain(`Default order: ${r.defaultOrderText}.`);
    // A related record's id beside its name is said on its name's line (`Id: driver_id.`).
    for (const f of r.fields) expect(text).toMatch(new RegExp(`\\n- ${f.name}: |\\. Ids?: ${f.name}\\.`));
    for (const f of r.filters) expect(text).toMatch(new RegExp(`\\n- ${f.name} ${f.op.replace(/[<>=]/g, '\\$&')} `));
    for (const f of r.filters) for (const v of f.values ?? []) expect(text).toContain(JSON.stringify(v));
  });

  it('describes every common parameter on the page and in llms.txt', () => {
    for (const name of new Set([...COMMON_LIST_PARAMETERS, ...EXPORT_PARAMETERS])) {
      expect(docs.html).toContain(`<code>${name}</code>`);
      expect(docs.llms).toMatch(new RegExp(`\\n- ${name}: `));
    }
  });

  it('marks personal data in all three documents', () => {
    const personal = resources.flatMap((r) => r.fields.filter((f) => f.personal).map((f) => ({ r, f })));
    expect(personal.length).toBeGreaterThan(0);
    const schemas = (docs.openapi as unknown as { components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> } }).components.schemas;
    for (const { r, f } of personal) {
      expect(card(r)).toMatch(new RegExp(`<code>${f.name}</code></td><td data-label="Type">[^\\n]*personal data`));
      expect(section(r)).toMatch(new RegExp(`\\n- ${f.name}: [^\\n]*\\[personal data\\]`));
      expect(Object.values(schemas).some((s) => s.properties?.[f.name]?.['x-personal-data'] === true)).toBe(true);
    }
  });
});
