/**
 * @module Small describers of the catalogue shared by the two documents for people and agents, the
 * docs page and llms.txt (and the guide they both render): the base URL placeholder, a filter's
 * note, a resource's scope and sort keys in words, example URLs.
 */
import type { CatalogueModel, FilterModel, ResourceModel } from '../model/catalogue-model';

/** The placeholder the gateway replaces with its public base URL when serving a document. */
export const BASE_URL_PLACEHOLDER = '{base_url}';

const AUTO_DESCRIPTION =
  /^Records whose (\S+) is (?:equal to|containing \(case-insensitive\) the text|on or after the given date|on or before the given date|at least the given|at most the given)/;

/**
 * A filter's description when it says more than its name, operator and type do. The generated
 * default (`Records whose x is ...`) is reduced to the field it applies to, or to nothing.
 */
export function filterNote(filter: FilterModel, resource: ResourceModel): string {
  const auto = AUTO_DESCRIPTION.exec(filter.description);
  if (!auto) return filter.description;
  const subject = auto[1] as string;
  return subject !== filter.name && resource.fields.some((f) => f.name === subject) ? `On field \`${subject}\`.` : '';
}

/** The fixed selection that limits which records a resource exposes, in words; '' when none. */
export function scopeText(resource: ResourceModel): string {
  return resource.scope.map((t) => `${t.erp} ${t.op} ${Array.isArray(t.value) ? t.value.join(',') : String(t.value)}`).join(' and ');
}

/** A list URL with the given filters set to their example values (default: the first filter). */
export function exampleListUrl(resource: ResourceModel, filters: readonly FilterModel[] = resource.filters.slice(0, 1)): string {
  const params = filters.map((f) => `${f.name}=${encodeURIComponent(f.example).replace(/%2C/g, ',')}`);
  return `${BASE_URL_PLACEHOLDER}/api/v1/${resource.path}?${[...params, 'limit=10'].join('&')}`;
}

const isDate = (f: FilterModel): boolean => f.type === 'date' || f.type === 'date-time';

/** The example the guides use: a resource with an enumerated and a date filter, and its URL with both. */
export function sampleRequest(model: CatalogueModel): { readonly resource: ResourceModel; readonly url: string } {
  const resources = model.domains.flatMap((d) => d.resources);
  const resource = resources.find((r) => r.filters.some((f) => f.type === 'enum') && r.filters.some(isDate)) ?? resources[0];
  if (!resource) throw new Error('docs: the catalogue has no resource');
  const filters = [resource.filters.find((f) => f.type === 'enum'), resource.filters.find(isDate)].filter((f): f is FilterModel => f !== undefined);
  return { resource, url: exampleListUrl(resource, filters) };
}

export function sortableNames(resource: ResourceModel): string[] {
  return Object.keys(resource.sortable);
}
