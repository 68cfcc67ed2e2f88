/** @module A filter's note: what its description says beyond its name, operator and type (llms.txt, the docs page, the MCP tools). */
import type { FilterModel, ResourceModel } from '../model/catalogue-model';

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
