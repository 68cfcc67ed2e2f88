/**
 * @module The guide: what the API is, authentication, records, paging, filters, errors, limits,
 * versioning and agents, written once in Markdown (docs/guide/<section>.md) and rendered into both
 * served documents, the docs page (HTML, codegen/emit/docs-page) and llms.txt (Markdown,
 * codegen/emit/llms.ts). What depends on the catalogue is a `{{placeholder}}` each document fills in
 * its own notation (`{{nullable}}` is a badge on the page, `|null` in llms.txt); `{base_url}` stays,
 * for the gateway to replace when it serves them.
 */
import { readFileSync } from 'node:fs';
import { AGGREGATE_LIMITS } from '../../kinds/aggregate/aggregate-limits';
import { COMMON_LIST_PARAMETERS, EXPORT_PARAMETERS, LIMITS, type CatalogueModel } from '../../model/catalogue-model';
import { projectFile } from '../../project-files';
import { sampleRequest } from '../describe';
import { ERROR_STATUSES } from '../openapi/components';

/** The sections, in order; each is docs/guide/<id>.md and, on the page, the anchor `#<id>`. */
export const GUIDE_SECTIONS = [
  'intro',
  'authentication',
  'records',
  'paging',
  'filters',
  'related',
  'summaries',
  'errors',
  'limits',
  'versioning',
  'agents',
  'try',
  'operators',
] as const;
type GuideSectionId = (typeof GUIDE_SECTIONS)[number];

/**
 * Sections llms.txt leaves out: those about the page itself, and what it says in fewer words within
 * its 25,000 tokens (related records: the paging section's `expand` line and each resource's `Expand:`;
 * summaries: the agents section's `aggregate` line).
 */
const PAGE_ONLY: ReadonlySet<GuideSectionId> = new Set(['try', 'operators', 'related', 'summaries']);

export interface GuideSection {
  readonly id: GuideSectionId;
  /** The file's `# heading`. */
  readonly title: string;
  /** The Markdown after the heading, placeholders filled. */
  readonly body: string;
}

/** The values a document puts in place of the placeholders, in its own notation (Markdown). */
export type GuideValues = Readonly<Record<string, string>>;

/** Catalogue text placed inline in the guide's Markdown, its emphasis, code, link, table and tag characters backslash-escaped. */
export function markdownText(text: string): string {
  return text.replace(/[\\`*_[\]<>|]/g, '\\$&');
}

const code = (text: string): string => `\`${text}\``;

/** The placeholders whose value is the same in both documents. */
export function commonGuideValues(model: CatalogueModel): GuideValues {
  const resources = model.domains.flatMap((d) => d.resources);
  const { resource: sample, url } = sampleRequest(model);
  const errorRows = ERROR_STATUSES.map(([status, name, condition]) => `| ${status} | ${code(name)} | ${condition.replace(/\|/g, '\\|')} |`);
  const errorTable = [
    '| Status | Code | Condition |',
    '| --- | --- | --- |',
    ...errorRows.slice(0, 4),
    `| 405 | *(HTML body)* | Any method other than GET or HEAD; the answer carries ${code('Allow: GET, HEAD')}. |`,
    ...errorRows.slice(4),
  ].join('\n');
  return {
    resource_count: String(resources.length),
    domain_count: String(model.domains.length),
    version: model.version,
    tool_count: String(4 + model.domains.length),
    sample_path: sample.path,
    sample_file: sample.path.replace('/', '-'),
    sample_url: url,
    list_parameters: COMMON_LIST_PARAMETERS.map(code).join(', '),
    export_parameters: EXPORT_PARAMETERS.map(code).join(', '),
    limit_default: String(LIMITS.limitDefault),
    limit_min: String(LIMITS.limitMin),
    limit_max: String(LIMITS.limitMax),
    offset_min: String(LIMITS.offsetMin),
    since_id_min: String(LIMITS.sinceIdMin),
    mcp_batch_max: String(LIMITS.mcpBatchMax),
    mcp_calls_in_flight: String(LIMITS.mcpCallsInFlight),
    expand_per_record: String(LIMITS.expandPerRecord),
    aggregate_dimensions_max: String(AGGREGATE_LIMITS.dimensionsMax),
    aggregate_limit_max: String(AGGREGATE_LIMITS.limitMax),
    error_table: errorTable,
  };
}

/** Fills `{{name}}` from `values`; a placeholder without a value is a generator error, naming the file. */
function fill(text: string, values: GuideValues, file: string): string {
  return text.replace(/\{\{([a-z_]+)\}\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${file}: no value for the placeholder {{${name}}} (codegen/emit/guide/guide.ts and the documents' values)`);
    return value;
  });
}

/** The guide's sections for one document: `llms` leaves out the page's own. */
export function guideSections(values: GuideValues, document: 'page' | 'llms'): GuideSection[] {
  return GUIDE_SECTIONS.filter((id) => document === 'page' || !PAGE_ONLY.has(id)).map((id) => {
    const file = `docs/guide/${id}.md`;
    const text = readFileSync(projectFile('docs', 'guide', `${id}.md`), 'utf8');
    const heading = /^# (.+)\n+/.exec(text);
    if (!heading) throw new Error(`${file}: must start with its '# Title' line`);
    return { id, title: heading[1] as string, body: fill(text.slice(heading[0].length), values, file).trimEnd() };
  });
}
