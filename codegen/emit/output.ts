/** @module What an emitter produces: files keyed by their path under `generated/`. */

export type GeneratedFiles = Map<string, string>;

/** Stable JSON: keys in insertion order (emitters build objects in a fixed order), 2 spaces, LF, final newline. */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
