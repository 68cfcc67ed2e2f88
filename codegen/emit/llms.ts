/**
 * @module llms.txt: the whole interface as flat Markdown (llms.txt convention: H1, a blockquote
 * summary, then sections), for agents: the guide (docs/guide, shared with the docs page) in this
 * document's notation, then each route with one line per field and per filter. The gateway serves
 * it at `/llms.txt` and `/api/llms.txt` with `{base_url}` replaced by its public base URL.
 */
import { banner } from '../banner';
import { routesOf } from '../kinds/kind-emitters';
import type { CatalogueModel, FieldModel, FilterModel, ResourceModel } from '../model/catalogue-model';
import { exampleRecord } from './example-record';
import { filterNote, scopeText, sortableNames } from './describe';
import { commonGuideValues, guideSections, type GuideValues } from './guide/guide';

/** TypeScript-like type of a field's value: `string(date)|null`, `"a"|"b"|null`, `string[]`. */
function fieldTypeText(field: FieldModel): string {
  let type: string;
  if (field.type === 'array') type = `${field.items ?? 'string'}[]`;
  else if (field.enum) type = field.enum.map((v) => JSON.stringify(v)).join('|');
  else type = field.format ? `${field.type}(${field.format})` : field.type;
  return field.nullable ? `${type}|null` : type;
}

/** Value format of a filter: `integer`, `text`, `true|false`, `date`, `"a"|"b"`, `integer list`. */
function filterValueText(filter: FilterModel): string {
  switch (filter.type) {
    case 'string':
      return 'text';
    case 'boolean':
      return 'true|false';
    case 'enum':
      return (filter.values ?? []).map((v) => JSON.stringify(v)).join('|');
    case 'integer-list':
      return 'integer list';
    default:
      return filter.type;
  }
}

function marks(item: { readonly deprecated: boolean; readonly personal?: boolean }): string {
  return `${item.personal ? ' [personal data]' : ''}${item.deprecated ? ' [deprecated]' : ''}`;
}

/**
 * One line per field, but the id of a related record beside its name (`driver_id` beside `driver`:
 * the join key, catalogue rule) is said on its name's line, `Id: driver_id.` (`Ids: user_ids.` for an
 * x2many), rather than on one of its own: the guide says once what such a field holds (`integer|null`,
 * `integer[]`), and llms.txt keeps within its budget. Likewise `url`'s description: the guide says once
 * that it links to the record in the ERP interface.
 */
function fieldLines(resource: ResourceModel): string[] {
  const keyOf = joinKeys(resource);
  const folded = new Set(keyOf.values());
  return resource.fields
    .filter((f) => !folded.has(f))
    .map((f) => {
      const key = keyOf.get(f);
      const description = f.name === 'url' ? '' : ` ${f.description}`;
      return `- ${f.name}: ${fieldTypeText(f)}${marks(f)}.${description}${key ? ` ${key.type === 'array' ? 'Ids' : 'Id'}: ${key.name}${marks(key)}.` : ''}`;
    });
}

/** Each field that names a related record, and the field of its id (the first, when there are two). */
function joinKeys(resource: ResourceModel): Map<FieldModel, FieldModel> {
  const keyOf = new Map<FieldModel, FieldModel>();
  for (const key of resource.fields) {
    const named = joinKeyOf(key, resource.fields);
    if (named && !keyOf.has(named)) keyOf.set(named, key);
  }
  return keyOf;
}

/** The names of the ids said on their names' lines. */
function foldedKeys(resource: ResourceModel): Set<string> {
  return new Set([...joinKeys(resource).values()].map((f) => f.name));
}

/** The field whose name `key` is the id of (the same relation, read as a name), if `key` is such an id. */
function joinKeyOf(key: FieldModel, fields: readonly FieldModel[]): FieldModel | undefined {
  const { source } = key;
  const isId = key.type === 'integer' || key.items === 'integer';
  if (!isId) return undefined;
  return fields.find((named) => {
    const other = named.source;
    if (named === key || named.type === 'integer' || named.items === 'integer') return false;
    if (source.kind === 'many2one' && other.kind === 'many2one') return other.erp === source.erp;
    if (source.kind === 'x2many' && other.kind === 'x2many') return other.erp === source.erp;
    if (source.kind === 'related' && other.kind === 'related') return other.erp === source.erp && other.comodelField === source.comodelField;
    return false;
  });
}

/** `List: GET /api/v1/fleet/vehicles. Export: + /export. Detail: + /{id}.`: the first route's path in full, the others' after it. */
function routeLine(resource: ResourceModel): string {
  // The aggregate route of every resource is described once, in the guide's Summaries (llms.txt's size).
  const [first, ...others] = routesOf(resource).filter((route) => route.kind !== 'aggregate');
  if (!first) return '';
  // The kinds' paths in their declared order (list, export, detail: the introduction says which is which), within llms.txt's budget.
  return `Routes: GET ${[first.openApiPath, ...others.map((route) => `+ ${route.openApiPath.slice(first.openApiPath.length)}`)].join(', ')}.`;
}

function routeSection(resource: ResourceModel): string {
  const lines = [
    `### ${resource.path}: ${resource.title}${resource.deprecated ? ' [deprecated]' : ''}`,
    resource.description,
    routeLine(resource),
    `Default order: ${resource.defaultOrderText}. Sortable: ${sortableNames(resource).join(', ') || 'none'}.${scopeText(resource) ? ` Scope: ${scopeText(resource)}.` : ''}${resource.relations.length ? ` Expand: ${resource.relations.map((r) => r.name).join(', ')}.` : ''}`,
    'Fields:',
    ...fieldLines(resource),
  ];
  const folded = foldedKeys(resource);
  if (resource.filters.length) {
    lines.push('Filters:');
    for (const f of resource.filters) {
      const note = filterNote(f, resource);
      lines.push(`- ${f.name} ${f.op} ${filterValueText(f)}${marks(f)}${note ? `. ${note}` : ''}`);
    }
  } else lines.push('Filters: none.');
  // The ids said on their names' lines are left out of the example too: the shape is the same.
  const example = Object.fromEntries(Object.entries(exampleRecord(resource)).filter(([name]) => !folded.has(name)));
  lines.push(`Example record (shape only): ${JSON.stringify(example)}`);
  return lines.join('\n');
}

/** llms.txt's notation for the guide's placeholders: the one its route sections use. */
function llmsGuideValues(model: CatalogueModel): GuideValues {
  return {
    ...commonGuideValues(model),
    domains: model.domains.map((d) => d.domain).join(', '),
    date_type: '`string(date)`',
    date_time_type: '`string(date-time)`',
    names_type: '`string[]`',
    ids_type: '`integer[]`',
    enum_type: '`"a"|"b"`',
    nullable: '`|null`',
    personal: '[personal data]',
    deprecated: '[deprecated]',
    id_beside_name: "Below, it is on its name's line (`Id: driver_id.`). ",
  };
}

export function emitLlmsTxt(model: CatalogueModel): string {
  const [intro, ...sections] = guideSections(llmsGuideValues(model), 'llms');
  if (intro?.id !== 'intro') throw new Error('docs/guide: the introduction must come first');
  // The llms.txt convention: the H1, a blockquote summary (the introduction's first paragraph), then sections.
  const [summary = '', ...rest] = intro.body.split('\n\n');
  return `# Operations data API

> ${summary.replace(/\n/g, ' ')}

${rest.join('\n\n')}

${sections.map((section) => `## ${section.title}\n\n${section.body}`).join('\n\n')}

## Routes

Per domain, per resource: description; paths (\`+ /export\`: after the first); default order, sortable fields, scope, \`Expand:\` relations; \`Fields:\` (\`name: type [marks]. description\`) and \`Filters:\` (\`name operator value-format. note\`), one line each; an example record (shape and formats, not real data; a list answers \`{"data": [record, ...], "meta": {"total": n}}\`).

${model.domains.map((d) => `## ${d.domain}: ${d.title}\n\n${d.description}\n\n${d.resources.map(routeSection).join('\n\n')}`).join('\n\n')}

<!-- ${banner('catalogue/*.yaml')} -->
`;
}
