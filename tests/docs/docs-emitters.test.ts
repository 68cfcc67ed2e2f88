/**
 * The two documentation emitters on a catalogue whose texts try to break out of their markup: every
 * catalogue text is HTML-escaped on the page, and llms.txt keeps one line per field.
 */
import { emitDocsPage } from '../../codegen/emit/docs-page';
import { emitLlmsTxt } from '../../codegen/emit/llms';
import type { CatalogueModel } from '../../codegen/model/catalogue-model';
import { catalogue, idsOnNameLines } from './docs-app';

const HOSTILE = `<script>alert("x")</script> & 'quoted' <img src=x onerror=alert(1)>`;

/** The real catalogue with hostile text in a domain, a resource, a field and a filter description. */
function hostileCatalogue(): CatalogueModel {
  const model = catalogue();
  const [first, ...rest] = model.domains;
  if (!first) throw new Error('empty catalogue');
  const [resource, ...others] = first.resources;
  if (!resource) throw new Error('empty domain');
  const filters = resource.filters.map((f, i) => (i === 0 ? { ...f, description: HOSTILE } : f));
  const fields = resource.fields.map((f, i) => (i === 1 ? { ...f, description: HOSTILE } : f));
  const changed = { ...resource, title: HOSTILE, description: HOSTILE, fields, filters };
  return { version: model.version, domains: [{ ...first, title: HOSTILE, description: HOSTILE, resources: [changed, ...others] }, ...rest] };
}

describe(emitDocsPage.name, () => {
  it('HTML-escapes every catalogue text', () => {
    const html = emitDocsPage(hostileCatalogue());
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;');
    expect(html.match(/<script>/g)).toHaveLength(1);
  });

  it('refuses a domain whose anchor would collide with a guide section', () => {
    const model = catalogue();
    const [first, ...rest] = model.domains;
    expect(() => emitDocsPage({ version: model.version, domains: [{ ...first!, domain: 'errors' }, ...rest] })).toThrow(/collides/);
  });
});

describe(emitLlmsTxt.name, () => {
  it("has one line per field (an id beside its name on its name's line) and per filter of every resource", () => {
    const model = catalogue();
    const text = emitLlmsTxt(model);
    const resources = model.domains.flatMap((d) => d.resources);
    const listed = (heading: string) =>
      text
        .split(`\n${heading}\n`)
        .slice(1)
        .map((block) => block.split('\n').findIndex((line) => !line.startsWith('- ')))
        .reduce((n, count) => n + count, 0);
    expect(listed('Fields:')).toBe(resources.reduce((n, r) => n + r.fields.length - idsOnNameLines(r).size, 0));
    const folded = resources.reduce((n, r) => n + idsOnNameLines(r).size, 0);
    expect(folded).toBeGreaterThan(100);
    expect(text.match(/\. Ids?: \w+\./g)?.length).toBe(folded);
    expect(listed('Filters:')).toBe(resources.reduce((n, r) => n + r.filters.length, 0));
    expect(text.startsWith('# ')).toBe(true);
    expect(text.split('\n')[2]?.startsWith('> ')).toBe(true);
  });
});
