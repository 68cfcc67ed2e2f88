/** @module A located problem in a catalogue file: file, line, column and a sentence. */

export interface CatalogueError {
  readonly file: string;
  /** 1-based; 0 when the problem has no position (a missing file...). */
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

export function formatCatalogueError(error: CatalogueError): string {
  return error.line > 0 ? `${error.file}:${error.line}:${error.column}: ${error.message}` : `${error.file}: ${error.message}`;
}

/** Thrown once with every problem found, so that a run reports them all. */
export class CatalogueErrors extends Error {
  constructor(readonly errors: readonly CatalogueError[]) {
    super(`${errors.length} problem(s) in the catalogue:\n${errors.map(formatCatalogueError).join('\n')}`);
    this.name = 'CatalogueErrors';
  }
}
