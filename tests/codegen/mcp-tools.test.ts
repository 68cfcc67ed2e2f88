/**
 * The MCP tools generated from the catalogue (generated/mcp-tools.json): well-formed JSON Schema
 * (ajv, strict mode), one query tool per domain naming exactly its resources and, for each, exactly
 * its named filters with the filter's type; personal-data fields listed per resource.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import tools from '@ops-data-gateway/gateway/generated/mcp-tools.json';
import { catalogue } from '../docs/docs-app';

const model = catalogue();
type Schema = { type?: string; enum?: string[]; title?: string; properties?: Record<string, Schema>; anyOf?: Schema[]; items?: Schema };
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

  it.each(model.domains.map((d) => [d.domain, d] as const))('query_%s names its resources and exactly their filters, typed', (domain, d) => {
    const input = byName.get(`query_${domain}`)!.inputSchema;
    expect(input.properties?.['resource']?.enum).toEqual(d.resources.map((r) => r.name));
    const branches = input.properties?.['filters']?.anyOf ?? [];
    for (const resource of d.resources) {
      const branch = branches.find((b) => b.title === resource.name);
      if (!resource.filters.length) {
        expect(branch).toBeUndefined();
        continue;
      }
      expect(Object.keys(branch?.properties ?? {})).toEqual(resource.filters.map((f) => f.name));
      for (const filter of resource.filters) {
        const schema = branch?.properties?.[filter.name] as Schema;
        const expected = { integer: 'integer', number: 'number', boolean: 'boolean', 'integer-list': 'array' }[filter.type as string] ?? 'string';
        expect([filter.name, schema.type]).toEqual([filter.name, expected]);
        if (filter.type === 'enum') expect(schema.enum).toEqual(filter.values);
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
