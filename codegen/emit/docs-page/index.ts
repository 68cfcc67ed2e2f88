/**
 * @module The docs page served at `/api/docs`: one self-contained HTML page (inline style and
 * script, no external resource) from the catalogue and the guide. Its parts are files of their own:
 * `style.css` and `script.js` (linted and formatted by Biome like any source, inlined here and
 * allowed by their SHA-256 hashes in `DOCS_CSP`), the guide's Markdown (docs/guide, shared with
 * llms.txt) and the template below, where every catalogue text is escaped by the `html` tag.
 *
 * Anchors are stable: `#<domain>/<resource>` for a resource card (`#fleet/vehicles`), `#<domain>`
 * for a domain, and the guide sections' ids (`GUIDE_SECTIONS`).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { banner } from '../../banner';
import type { CatalogueModel } from '../../model/catalogue-model';
import { projectFile } from '../../project-files';
import { commonGuideValues, GUIDE_SECTIONS, guideSections, markdownText, type GuideSection } from '../guide/guide';
import { BASE_URL_PLACEHOLDER } from '../describe';
import { badge, code, domainSection, toc } from './cards';
import { type Html, html, htmlText, lines, trustedHtml } from './html';
import { markdownHtml } from './markdown';

const asset = (name: string): string => readFileSync(projectFile('codegen', 'emit', 'docs-page', name), 'utf8');

/** An inline block's text; `</` would end the element early, so it is refused rather than escaped. */
function inline(name: string, tag: 'script' | 'style'): string {
  const text = asset(name);
  if (text.includes(`</${tag}`)) throw new Error(`codegen/emit/docs-page/${name}: must not contain '</${tag}'`);
  return text;
}

const STYLE = inline('style.css', 'style');
const SCRIPT = inline('script.js', 'script');
const ICON = `data:image/svg+xml,${encodeURIComponent(asset('icon.svg').trim())}`;

const sha256 = (text: string): string => `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;

/** The Content-Security-Policy the page is served with: its own inline style and script, and requests to its own origin (the try-it panel). */
export const DOCS_CSP = `default-src 'none'; script-src '${sha256(SCRIPT)}'; style-src '${sha256(STYLE)}'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/** The page's notation for the guide's placeholders. */
function pageGuideValues(model: CatalogueModel): Readonly<Record<string, string>> {
  return {
    ...commonGuideValues(model),
    domains: model.domains.map((d) => `[${markdownText(d.title)}](#${d.domain})`).join(', '),
    date_type: '`string (date)`',
    date_time_type: '`string (date-time)`',
    names_type: '`array of string`',
    ids_type: '`array of integer`',
    enum_type: '“one of …” in the tables',
    // Badges are markup: their placeholders go through Markdown as text and are replaced after.
    nullable: '{{badge_nullable}}',
    personal: '{{badge_personal}}',
    deprecated: '{{badge_deprecated}}',
  };
}

const BADGES: Readonly<Record<string, Html>> = {
  '{{badge_nullable}}': badge('nullable'),
  '{{badge_personal}}': badge('personal data', 'pd'),
  '{{badge_deprecated}}': badge('deprecated', 'dep'),
};

/** What the page adds to a guide section: the search hint, and the try-it form. */
function pageOnly(section: GuideSection, sample: string): Html | undefined {
  if (section.id === 'intro')
    return html`<p>Type in the search box (or press ${code('/')}) to narrow the routes, fields, filters, parameters and guide sections below, or try a request in <a href="#try">Try it</a>.</p>`;
  if (section.id === 'try')
    return html`<div class="try-form">
<label for="try-key">API key</label><input id="try-key" type="password" autocomplete="off" spellcheck="false" placeholder="your API key">
<label for="try-path">Route</label><input id="try-path" type="text" autocomplete="off" spellcheck="false" value="/api/v1/${sample}?limit=2">
<button type="button" id="try-send">Send GET</button>
</div>
<div id="try-status" role="status" aria-live="polite"></div>
<div id="try-answer" hidden>
<p class="try-part">Response headers</p>
<pre id="try-headers"><code></code></pre>
<p class="try-part">Body</p>
<pre id="try-out"><code></code></pre>
</div>`;
  return undefined;
}

function guideSection(section: GuideSection, sample: string): Html {
  const body = htmlText(markdownHtml(section.body)).replace(/\{\{badge_[a-z]+\}\}/g, (name) => {
    const markup = BADGES[name];
    if (!markup) throw new Error(`docs/guide/${section.id}.md: unknown badge ${name}`);
    return htmlText(markup);
  });
  const heading = section.id === 'intro' ? html`<h1>Operations data API</h1>` : html`<h2>${section.title}</h2>`;
  return html`<section class="guide" id="${section.id}">
${lines([heading, trustedHtml(body.trimEnd()), pageOnly(section, sample)].filter((part) => part !== undefined))}
</section>`;
}

export function emitDocsPage(model: CatalogueModel): string {
  const guideIds = new Set<string>(GUIDE_SECTIONS);
  const clash = model.domains.find((d) => guideIds.has(d.domain));
  if (clash) throw new Error(`docs page: domain '${clash.domain}' collides with a guide section anchor; rename the section (docs/guide, GUIDE_SECTIONS)`);
  const values = pageGuideValues(model);
  const guide = guideSections(values, 'page');
  const sample = values['sample_path'] as string;
  const page = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>Operations data API · documentation</title>
<link rel="icon" href="${ICON}">
<style>${trustedHtml(STYLE)}</style>
</head>
<body>
<!-- ${banner('catalogue/*.yaml')} -->
<header class="top">
<a class="brand" href="#intro">Operations data API <span>v${model.version}</span></a>
<input id="q" type="search" placeholder="Search routes, fields, parameters, guide" aria-label="Search routes, fields, parameters and the guide" autocomplete="off" spellcheck="false">
<span id="count" role="status" aria-live="polite"></span>
</header>
<div class="layout">
${toc(model, guide)}
<main>
<p id="nomatch" role="status" hidden></p>
${lines(guide.map((section) => guideSection(section, sample)))}
${lines(model.domains.map(domainSection))}
<footer>Operations data API ${model.version} · <a href="${BASE_URL_PLACEHOLDER}/api/openapi.json">OpenAPI</a> · <a href="${BASE_URL_PLACEHOLDER}/api/llms.txt">llms.txt</a></footer>
</main>
</div>
<script>${trustedHtml(SCRIPT)}</script>
</body>
</html>
`;
  return htmlText(page);
}
