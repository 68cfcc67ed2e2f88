/**
 * @module Prints TypeScript built as ts-morph structures: one in-memory project, formatted by the
 * compiler's own formatter with fixed settings, so that the same structures always print the same bytes.
 */
import { IndentationText, NewLineKind, Project, QuoteKind, type SourceFileStructure, type OptionalKind } from 'ts-morph';
import { TS_BANNER } from '../banner';

const project = new Project({
  useInMemoryFileSystem: true,
  manipulationSettings: {
    indentationText: IndentationText.TwoSpaces,
    newLineKind: NewLineKind.LineFeed,
    quoteKind: QuoteKind.Single,
    useTrailingCommas: true,
  },
});

let counter = 0;

export function printSourceFile(structure: OptionalKind<SourceFileStructure>, source: string): string {
  const file = project.createSourceFile(`/print-${counter++}.ts`, structure, { overwrite: true });
  file.formatText({ indentSize: 2, convertTabsToSpaces: true, ensureNewLineAtEndOfFile: true });
  const text = TS_BANNER(source) + file.getFullText().replace(/\r\n/g, '\n');
  project.removeSourceFile(file);
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** A TypeScript literal for plain data (JSON-compatible), printed with single quotes. */
export function literal(value: unknown, indent = ''): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const next = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((v) => typeof v !== 'object' || v === null)) return `[${value.map((v) => literal(v)).join(', ')}]`;
    return `[\n${value.map((v) => `${next}${literal(v, next)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  const key = (k: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : literal(k));
  return `{\n${entries.map(([k, v]) => `${next}${key(k)}: ${literal(v, next)},`).join('\n')}\n${indent}}`;
}
