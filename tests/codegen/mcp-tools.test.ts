/**
 * The MCP tools generated from the catalogue (generated/mcp-tools.json): well-formed JSON Schema
 * (ajv, strict mode), one query tool per domain naming exactly its resources, and describe_resource's
 * answer giving, for each, exactly its named filters with the filter's type (the detail tools/list
 * leaves out); personal-data fields listed per resource.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import tools from '@ops-data-gateway/gateway/generated/mcp-tools.json';
import { catalogue } from '../docs/docs-app';

const model = catalogue();
type Schema = { type?: string; enum?: string[]; properties?: Record<string, Schema>; items?: Schema };
const byName = new Map(tools.tools.map((t) => [t.name, t as unknown as { inputSchema: Schema; outputSchema: Schema }]));

describe('generated MCP tools', () => {
  it('are 15: four catalogue tools and one query tool per domain', () => {
    expect([...byName.keys()]).toEqual(['list_resources', 'describe_resource', 'aggregate', 'get_record', ...model.domains.map((d) => `query_${d.domain}`)]);
  });

  it.each([...byName.keys()])('%s has an input and an output schema that compile under strict ajv', (name) => {
    const ajv = new Ajv2020({ strict: true });
    addFormats(ajv);
    const tool = byName.get(name)!;
    expect(tool.inputSchema.type).toBe('object');
    expect(tool.outputSchema.type).toBe('object');
    expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
    expect(() => ajv.compile(tool.outputSchema)).not.toThrow();
  });

  it.each(model.domains.map((d) => [d.domain, d] as const))('query_%s names its resources; describe_resource gives exactly their filters, typed', (domain, d) => {
    const input = byName.get(`query_${domain}`)!.inputSchema;
    expect(input.properties?.['resource']?.enum).toEqual(d.resources.map((r) => r.name));
    const described = tools.resources as Record<string, { filters: { name: string; type: string; values?: string[] }[] }>;
    for (const resource of d.resources) {
      const filters = described[resource.path]?.filters ?? [];
      expect(filters.map((f) => f.name)).toEqual(resource.filters.map((f) => f.name));
      for (const filter of resource.filters) {
        const entry = filters.find((f) => f.name === filter.name);
        expect([filter.name, entry?.type]).toEqual([filter.name, filter.type]);
        if (filter.type === 'enum') expect(entry?.values).toEqual(filter.values);
      }
    }
  });

  it('flags the personal-data fields of each resource as the catalogue does', () => {
    for (const resource of model.domains.flatMap((d) => d.resources)) {
      const entry = (tools.resources as Record<string, { personal_fields: string[] }>)[resource.path];
      expect([resource.path, entry?.personal_fields]).toEqual([resource.path, resource.fields.filter((f) => f.personal).map((f) => f.name)]);
    }
  });
});
