/**
 * The README is a front door (issue 29, point 8): what the project is, the two commands, the first
 * requests and a map of the topic guides under docs/; each guide is linked from the README and named
 * on the docs page the gateway serves (its page-only "For operators" section), links back to the
 * README, and every relative link of the README and the guides leads to a file of the repository.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DOCS_PAGE_HTML, LLMS_TXT } from '@ops-data-gateway/gateway/generated/docs-assets';

const root = join(__dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
/** The topic guides: docs/*.md but the compatibility report, the contributor guide and the grouped reads' wire format. */
const GUIDES = [
  'catalogue.md',
  'production.md',
  'caching.md',
  'summaries.md',
  'exports-and-sync.md',
  'related-records.md',
  'exports-for-bi.md',
  'agents.md',
  'operating.md',
  'real-odoo.md',
  'development.md',
  'catalogue-changes.md',
];

/** The README's sections (`## ` headings). */
const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);

/** Relative link targets of a Markdown text, with their anchor when they have one. */
function relativeLinks(text: string): { path: string; anchor: string | undefined }[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((target) => !/^[a-z]+:|^#/.test(target))
    .map((target) => ({ path: target.split('#')[0] as string, anchor: target.split('#')[1] }));
}

/** The anchors GitHub gives a Markdown file's headings: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
function anchorsOf(text: string): Set<string> {
  return new Set(
    [...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
      (m[1] as string)
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

/** The README, the guides, and the other documents of docs/ that link into them. */
const LINKING = ['README.md', ...GUIDES.map((g) => join('docs', g)), join('docs', 'contributing.md'), join('docs', 'compatibility.md')];

describe('the README, a front door', () => {
  it('holds what the project is, the quick start (make run, make test, the first requests) and the map of guides, nothing else', () => {
    expect(sections).toEqual(['Quick start', 'Guides']);
    expect(readme).toMatch(/^# ops-data-gateway\n\nA read-only HTTP JSON API/);
    expect(readme).toContain('make run ');
    expect(readme).toContain('make test ');
    expect(readme).toMatch(/curl -s -H "Authorization: Bearer \$API_KEY" 'http:\/\/127\.0\.0\.1:8080\/api\/v1\//);
    expect(readme.split('\n').length).toBeLessThan(120);
  });

  it('links every topic guide, and the guides under docs/ are exactly those', () => {
    const map = readme.slice(readme.indexOf('\n## Guides\n'));
    for (const guide of GUIDES) expect([guide, map.includes(`](docs/${guide})`)]).toEqual([guide, true]);
    const present = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md') && !['compatibility.md', 'contributing.md', 'odoo-grouped-reads.md'].includes(name));
    expect(present.sort()).toEqual([...GUIDES].sort());
  });

  it.each(GUIDES)('%s: a title, a link back to the README, and sections', (guide) => {
    const text = readFileSync(join(root, 'docs', guide), 'utf8');
    expect(text).toMatch(/^# \S/);
    expect(text).toContain('](../README.md#guides)');
    expect(text).toMatch(/^## \S/m);
  });

  it('every relative link of the README and the guides leads to a file of the repository, and to a heading of it', () => {
    const broken: string[] = [];
    for (const file of LINKING) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const { path, anchor } of relativeLinks(text)) {
        const target = resolve(root, dirname(file), path);
        if (!existsSync(target)) broken.push(`${file} → ${path}`);
        else if (anchor !== undefined && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) broken.push(`${file} → ${path}#${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the docs page names every guide, in its "For operators" section; llms.txt, for agents, does not', () => {
    const section = /<section[^>]*id="operators"[\s\S]*?<\/section>/.exec(DOCS_PAGE_HTML)?.[0] ?? '';
    expect(section).toContain('For operators');
    for (const guide of GUIDES) expect([guide, section.includes(`<code>${guide}</code>`)]).toEqual([guide, true]);
    expect(LLMS_TXT).not.toContain('For operators');
  });
});
