/**
 * @module Finds the line whose indentation is wrong, for when the YAML parser has failed. The parser
 * reports where its reading broke down, which for a mis-indented key is often the line before it
 * (a deeper key read as the continuation of a plain value) or the one after it (a shallower key that
 * closed the map early). Block structure makes the culprit plain: a key is either at the column of
 * its siblings, one level in after a line that opens a map, or back at the column of an enclosing
 * map; any other column is the mistake.
 */

export interface MisindentedLine {
  /** 1-based line and column of the key. */
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

const KEY = /^(?:- )?([A-Za-z_][\w-]*|"[^"]*"|'[^']*'):(?:\s|$)/;

/** The first line whose key sits at a column no enclosing block allows, if any. */
export function findMisindentedLine(text: string): MisindentedLine | undefined {
  const lines = text.split(/\r?\n/);
  /** Columns (indent widths) of the open blocks, innermost last. */
  const open: number[] = [0];
  let opensBlock = false;
  let blockScalarIndent: number | undefined;
  /** The previous content line when it went back to an enclosing block: `from` is the column it left. */
  let dedent: { line: number; indent: number; key: string; from: number } | undefined;
  for (const [index, raw] of lines.entries()) {
    const content = raw.trimStart();
    if (content === '' || content.startsWith('#')) continue;
    const indent = raw.length - content.length;
    if (blockScalarIndent !== undefined) {
      if (indent > blockScalarIndent) continue;
      blockScalarIndent = undefined;
    }
    const key = KEY.exec(content)?.[1];
    const top = open[open.length - 1] as number;
    if (indent > top) {
      if (opensBlock) open.push(indent);
      // A deeper line after one that opens nothing is a plain value continued, unless it is a key.
      else if (key) {
        // One key out between siblings (`a` at 6, `b` at 4, `c` at 6): `b` is the mistake, not `c`.
        if (dedent?.from === indent) return { line: dedent.line, column: dedent.indent + 1, message: outdented(dedent.key, dedent.indent, indent) };
        return { line: index + 1, column: indent + 1, message: overIndented(key, indent, top) };
      } else continue;
    }
    const previousTop = top;
    dedent = undefined;
    if (indent < top) {
      while ((open[open.length - 1] as number) > indent) open.pop();
      const enclosing = open[open.length - 1] as number;
      if (enclosing !== indent) return { line: index + 1, column: indent + 1, message: between(key ?? content.slice(0, 20), indent, enclosing, top) };
      if (key) dedent = { line: index + 1, indent, key, from: previousTop };
    }
    const value = content.replace(/\s+#.*$/, '');
    opensBlock = key !== undefined && /:$/.test(value);
    if (key !== undefined && /:\s*[|>][+-]?\d*$/.test(value)) blockScalarIndent = indent;
    // `- key: value` opens a map whose next keys align with `key`.
    if (content.startsWith('- ') && key !== undefined) open.push(indent + 2);
  }
  return undefined;
}

function overIndented(key: string, indent: number, expected: number): string {
  return `'${key}' is indented by ${indent} spaces, deeper than the line above allows (${expected}: that line opens no nested map)`;
}

function outdented(key: string, indent: number, siblings: number): string {
  return `'${key}' is indented by ${indent} spaces: the keys before and after it use ${siblings}`;
}

function between(key: string, indent: number, outer: number, inner: number): string {
  return `'${key}' is indented by ${indent} spaces: the keys around it use ${inner}, and the map that holds them ${outer}`;
}
