/**
 * @module A located problem in a catalogue file: file, line and column, the key it is about, a sentence
 * saying what is wrong and, where the catalogue's rules say, what is allowed there. One line each, as
 * compilers print them (`file:line:column: ...`), so that an editor or a terminal links to the place.
 */

export interface CatalogueError {
  readonly file: string;
  /** 1-based; 0 when the problem has no position (a missing file...). */
  readonly line: number;
  readonly column: number;
  /** The key the problem is about, as a path (`resources.vehicles.fields.plate.type`); absent when the file cannot be read as YAML. */
  readonly key?: string;
  readonly message: string;
  /** What the catalogue accepts there (the values, the keys, the shape), when it says more than the message. */
  readonly allowed?: string;
}

export function formatCatalogueError(error: CatalogueError): string {
  const at = error.line > 0 ? `${error.file}:${error.line}:${error.column}` : error.file;
  return `${at}: ${error.key ? `${error.key}: ` : ''}${error.message}${error.allowed ? `; allowed: ${error.allowed}` : ''}`;
}

/** Thrown once with every problem found, so that a run reports them all. */
export class CatalogueErrors extends Error {
  constructor(readonly errors: readonly CatalogueError[]) {
    super(`${errors.length} problem(s) in the catalogue:\n${errors.map(formatCatalogueError).join('\n')}`);
    this.name = 'CatalogueErrors';
  }
}
