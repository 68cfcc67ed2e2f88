/**
 * @module The catalogue's part of the docs page: a card per resource (routes, default order, sort
 * keys, scope, fields, filters, examples), a section per domain, and the table of contents. Every
 * catalogue text goes through the `html` template, which escapes it.
 */
import { routesOf, type ResourceRoute } from '../../kinds/kind-emitters';
import type { CatalogueModel, DomainModel, FieldModel, FilterModel, ResourceModel } from '../../model/catalogue-model';
import { EXAMPLE_ID, exampleListAnswer } from '../example-record';
import { BASE_URL_PLACEHOLDER, exampleListUrl, filterNote, scopeText, sortableNames } from '../describe';
import { type Html, html, lines } from './html';

export const code = (text: string): Html => html`<code>${text}</code>`;
const codes = (items: readonly string[]): Html => html`${items.map((item, i) => (i ? html`, ${code(item)}` : code(item)))}`;
export const badge = (text: string, kind = ''): Html => html`<span class="b${kind ? ` ${kind}` : ''}">${text}</span>`;

const CURL = `curl -sS -H "Authorization: Bearer $API_KEY"`;

/** A table row; on a phone each cell after the first is a line of its own, labelled with its column. */
function row(cells: readonly Html[], labels: readonly string[]): Html {
  return html`<tr>${cells.map((cell, i) => (i > 0 && labels[i] ? html`<td data-label="${labels[i]}">${cell}</td>` : html`<td>${cell}</td>`))}</tr>`;
}

const FIELD_COLUMNS = ['Field', 'Type', 'Description'] as const;
const FILTER_COLUMNS = ['Filter', 'Op', 'Value', 'Example', 'Note'] as const;
const head = (labels: readonly string[]): Html => html`<thead><tr>${labels.map((l) => html`<th>${l}</th>`)}</tr></thead>`;

function fieldType(field: FieldModel): Html {
  const type = field.type === 'array' ? `array of ${field.items ?? 'string'}` : field.format ? `${field.type} (${field.format})` : field.type;
  const parts: Html[] = [html`${type}`];
  if (field.nullable) parts.push(badge('nullable'));
  if (field.personal) parts.push(badge('personal data', 'pd'));
  if (field.deprecated) parts.push(badge('deprecated', 'dep'));
  if (field.enum) parts.push(html`<br><span class="vals">one of ${codes(field.enum)}</span>`);
  return html`${parts.map((part, i) => (i ? html` ${part}` : part))}`;
}

function filterValue(filter: FilterModel): Html {
  switch (filter.type) {
    case 'string':
      return html`${filter.op === 'ilike' ? 'text (substring)' : 'text (exact)'}`;
    case 'boolean':
      return html`boolean`;
    case 'date':
      return html`date`;
    case 'date-time':
      return html`date or date-time`;
    case 'enum':
      return html`one of ${codes(filter.values ?? [])}`;
    case 'integer-list':
      return html`integers, comma-separated or repeated`;
    default:
      return html`${filter.type}`;
  }
}

/** A filter note: catalogue text, escaped, with its `name` spans as code. */
function noteHtml(note: string): Html {
  return html`${note.split(/`([^`]+)`/).map((part, i) => (i % 2 ? code(part) : part))}`;
}

/** A route on a resource's card: its kind's label, its path, and a "Try it" button when its kind has one. */
function routeLine(route: ResourceRoute, resource: ResourceModel): Html {
  const tried = route.emitter.tryPath?.(resource);
  const line = html`<dt>${route.emitter.label}</dt><dd class="head">${code(`GET ${route.openApiPath}`)}${tried !== undefined && html`<button type="button" class="try" data-path="${tried}">Try it</button>`}</dd>`;
  const rows = (route.emitter.cardRows?.(resource) ?? []).map(
    ([label, names]) => html`<dt>${label}</dt><dd>${names.length ? codes([...names]) : html`<span class="none">none</span>`}</dd>`,
  );
  return rows.length ? lines([line, ...rows]) : line;
}

function resourceCard(resource: ResourceModel): Html {
  const path = resource.path;
  const list = `/api/v1/${path}`;
  const scope = scopeText(resource);
  const sortable = sortableNames(resource);
  const fields = resource.fields.map((f) => row([code(f.name), fieldType(f), html`${f.description}`], FIELD_COLUMNS));
  const filters = resource.filters.map((f) =>
    row(
      [html`${code(f.name)}${f.deprecated && badge('deprecated', 'dep')}`, code(f.op), filterValue(f), code(`${f.name}=${f.example}`), noteHtml(filterNote(f, resource))],
      FILTER_COLUMNS,
    ),
  );
  const filterBlock = resource.filters.length
    ? html`<div class="rows"><h4>Filters</h4><div class="scroll"><table>${head(FILTER_COLUMNS)}<tbody>
${lines(filters)}
</tbody></table></div></div>`
    : html`<div class="ex"><h4>Filters</h4><p class="none">No filters: page through the list with the common parameters.</p></div>`;
  return html`<article class="res" id="${path}">
<h3 class="head"><a href="#${path}">${path}</a> <span>${resource.title}</span>${resource.deprecated && badge('deprecated', 'dep')}</h3>
<p class="head">${resource.description}</p>
<dl class="meta">
${lines(routesOf(resource).map((route) => routeLine(route, resource)))}
<dt>Default order</dt><dd>${code(resource.defaultOrderText)}</dd>
<dt>Sortable</dt><dd>${sortable.length ? codes(sortable) : html`<span class="none">none</span>`}</dd>
<dt>Scope</dt><dd>${scope ? html`only records with ${code(scope)}; others are 404` : 'all records'}</dd>
${resource.relations.length > 0 && html`<dt>Relations</dt><dd>${lines(resource.relations.map((r) => html`${code(`expand=${r.name}`)} ${r.kind === 'to_many' ? html`(${r.target} by its ${code(r.via)})` : html`(the ${r.target} record of ${code(r.via)})`} `))}<button type="button" class="try" data-path="${`${list}?limit=2&expand=${resource.relations[0]?.name}`}">Try it</button></dd>`}
</dl>
<div class="rows"><h4>Fields</h4><div class="scroll"><table>${head(FIELD_COLUMNS)}<tbody>
${lines(fields)}
</tbody></table></div></div>
${filterBlock}
<div class="ex"><h4>Examples</h4>
<pre class="curl"><code>${`${CURL} '${exampleListUrl(resource)}'`}</code></pre>
<pre class="curl"><code>${`${CURL} '${BASE_URL_PLACEHOLDER}${list}/${EXAMPLE_ID}'`}</code></pre>
<details class="ex-answer"><summary>Example answer (a page of one record; values show the formats, not real data)</summary>
<pre><code>${JSON.stringify(exampleListAnswer(resource), null, 2)}</code></pre></details></div>
</article>`;
}

export function domainSection(domain: DomainModel): Html {
  return html`<section class="domain" id="${domain.domain}">
<h2>${domain.title} <code>${domain.domain}</code></h2>
<p>${domain.description}</p>
${lines(domain.resources.map(resourceCard))}
</section>`;
}

/** The table of contents: the guide's sections, then every domain with its resources. */
export function toc(model: CatalogueModel, guide: readonly { readonly id: string; readonly title: string }[]): Html {
  const domains = model.domains.map(
    (d) => html`<li><a href="#${d.domain}">${d.title}</a><ul>${d.resources.map((r) => html`<li><a href="#${r.path}">${r.name}</a></li>`)}</ul></li>`,
  );
  return html`<nav id="toc" aria-label="Contents"><details id="toc-box" open><summary>Contents</summary>
<ul>${guide.map(({ id, title }) => html`<li><a href="#${id}">${title}</a></li>`)}</ul>
<ul class="doms">
${lines(domains)}
</ul></details></nav>`;
}
