/**
 * @module `generated/docs.html`: the human-readable documentation, one self-contained page (inline
 * style and script, no external resource), derived from the catalogue. The gateway serves it at
 * `/api/docs` with `{base_url}` replaced and with `DOCS_CSP` as its Content-Security-Policy, which
 * allows the inline style and script by their SHA-256 hashes only.
 *
 * Anchors are stable: `#<domain>/<resource>` for a resource card (`#fleet/vehicles`), `#<domain>`
 * for a domain, and fixed ids for the guide sections (`GUIDE_SECTIONS`).
 */
import { createHash } from 'node:crypto';
import { banner, TS_BANNER } from '../banner';
import { LIMITS, type CatalogueModel, type DomainModel, type FieldModel, type FilterModel, type ResourceModel } from '../model/catalogue-model';
import { BASE_URL_PLACEHOLDER, exampleListUrl, filterNote, sampleRequest, scopeText, sortableNames } from './llms';
import { EXAMPLE_ID, exampleListAnswer } from './example-record';
import { ERROR_STATUSES } from './openapi';

/** Guide sections, in page order: id and title. Domain ids must not collide with these. */
const GUIDE_SECTIONS = [
  ['intro', 'Introduction'],
  ['authentication', 'Authentication'],
  ['records', 'Records and types'],
  ['paging', 'Paging'],
  ['filters', 'Filters'],
  ['errors', 'Errors'],
  ['limits', 'Limits'],
  ['versioning', 'Versioning and links'],
  ['agents', 'Agents: MCP and llms.txt'],
  ['try', 'Try it'],
] as const;

const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa;--accent:#0969da;--badge:#eef1f4;--warn:#9a6700;--pd:#8250df;--top:3.5rem}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#30363d;--soft:#151b23;--accent:#4493f8;--badge:#21262d;--warn:#d29922;--pd:#ab7df8}}
*{box-sizing:border-box}
html{scroll-padding-top:calc(var(--top) + .75rem)}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;-webkit-text-size-adjust:100%;text-size-adjust:100%}
code,pre{font-family:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace;font-size:.86em}
a{color:var(--accent);text-decoration:none}
a:hover{text-decoration:underline}
.top{position:sticky;top:0;z-index:2;display:flex;align-items:center;gap:.75rem;height:var(--top);padding:0 1rem;background:var(--bg);border-bottom:1px solid var(--line)}
.brand{font-weight:650;color:var(--fg);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.brand span{font-weight:400;color:var(--muted);font-size:.85em}
#q{flex:1;min-width:6rem;max-width:26rem;margin-left:auto;padding:.45rem .7rem;font:inherit;font-size:.95rem;color:inherit;background:var(--soft);border:1px solid var(--line);border-radius:6px}
#q:focus{outline:2px solid var(--accent);outline-offset:-1px}
#count{color:var(--muted);font-size:.85rem;white-space:nowrap}
#count:empty{display:none}
.layout{max-width:90rem;margin:0 auto}
nav{padding:.6rem 1rem;border-bottom:1px solid var(--line);font-size:.92rem}
nav summary{cursor:pointer;font-weight:600;padding:.2rem 0}
nav ul{list-style:none;margin:0;padding:0}
nav li{margin:.08rem 0}
nav .doms>li{margin-top:.6rem}
nav .doms>li>a{font-weight:600;color:var(--fg)}
nav .doms ul{padding-left:.7rem;margin-top:.15rem;border-left:1px solid var(--line)}
nav .doms ul a{color:var(--muted)}
nav .doms ul a:hover{color:var(--accent)}
main{padding:0 1rem 4rem;min-width:0}
@media (max-width:30rem){.brand span{display:none}}
@media (min-width:64rem){
.layout{display:grid;grid-template-columns:16rem minmax(0,1fr);gap:2rem}
nav{position:sticky;top:var(--top);align-self:start;max-height:calc(100vh - var(--top));overflow-y:auto;border-bottom:0;padding:1rem 0 2rem 1rem}
nav summary{display:none}
main{padding-right:2rem}
}
h1,h2,h3,h4{line-height:1.25}
h1{font-size:1.9rem;margin:1.5rem 0 .5rem}
h2{font-size:1.4rem;margin:2.5rem 0 .75rem;padding-bottom:.3rem;border-bottom:1px solid var(--line)}
h2 code{font-size:.7em;font-weight:400;color:var(--muted)}
h3{font-size:1.12rem;margin:0 0 .35rem}
h4{font-size:.78rem;margin:1.1rem 0 .35rem;text-transform:uppercase;letter-spacing:.05em;color:var(--muted)}
p,ul,ol{margin:.5rem 0 .8rem}
li{margin:.2rem 0}
:not(pre)>code{background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:.05em .3em;overflow-wrap:anywhere}
pre{position:relative;background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:.7rem 1rem;overflow-x:auto;line-height:1.45;margin:.5rem 0}
.curl{padding-right:4.5rem}
.curl code{white-space:pre-wrap;overflow-wrap:anywhere}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{text-align:left;vertical-align:top;padding:.38rem .6rem;border-bottom:1px solid var(--line)}
th{font-weight:600;color:var(--muted);font-size:.78rem}
td:first-child{white-space:nowrap}
td:first-child code{white-space:nowrap;overflow-wrap:normal}
td code{overflow-wrap:anywhere}
.res{border:1px solid var(--line);border-radius:8px;padding:1rem 1.1rem .6rem;margin:1rem 0 1.5rem}
.res:target{outline:2px solid var(--accent);outline-offset:2px}
.res h3 a{color:var(--fg)}
.res h3 span{color:var(--muted);font-weight:400}
.meta{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.15rem .9rem;font-size:.9rem;margin:.5rem 0}
.meta dt{color:var(--muted)}
.meta dd{margin:0}
.b{display:inline-block;font-size:.7rem;font-weight:600;line-height:1.5;padding:0 .4rem;border-radius:999px;background:var(--badge);color:var(--muted);margin-left:.25rem;white-space:nowrap}
.b.pd{color:var(--pd)}
.b.dep{color:var(--warn)}
.vals{color:var(--muted);font-size:.85em}
.copy{position:absolute;top:.35rem;right:.35rem;font:inherit;font-size:.75rem;padding:.1rem .5rem;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg);cursor:pointer}
.none{color:var(--muted);font-style:italic}
.ex-answer summary{cursor:pointer;color:var(--muted);font-size:.9rem}
.ex-answer pre{max-height:22rem;overflow:auto}
.try{font:inherit;font-size:.75rem;padding:.05rem .5rem;margin-left:.4rem;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--accent);cursor:pointer}
.try-form{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.5rem .75rem;align-items:center;margin:.75rem 0}
.try-form input{width:100%;min-width:0;padding:.4rem .6rem;font:inherit;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85rem;color:inherit;background:var(--soft);border:1px solid var(--line);border-radius:6px}
.try-form button{grid-column:2;justify-self:start;font:inherit;padding:.35rem 1rem;border:1px solid var(--accent);border-radius:6px;background:var(--accent);color:#fff;cursor:pointer}
.try-form button:disabled{opacity:.6;cursor:wait}
#try-status{font-size:.9rem;color:var(--muted)}
#try-out{max-height:32rem;overflow:auto}
#try-out code{white-space:pre-wrap;overflow-wrap:anywhere}
#nomatch{margin:2rem 0;padding:1rem;border:1px dashed var(--line);border-radius:8px;color:var(--muted)}
@media (max-width:40rem){
.scroll table,.scroll tbody,.scroll tr,.scroll td{display:block;width:auto}
.scroll thead{display:none}
.scroll tr{padding:.45rem 0;border-bottom:1px solid var(--line)}
.scroll td{border:0;padding:.08rem 0}
.scroll td:first-child,.scroll td code{white-space:normal;overflow-wrap:anywhere}
.scroll td:first-child{font-weight:600}
.scroll td[data-label]::before{content:attr(data-label) ": ";color:var(--muted);font-size:.78rem}
.try-form{grid-template-columns:minmax(0,1fr)}
.try-form button{grid-column:1}
}
footer{color:var(--muted);font-size:.85rem;margin-top:3rem}
[hidden]{display:none!important}
`;

const SCRIPT = `
(function () {
  'use strict';
  var q = document.getElementById('q');
  var count = document.getElementById('count');
  var nomatch = document.getElementById('nomatch');
  var toc = document.getElementById('toc-box');
  var all = function (root, selector) { return Array.prototype.slice.call(root.querySelectorAll(selector)); };
  var lower = function (e) { return e.textContent.toLowerCase(); };
  var links = {};
  all(document, '#toc a[href^="#"]').forEach(function (a) { links[a.getAttribute('href').slice(1)] = a.parentNode; });
  var guides = all(document, 'section.guide').map(function (g) {
    var title = g.querySelector('h1, h2');
    return {
      el: g,
      head: title ? lower(title) : '',
      items: all(g, ':scope > p, :scope > ul > li, :scope > pre, :scope > .scroll tbody tr').map(function (e) { return { el: e, text: lower(e) }; })
    };
  });
  var domains = all(document, 'section.domain');
  var cards = all(document, 'article.res').map(function (card) {
    return {
      el: card,
      head: all(card, '.head').map(lower).join(' '),
      blocks: all(card, '.rows').map(function (block) {
        return { el: block, rows: all(block, 'tbody tr').map(function (tr) { return { el: tr, text: lower(tr) }; }) };
      }),
      examples: all(card, '.ex')
    };
  });
  var has = function (text, words) { return words.every(function (w) { return text.indexOf(w) >= 0; }); };

  function apply() {
    var words = q.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var shown = 0;
    var guideShown = 0;
    cards.forEach(function (card) {
      var whole = has(card.head, words);
      var visible = whole;
      card.blocks.forEach(function (block) {
        var any = false;
        block.rows.forEach(function (row) {
          var hit = whole || has(card.head + ' ' + row.text, words);
          row.el.hidden = !hit;
          any = any || hit;
        });
        block.el.hidden = !any && !whole;
        visible = visible || any;
      });
      card.examples.forEach(function (e) { e.hidden = !whole; });
      card.el.hidden = !visible;
      if (links[card.el.id]) links[card.el.id].hidden = !visible;
      if (visible) shown += 1;
    });
    domains.forEach(function (d) {
      var visible = d.querySelector('article.res:not([hidden])') !== null;
      d.hidden = !visible;
      if (links[d.id]) links[d.id].hidden = !visible;
    });
    guides.forEach(function (g) {
      var whole = has(g.head, words);
      var any = false;
      g.items.forEach(function (item) {
        var hit = whole || has(item.text, words);
        item.el.hidden = !hit;
        any = any || hit;
      });
      var visible = whole || any;
      g.el.hidden = !visible;
      if (links[g.el.id]) links[g.el.id].hidden = !visible;
      if (visible) guideShown += 1;
    });
    if (!words.length) count.textContent = '';
    else count.textContent = shown + (shown === 1 ? ' resource' : ' resources') + ', ' + guideShown + (guideShown === 1 ? ' guide section' : ' guide sections');
    var none = words.length > 0 && shown === 0 && guideShown === 0;
    nomatch.hidden = !none;
    nomatch.textContent = none ? 'No match for \\u201c' + q.value.trim() + '\\u201d. Search a route (/api/v1/fleet/vehicles), a field, a filter, a parameter (since_id, cursor, fields) or a guide section; Escape clears.' : '';
  }

  function reveal() {
    var id;
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; }
    var target = id && document.getElementById(id);
    if (target && target.closest('[hidden]')) {
      q.value = '';
      apply();
      target.scrollIntoView();
    }
  }

  q.addEventListener('input', apply);
  q.addEventListener('keydown', function (e) { if (e.key === 'Escape') { q.value = ''; apply(); } });
  document.addEventListener('keydown', function (e) {
    var t = e.target;
    if (e.key === '/' && t !== q && !(t instanceof HTMLInputElement) && !(t instanceof HTMLTextAreaElement)) { e.preventDefault(); q.focus(); }
  });
  window.addEventListener('hashchange', reveal);

  var wide = window.matchMedia('(min-width: 64rem)');
  var syncToc = function () { toc.open = wide.matches; };
  syncToc();
  wide.addEventListener('change', syncToc);
  toc.addEventListener('click', function (e) { if (!wide.matches && e.target instanceof HTMLAnchorElement) toc.open = false; });

  if (navigator.clipboard && window.isSecureContext) {
    all(document, 'pre.curl').forEach(function (pre) {
      var code = pre.querySelector('code');
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'copy';
      button.textContent = 'Copy';
      button.addEventListener('click', function () {
        navigator.clipboard.writeText(code.textContent).then(function () {
          button.textContent = 'Copied';
          setTimeout(function () { button.textContent = 'Copy'; }, 1500);
        }, function () { button.textContent = 'Select and copy'; });
      });
      pre.appendChild(button);
    });
  }

  // Try it: a GET to this gateway with a key that lives in the input's value only (never stored,
  // never in the address bar); the page's CSP (connect-src 'self') lets it go nowhere else.
  var key = document.getElementById('try-key');
  var path = document.getElementById('try-path');
  var send = document.getElementById('try-send');
  var status = document.getElementById('try-status');
  var out = document.getElementById('try-out');
  var ROUTE = /^\\/api\\/v1\\/[a-z0-9_]+\\/[a-z0-9_]+(\\/[0-9]+)?(\\?[^#\\s]*)?$/;
  var MAX_SHOWN = 60000;
  function tryIt() {
    var route = path.value.trim();
    var secret = key.value.trim();
    if (!ROUTE.test(route)) { status.textContent = 'The path must be a data route: /api/v1/<domain>/<resource>[/<id>][?query].'; path.focus(); return; }
    if (!secret) { status.textContent = 'Paste an API key first.'; key.focus(); return; }
    // Beside this page (<prefix>/api/docs, with or without a final slash), so it works behind a proxy that adds a prefix.
    var url = new URL(location.pathname.replace(/\\/docs\\/?$/, '/') + route.slice('/api/'.length), location.origin);
    var started = Date.now();
    send.disabled = true;
    status.textContent = 'Sending GET ' + route + ' \\u2026';
    fetch(url.href, { headers: { Authorization: 'Bearer ' + secret, Accept: 'application/json' }, credentials: 'omit', cache: 'no-store', redirect: 'error', referrerPolicy: 'no-referrer' })
      .then(function (response) {
        return response.text().then(function (text) {
          var shown = text;
          try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* not JSON: shown as text */ }
          if (shown.length > MAX_SHOWN) shown = shown.slice(0, MAX_SHOWN) + '\\n\\u2026 (cut: ' + shown.length + ' characters)';
          status.textContent = response.status + ' ' + response.statusText + ' \\u00b7 ' + (Date.now() - started) + ' ms';
          out.firstChild.textContent = shown;
          out.hidden = false;
        });
      }, function (error) {
        status.textContent = 'The request failed: ' + error.message;
      })
      .then(function () { send.disabled = false; });
  }
  send.addEventListener('click', tryIt);
  [key, path].forEach(function (input) { input.addEventListener('keydown', function (e) { if (e.key === 'Enter') tryIt(); }); });
  all(document, 'button.try').forEach(function (button) {
    button.addEventListener('click', function () {
      path.value = button.getAttribute('data-path');
      document.getElementById('try').scrollIntoView();
      (key.value ? send : key).focus();
    });
  });
  // Leaving the page forgets the key, even if the browser keeps the page for going back.
  window.addEventListener('pagehide', function () { key.value = ''; });

  if (q.value) apply();
})();
`;

const sha256 = (text: string): string => `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;

const DOCS_SCRIPT_HASH = sha256(SCRIPT);
const DOCS_STYLE_HASH = sha256(STYLE);
/** The Content-Security-Policy the page is served with: its own inline style and script, and requests to its own origin (the try-it panel). */
export const DOCS_CSP = `default-src 'none'; script-src '${DOCS_SCRIPT_HASH}'; style-src '${DOCS_STYLE_HASH}'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const ICON = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0969da"/><path d="M4 5h8M4 8h8M4 11h5" stroke="#fff" stroke-width="1.6"/></svg>')}`;

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** HTML-escapes text for element content and attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

const code = (text: string): string => `<code>${escapeHtml(text)}</code>`;
const codes = (items: readonly string[]): string => items.map(code).join(', ');
const badge = (text: string, kind = ''): string => `<span class="b${kind ? ` ${kind}` : ''}">${text}</span>`;

const CURL = `curl -sS -H "Authorization: Bearer $API_KEY"`;

/** A table row; on a phone each cell after the first is a line of its own, labelled with its column. */
function row(cells: readonly string[], labels: readonly string[]): string {
  return `<tr>${cells.map((cell, i) => `<td${i > 0 && labels[i] ? ` data-label="${escapeHtml(labels[i] as string)}"` : ''}>${cell}</td>`).join('')}</tr>`;
}

const FIELD_COLUMNS = ['Field', 'Type', 'Description'] as const;
const FILTER_COLUMNS = ['Filter', 'Op', 'Value', 'Example', 'Note'] as const;
const ERROR_COLUMNS = ['Status', 'Code', 'Condition'] as const;
const head = (labels: readonly string[]): string => `<thead><tr>${labels.map((l) => `<th>${l}</th>`).join('')}</tr></thead>`;

function fieldType(field: FieldModel): string {
  const type = field.type === 'array' ? `array of ${field.items ?? 'string'}` : field.format ? `${field.type} (${field.format})` : field.type;
  const parts = [escapeHtml(type)];
  if (field.nullable) parts.push(badge('nullable'));
  if (field.personal) parts.push(badge('personal data', 'pd'));
  if (field.deprecated) parts.push(badge('deprecated', 'dep'));
  if (field.enum) parts.push(`<br><span class="vals">one of ${codes(field.enum)}</span>`);
  return parts.join(' ');
}

function filterValue(filter: FilterModel): string {
  switch (filter.type) {
    case 'string':
      return filter.op === 'ilike' ? 'text (substring)' : 'text (exact)';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'date-time':
      return 'date or date-time';
    case 'enum':
      return `one of ${codes(filter.values ?? [])}`;
    case 'integer-list':
      return 'integers, comma-separated or repeated';
    default:
      return escapeHtml(filter.type);
  }
}

/** A filter note: catalogue text, escaped, with its \`name\` spans as code. */
function noteHtml(note: string): string {
  return escapeHtml(note).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function resourceCard(resource: ResourceModel): string {
  const path = resource.path;
  const list = `/api/v1/${path}`;
  const scope = scopeText(resource);
  const fields = resource.fields.map((f) => row([code(f.name), fieldType(f), escapeHtml(f.description)], FIELD_COLUMNS)).join('\n');
  const filters = resource.filters
    .map((f) =>
      row(
        [`${code(f.name)}${f.deprecated ? badge('deprecated', 'dep') : ''}`, code(f.op), filterValue(f), code(`${f.name}=${f.example}`), noteHtml(filterNote(f, resource))],
        FILTER_COLUMNS,
      ),
    )
    .join('\n');
  return `<article class="res" id="${escapeHtml(path)}">
<h3 class="head"><a href="#${escapeHtml(path)}">${escapeHtml(path)}</a> <span>${escapeHtml(resource.title)}</span>${resource.deprecated ? badge('deprecated', 'dep') : ''}</h3>
<p class="head">${escapeHtml(resource.description)}</p>
<dl class="meta">
<dt>List</dt><dd class="head">${code(`GET ${list}`)}<button type="button" class="try" data-path="${escapeHtml(`${list}?limit=2`)}">Try it</button></dd>
<dt>Detail</dt><dd class="head">${code(`GET ${list}/{id}`)}</dd>
<dt>Default order</dt><dd>${code(resource.defaultOrderText)}</dd>
<dt>Sortable</dt><dd>${codes(sortableNames(resource)) || '<span class="none">none</span>'}</dd>
<dt>Scope</dt><dd>${scope ? `only records with ${code(scope)}; others are 404` : 'all records'}</dd>
</dl>
<div class="rows"><h4>Fields</h4><div class="scroll"><table>${head(FIELD_COLUMNS)}<tbody>
${fields}
</tbody></table></div></div>
${
  resource.filters.length
    ? `<div class="rows"><h4>Filters</h4><div class="scroll"><table>${head(FILTER_COLUMNS)}<tbody>
${filters}
</tbody></table></div></div>`
    : '<div class="ex"><h4>Filters</h4><p class="none">No filters: page through the list with the common parameters.</p></div>'
}
<div class="ex"><h4>Examples</h4>
<pre class="curl"><code>${escapeHtml(`${CURL} '${exampleListUrl(resource)}'`)}</code></pre>
<pre class="curl"><code>${escapeHtml(`${CURL} '${BASE_URL_PLACEHOLDER}${list}/${EXAMPLE_ID}'`)}</code></pre>
<details class="ex-answer"><summary>Example answer (a page of one record; values show the formats, not real data)</summary>
<pre><code>${escapeHtml(JSON.stringify(exampleListAnswer(resource), null, 2))}</code></pre></details></div>
</article>`;
}

function domainSection(domain: DomainModel): string {
  return `<section class="domain" id="${escapeHtml(domain.domain)}">
<h2>${escapeHtml(domain.title)} <code>${escapeHtml(domain.domain)}</code></h2>
<p>${escapeHtml(domain.description)}</p>
${domain.resources.map(resourceCard).join('\n')}
</section>`;
}

function toc(model: CatalogueModel): string {
  const guide = GUIDE_SECTIONS.map(([id, title]) => `<li><a href="#${id}">${title}</a></li>`).join('');
  const domains = model.domains
    .map(
      (d) =>
        `<li><a href="#${escapeHtml(d.domain)}">${escapeHtml(d.title)}</a><ul>${d.resources
          .map((r) => `<li><a href="#${escapeHtml(r.path)}">${escapeHtml(r.name)}</a></li>`)
          .join('')}</ul></li>`,
    )
    .join('\n');
  return `<nav id="toc" aria-label="Contents"><details id="toc-box" open><summary>Contents</summary>
<ul>${guide}</ul>
<ul class="doms">
${domains}
</ul></details></nav>`;
}

function guide(model: CatalogueModel): string {
  const resources = model.domains.flatMap((d) => d.resources);
  const { resource: sample, url: sampleUrl } = sampleRequest(model);
  const base = BASE_URL_PLACEHOLDER;
  const domainLinks = model.domains.map((d) => `<a href="#${escapeHtml(d.domain)}">${escapeHtml(d.title)}</a>`).join(', ');
  const errorRows = [
    ...ERROR_STATUSES.slice(0, 4).map(([s, c, t]) => [String(s), code(c), escapeHtml(t)]),
    ['405', '<span class="none">(HTML body)</span>', `Any method other than GET or HEAD; the answer carries ${code('Allow: GET, HEAD')}.`],
    ...ERROR_STATUSES.slice(4).map(([s, c, t]) => [String(s), code(c), escapeHtml(t)]),
  ]
    .map((cells) => row(cells, ERROR_COLUMNS))
    .join('\n');
  const section = (id: (typeof GUIDE_SECTIONS)[number][0], body: string) => {
    const title = GUIDE_SECTIONS.find(([s]) => s === id)?.[1] as string;
    return `<section class="guide" id="${id}">\n${id === 'intro' ? `<h1>Operations data API</h1>` : `<h2>${title}</h2>`}\n${body}\n</section>`;
  };
  return [
    section(
      'intro',
      `<p>An HTTP JSON interface for consulting the operational data of the organisation, read live from its ERP. It is <strong>read-only</strong>: every route is GET (HEAD works too), and no route creates, modifies or deletes anything. Only the fields listed for each resource are exposed.</p>
<p>${resources.length} resources in ${model.domains.length} domains: ${domainLinks}. Each resource has a list route and a detail route under ${code(`${base}/api/v1`)}.</p>
<pre class="curl"><code>${escapeHtml(`${CURL} '${sampleUrl}'`)}</code></pre>
<p>A list answers ${code('{"data": [record, ...], "meta": {"total": 123}}')}; a detail answers ${code('{"data": record}')}. Type in the search box (or press ${code('/')}) to narrow the routes, fields, filters, parameters and guide sections below, or try a request in <a href="#try">Try it</a>.</p>`,
    ),
    section(
      'authentication',
      `<p>Every data route needs the header ${code('Authorization: Bearer <API key>')}. The documentation routes (this page, ${code('/api/openapi.json')}, ${code('/api/llms.txt')}) need none.</p>
<ul>
<li>The key is an <strong>API key of the ERP</strong>, created by the holder of the dedicated technical account in that account's security settings (<em>Preferences → Account security → New API key</em>). It is tied to a name, carries an expiry date and is shown <strong>only once</strong>, at creation: store it in a secret manager.</li>
<li>The account must belong to the group authorised to use the API. Reads are thus made under the read-only rights of that account, never under the rights of a person.</li>
<li><strong>401</strong> ${code('unauthorized')} (with ${code('WWW-Authenticate: Bearer')}): the key is absent, invalid or expired.</li>
<li><strong>403</strong> ${code('forbidden')}: the key is valid but belongs to another account (even an administrator's), or the account has no read right on the model.</li>
<li>Over XML-RPC and JSON-RPC the ERP checks a key together with the login of the technical account, so a key of another account looks exactly like a wrong key (401). Over JSON-2, the ERP's bearer API of recent versions, the gateway learns whose key it is and can answer the precise 403.</li>
</ul>`,
    ),
    section(
      'records',
      `<ul>
<li>Every record has an integer ${code('id')}. Only ${code('id')} is always present; the other fields are all present unless ${code('fields')} selects a subset.</li>
<li>Types: integer, number, string, boolean, array. <em>date</em> strings are ${code('YYYY-MM-DD')}; <em>date-time</em> strings are ISO 8601 in UTC ending with ${code('Z')}.</li>
<li>Fields marked ${badge('nullable')} may be ${code('null')}: an empty relation, or a relation the service account cannot read (the request still succeeds).</li>
<li>Fields named ${code('*_id')} hold the id of a related record; the sibling without the suffix holds its readable name. Arrays hold readable names, except where the type says integer.</li>
<li>Enumerated fields take exactly one of the listed strings. ${code('url')} links to the record in the ERP interface.</li>
<li>${badge('personal data', 'pd')} marks personal data: handle it accordingly. ${badge('deprecated', 'dep')} marks a resource, field or filter that may go; responses touching it carry a ${code('Deprecation')} header.</li>
</ul>`,
    ),
    section(
      'paging',
      `<p>Common parameters of list routes: ${codes(['limit', 'offset', 'since_id', 'total', 'order', 'fields', 'format', 'changed_since'])}. The detail route takes only ${code('fields')}.</p>
<ul>
<li><strong>Offset paging</strong> (${code('limit')}, ${code('offset')}, optional ${code('order')}): for screens and small lists. ${code('meta.total')} counts every matching record. The cost grows with the offset.</li>
<li><strong>Cursor paging</strong> (${code('since_id')}): for full scans and synchronisation. Start with ${code('since_id=0')}, then pass back ${code('meta.next_since_id')} unchanged until it is ${code('null')}. Records come in ascending id at constant cost. Not combinable with ${code('offset')} or ${code('order')} (400).</li>
<li>${code('total=false')} omits ${code('meta.total')}: the count scans every matching record whatever the ${code('limit')}, so turn it off in cursor scans and whenever the count is not shown.</li>
<li><strong>Unchanged answers</strong>: every 200 JSON answer carries an ${code('ETag')} (an export has none). Send it back in ${code('If-None-Match')} (several comma-separated, or ${code('*')}) and an unchanged answer is <strong>304</strong> with no body. The data is still read from the ERP, and answers are ${code('Cache-Control: no-store')}: keep the ETag and the body yourself. Where the operator turned the gateway's response cache on for a resource, its answers are ${code('Cache-Control: private, max-age=…')} with an ${code('Age')} instead: they may come from the gateway's cache, at most ${code('max-age')} seconds old.</li>
<li>${code('order')}: ${code('field')}, ${code('field asc')} or ${code('field desc')}, several keys comma-separated, among the sortable fields of the resource. ${code('id')} is always appended as the last key, so pages are stable. Unset values: a number that is not set is read as 0 and sorts as 0 (first ascending, last descending, beside the zeros; before negative numbers ascending); a date or text that is not set (null) sorts after every value ascending and before every value descending. Ties are broken by ${code('id')}, except on date-times: the ERP keeps fractions of a second that answers round off, so records showing the same date-time are ordered by that hidden fraction first.</li>
<li>${code('fields')}: comma-separated field names, e.g. ${code('fields=id,name')}. An unknown name is 400.</li>
<li><strong>Exports</strong> (${code('Accept: text/csv')} or ${code('Accept: application/x-ndjson')}, or ${code('format=csv')} / ${code('format=ndjson')} in a link): every matching record, streamed by ascending id, with the filters and ${code('fields')}; ${code('since_id')} resumes after an id; not with ${code('limit')}, ${code('offset')}, ${code('order')} or ${code('total')} (400); past the gateway's ceiling on rows, 422 before anything is sent. CSV: RFC 4180, a header row, ${code('null')} an empty field and an empty text ${code('""')}, arrays as JSON text. An export that ends without its last chunk was cut short: resume with ${code('since_id')}. ${code('format=json')} gives the JSON page whatever ${code('Accept')} says.</li>
<li><strong>Change feed</strong> (${code('changed_since')}): records written at or after an ISO 8601 date-time, in ${code('(write_date, id)')} order (the rest of a large window by id, where the ERP has no index on ${code('write_date')}). Pass back ${code('meta.next_changed_since')} (a token) while ${code('meta.more_changes')} is true, then keep it for the next sync: nothing is missed or repeated, same second included. Records that left the resource (archived) or the filters, and deleted records, come in ${code('meta.removed_ids')} (exports: a ${code('_removed')} column, and the token to go on from in the ${code('X-Next-Changed-Since')} header). The last few seconds wait until they are settled. Not with ${code('order')}, ${code('offset')}, ${code('since_id')} or ${code('total=true')} (400).</li>
</ul>
<pre class="curl"><code>${escapeHtml(`${CURL} '${base}/api/v1/${sample.path}?since_id=0&limit=200&total=false'`)}</code></pre>
<pre class="curl"><code>${escapeHtml(`${CURL} -H 'Accept: text/csv' '${base}/api/v1/${sample.path}' -o ${sample.path.replace('/', '-')}.csv`)}</code></pre>`,
    ),
    section(
      'filters',
      `<p>Each resource accepts its named filters (listed on its card) and the common parameters; any other query key is 400, and a raw ERP domain cannot be sent. Filters combine with AND.</p>
<ul>
<li>Operators: ${code('=')} exact; ${code('ilike')} case-insensitive substring of the literal text (${code('%')} and ${code('_')} are not wildcards); ${code('>=')} and ${code('<=')} inclusive bounds; ${code('in')} one of several ids.</li>
<li>Integers: whole numbers; filters named ${code('*_id')} take the id of a related record. Numbers: decimals with a dot.</li>
<li>Booleans: ${code('true')} or ${code('false')}, case-insensitive.</li>
<li>Enumerations: one of the listed values, exactly; another value is 422 and the message lists the allowed ones.</li>
<li>Dates: ${code('YYYY-MM-DD')} or an ISO 8601 date-time (${code('2026-01-31T08:00:00Z')}; an offset is converted to UTC, none means UTC). On a date-time field, a date alone means from 00:00:00Z of that day for ${code('*_after')} and through the end of that day for ${code('*_before')}.</li>
<li>${code('in')} lists: positive ids comma-separated (${code('assignee_id=3,5')}) or the key repeated (${code('assignee_id=3&assignee_id=5')}).</li>
<li>An empty value, a repeated key on a single-value filter, or a value that cannot be used is 422 ${code('invalid_value')}.</li>
<li>Where a resource states a scope, records outside it do not exist for the API: absent from lists, 404 on detail.</li>
</ul>`,
    ),
    section(
      'errors',
      `<p>Errors answer ${code('{"error": {"code": "...", "message": "..."}}')}, except 405, which the routing layer answers with an HTML page. Rely on the status; the message is for people.</p>
<div class="scroll"><table>${head(ERROR_COLUMNS)}<tbody>
${errorRows}
</tbody></table></div>
<p>429 and 503 carry ${code('Retry-After')} (seconds). Every answer, errors included, carries ${code('X-Request-Id')}: yours when you send one (1 to 128 letters, digits and ${code('_ . : + / = -')}), else one made for the request. Quote it when reporting a problem. Data answers also carry ${code('Server-Timing')}: time in the ERP, the gateway's own time and the cache outcome.</p>`,
    ),
    section(
      'limits',
      `<div class="scroll"><table><thead><tr><th>Limit</th><th>Value</th></tr></thead><tbody>
<tr><td>${code('limit')} default</td><td>${LIMITS.limitDefault}</td></tr>
<tr><td>${code('limit')} maximum</td><td>${LIMITS.limitMax} (a larger value is lowered, no error)</td></tr>
<tr><td>${code('limit')} minimum</td><td>${LIMITS.limitMin}</td></tr>
<tr><td>${code('offset')} minimum</td><td>${LIMITS.offsetMin}</td></tr>
<tr><td>${code('since_id')} minimum</td><td>${LIMITS.sinceIdMin}</td></tr>
</tbody></table></div>
<p>Failed authentications are limited per client address, and new API keys checked at once for all addresses together: past either limit the answer is 429 with ${code('Retry-After')}.</p>
<p>The operator may also limit each API key (points per window). Data answers then carry ${code('RateLimit-Policy')} (e.g. ${code('"per-key";q=600;w=60')}: 600 points per 60 s) and ${code('RateLimit')} (e.g. ${code('"per-key";r=598;t=42')}: 598 left, the window ends in 42 s), the IETF draft's fields; past the quota the answer is 429 ${code('rate_limited')} with ${code('Retry-After')}.</p>`,
    ),
    section(
      'versioning',
      `<ul>
<li>Interface version <strong>${escapeHtml(model.version)}</strong>; data routes carry the prefix ${code('/api/v1')}. Changes within a major version only add (resources, fields, filters); what may go is marked deprecated first.</li>
<li>OpenAPI 3.1 description: <a href="${base}/api/openapi.json">${code('/api/openapi.json')}</a>, generated from the same catalogue as this page and describing exactly the routes served.</li>
<li>Flat Markdown for agents and LLM tools: <a href="${base}/api/llms.txt">${code('/api/llms.txt')}</a>.</li>
<li>Stable links: every resource card is ${code('#<domain>/<resource>')} (e.g. <a href="#${escapeHtml(sample.path)}">${code(`#${sample.path}`)}</a>), every domain ${code('#<domain>')}.</li>
</ul>`,
    ),
    section(
      'agents',
      `<ul>
<li><strong>MCP</strong>: agents that speak the Model Context Protocol connect to ${code(`POST ${base}/mcp`)} (streamable HTTP, stateless) with the same ${code('Authorization: Bearer <API key>')}, or run ${code('npm run mcp')} (stdio) with ${code('GATEWAY_URL')} and ${code('API_KEY')} set. ${3 + model.domains.length} tools: ${codes(['list_resources', 'describe_resource', 'query_<domain>', 'get_record'])}; the same rights, limits and errors as the routes; personal-data fields only when named in ${code('fields')}.</li>
<li><strong>llms.txt</strong>: this whole interface as flat Markdown for language models, at <a href="${base}/llms.txt">${code('/llms.txt')}</a> (and ${code('/api/llms.txt')}).</li>
</ul>`,
    ),
    section(
      'try',
      `<p>Send a GET to this gateway with your API key and see the answer. The key stays in this page's memory: it is not stored (no cookie, no local storage), never put in the address bar, sent only to this gateway (the page's security policy allows no other destination), and forgotten when you leave or reload the page. Each resource card has a <em>Try it</em> button that fills in its route.</p>
<div class="try-form">
<label for="try-key">API key</label><input id="try-key" type="password" autocomplete="off" spellcheck="false" placeholder="your API key">
<label for="try-path">Route</label><input id="try-path" type="text" autocomplete="off" spellcheck="false" value="/api/v1/${escapeHtml(sample.path)}?limit=2">
<button type="button" id="try-send">Send GET</button>
</div>
<div id="try-status" role="status" aria-live="polite"></div>
<pre id="try-out" hidden><code></code></pre>`,
    ),
  ].join('\n');
}

export function emitDocsPage(model: CatalogueModel): string {
  const guideIds = new Set<string>(GUIDE_SECTIONS.map(([id]) => id));
  const clash = model.domains.find((d) => guideIds.has(d.domain));
  if (clash) throw new Error(`docs page: domain '${clash.domain}' collides with a guide section anchor; rename the section in codegen/emit/docs-page.ts`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>Operations data API · documentation</title>
<link rel="icon" href="${ICON}">
<style>${STYLE}</style>
</head>
<body>
<!-- ${escapeHtml(banner('catalogue/*.yaml'))} -->
<header class="top">
<a class="brand" href="#intro">Operations data API <span>v${escapeHtml(model.version)}</span></a>
<input id="q" type="search" placeholder="Search routes, fields, parameters, guide" aria-label="Search routes, fields, parameters and the guide" autocomplete="off" spellcheck="false">
<span id="count" role="status" aria-live="polite"></span>
</header>
<div class="layout">
${toc(model)}
<main>
<p id="nomatch" role="status" hidden></p>
${guide(model)}
${model.domains.map(domainSection).join('\n')}
<footer>Operations data API ${escapeHtml(model.version)} · <a href="${BASE_URL_PLACEHOLDER}/api/openapi.json">OpenAPI</a> · <a href="${BASE_URL_PLACEHOLDER}/api/llms.txt">llms.txt</a></footer>
</main>
</div>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/**
 * `generated/docs-assets.ts`: the documents the runtime serves, as string constants, so that they
 * reach `dist/` through the compiler like every other generated module (no file to copy).
 */
export function emitDocsAssets(assets: { readonly html: string; readonly llms: string; readonly csp: string }): string {
  return `${TS_BANNER('catalogue/*.yaml')}
/** The page served at \`/api/docs\`; \`${BASE_URL_PLACEHOLDER}\` is replaced by the public base URL. */
export const DOCS_PAGE_HTML: string = ${JSON.stringify(assets.html)};

/** The Content-Security-Policy of the page: its inline style and script by hash, nothing else. */
export const DOCS_PAGE_CSP: string = ${JSON.stringify(assets.csp)};

/** The flat Markdown served at \`/api/llms.txt\`; \`${BASE_URL_PLACEHOLDER}\` is replaced by the public base URL. */
export const LLMS_TXT: string = ${JSON.stringify(assets.llms)};
`;
}
