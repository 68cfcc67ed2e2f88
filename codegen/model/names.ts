/**
 * @module The one place where generated identifiers come from: every type name, constant name,
 * operationId and schema name in `generated/` is derived here from catalogue names.
 */

const words = (text: string): string[] => text.split(/[^A-Za-z0-9]+/).filter(Boolean);
const capital = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/** `fleet`, `fuel-logs` → `FleetFuelLogs`. */
function pascalName(...parts: string[]): string {
  return parts.flatMap(words).map(capital).join('');
}

/** `fleet`, `fuel-logs` → `FLEET_FUEL_LOGS`. */
function constantName(...parts: string[]): string {
  return parts
    .flatMap(words)
    .map((w) => w.toUpperCase())
    .join('_');
}

/** Record schema / type name of a resource: `FleetFuelLogsRecord`. */
export const recordTypeName = (domain: string, resource: string): string => `${pascalName(domain, resource)}Record`;
/** Constant holding a resource's spec: `FLEET_FUEL_LOGS`. */
export const resourceConstName = (domain: string, resource: string): string => constantName(domain, resource);
/** operationIds, a verb per kind of route: `listFleetFuelLogs`, `getFleetFuelLogs`. */
export const operationId = (verb: string, domain: string, resource: string): string => `${verb}${pascalName(domain, resource)}`;
/** Constant listing a domain's resources: `FLEET_RESOURCES`. */
export const domainResourcesConstName = (domain: string): string => `${constantName(domain)}_RESOURCES`;
/** Constant listing a domain's routes: `FLEET_ROUTES`. */
export const domainRoutesConstName = (domain: string): string => `${constantName(domain)}_ROUTES`;
