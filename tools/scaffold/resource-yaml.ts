/**
 * @module A drafted resource written into its domain's catalogue file with the `yaml` package's
 * Document API (nodes, flow maps for fields and filters, comments for the operator). The rest of the
 * file stays byte-identical: the resource's text is placed after the last resource, never by
 * re-printing the file (the yaml printer would re-space every flow collection of the catalogue), and
 * the result is parsed back to prove every other node unchanged. A missing domain file is created.
 */
import { isDeepStrictEqual } from 'node:util';
import { Document, isMap, isScalar, isSeq, LineCounter, parseDocument, Scalar, type YAMLMap } from 'yaml';
import type { ResourceDraft } from './draft-resource';

const PRINT = { lineWidth: 0, flowCollectionPadding: true, indent: 2 } as const;
/** Strings a YAML 1.1 reader takes for booleans (Odoo's selection `no` of cost_frequency): quoted for every reader. */
const YAML_11_BOOLEANS = /^(y|yes|n|no|on|off|true|false)$/i;

export type Placed = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

/** Whether the domain file (its text) already defines the resource. */
export function resourceExists(existing: string, name: string): boolean {
  const resources = parseDocument(existing).get('resources', true);
  return isMap(resources) && resources.items.some((pair) => isScalar(pair.key) && pair.key.value === name);
}

/** `existing`: the domain file's text, or undefined to create it. */
export function placeResource(existing: string | undefined, domain: string, name: string, draft: ResourceDraft): Placed {
  if (existing === undefined) return { ok: true, text: newDomainFile(domain, name, draft) };
  const lineCounter = new LineCounter();
  const document = parseDocument(existing, { lineCounter });
  if (document.errors.length) return { ok: false, message: `the domain file does not parse: ${document.errors[0]?.message.split('\n')[0]}` };
  const resources = document.get('resources', true);
  if (!isMap(resources) || resources.items.length === 0) return { ok: false, message: "the domain file has no 'resources' map to add to" };
  if (resourceExists(existing, name)) return { ok: false, message: `resource '${name}' already exists in domain '${domain}': the scaffold never overwrites one` };
  const firstKey = resources.items[0]?.key;
  const indent = isScalar(firstKey) && firstKey.range ? lineCounter.linePos(firstKey.range[0]).col - 1 : 2;
  const fragment = printResource(name, draft)
    .split('\n')
    .map((line) => (line ? ' '.repeat(indent) + line : line))
    .join('\n');
  // After the line that ends the resources map.
  const end = resources.range?.[1] ?? existing.length;
  const lineEnd = existing.indexOf('\n', Math.max(0, end - 1));
  const at = lineEnd === -1 ? existing.length : lineEnd + 1;
  const head = existing.slice(0, at);
  const text = `${head}${head.endsWith('\n') ? '' : '\n'}${fragment}${existing.slice(at)}`;
  return unchangedElsewhere(existing, text, name);
}

/** The new text holds the old document plus one resource, nothing else changed. */
function unchangedElsewhere(before: string, after: string, name: string): Placed {
  const old = parseDocument(before).toJS() as { resources: Record<string, unknown> };
  const now = parseDocument(after);
  if (now.errors.length) return { ok: false, message: `placing the resource broke the file: ${now.errors[0]?.message.split('\n')[0]}` };
  const data = now.toJS() as { resources: Record<string, unknown> };
  const { [name]: added, ...rest } = data.resources;
  if (added === undefined || !isDeepStrictEqual({ ...data, resources: rest }, old))
    return { ok: false, message: 'placing the resource would have changed the rest of the file: not written' };
  return { ok: true, text: after };
}

function newDomainFile(domain: string, name: string, draft: ResourceDraft): string {
  const document = new Document({ domain, title: titleOf(domain), description: `${titleOf(domain)} data from the ERP.` });
  document.commentBefore = ` ${titleOf(domain)}: created by make scaffold; title and description are the operator's to write.`;
  const text = document.toString(PRINT);
  const resource = printResource(name, draft)
    .split('\n')
    .map((line) => (line ? `  ${line}` : line))
    .join('\n');
  return `${text}resources:\n${resource}`;
}

/** `name:` and the resource under it, at indentation 0 (the caller indents). */
function printResource(name: string, draft: ResourceDraft): string {
  const document = new Document({
    [name]: {
      title: draft.title,
      description: draft.description,
      model: draft.model,
      default_order: draft.defaultOrder,
      ...(draft.orderOnly.length ? { order_only: draft.orderOnly } : {}),
      ...(draft.scope.length ? { scope: draft.scope } : {}),
      fields: Object.fromEntries(draft.fields.map((f) => [f.name, f.spec])),
      ...(draft.filters.length ? { filters: Object.fromEntries(draft.filters.map((f) => [f.name, f.spec])) } : {}),
    },
  });
  const top = document.contents as YAMLMap;
  const resourcePair = top.items[0];
  if (resourcePair && isScalar(resourcePair.key)) resourcePair.key.commentBefore = draft.notes.resource.map((line) => ` ${line}`).join('\n');
  const resource = resourcePair?.value as YAMLMap;
  for (const pair of resource.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (key === 'default_order' && isScalar(pair.key)) pair.key.commentBefore = ` ${draft.notes.defaultOrder}`;
    if (key === 'scope' && isScalar(pair.key) && draft.notes.scope) pair.key.commentBefore = ` ${draft.notes.scope}`;
    if (key === 'filters' && isScalar(pair.key)) pair.key.commentBefore = ` ${draft.notes.filters}`;
    if (key === 'order_only' && isMapOrSeq(pair.value)) pair.value.flow = true;
  }
  const scope = resource.get('scope', true);
  for (const term of isSeq(scope) ? scope.items : []) {
    if (!isMap(term)) continue;
    term.flow = true;
    quoteOp(term);
  }
  const fields = resource.get('fields', true);
  for (const pair of isMap(fields) ? fields.items : []) {
    const draftField = draft.fields.find((f) => isScalar(pair.key) && f.name === pair.key.value);
    const value = pair.value as YAMLMap;
    // A field with an enum is a block (its values listed one per line); the others fit on their line.
    if (!value.has('enum')) value.flow = true;
    const erp = value.get('erp', true);
    if (isMapOrSeq(erp)) erp.flow = true;
    const values = value.get('enum', true);
    for (const item of isSeq(values) ? values.items : []) if (isScalar(item) && YAML_11_BOOLEANS.test(String(item.value))) item.type = Scalar.QUOTE_DOUBLE;
    if (draftField?.comment) value.comment = ` ${draftField.comment}`;
  }
  const filters = resource.get('filters', true);
  for (const pair of isMap(filters) ? filters.items : []) {
    const value = pair.value as YAMLMap;
    value.flow = true;
    quoteOp(value);
  }
  return document.toString(PRINT);
}

/** `op: "="`, `op: ">="` as the catalogue writes them (a bare `=` is valid YAML, but reads as a typo). */
function quoteOp(map: YAMLMap): void {
  const op = map.get('op', true);
  if (isScalar(op) && /^[=<>]/.test(String(op.value))) op.type = Scalar.QUOTE_DOUBLE;
}

function isMapOrSeq(node: unknown): node is { flow: boolean } {
  return typeof node === 'object' && node !== null && 'flow' in node && 'items' in node;
}

function titleOf(domain: string): string {
  const words = domain.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
