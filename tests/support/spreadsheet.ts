/**
 * Opens a CSV text in a real spreadsheet engine, Debian's LibreOffice Calc (`libreoffice-calc`; `.ci/run`
 * and `make test-tools` install it), headless, as a user opening a downloaded export would, and reads
 * back what it made of every cell: the formula it found (if any), the type and value it computed, and
 * the text it shows. LibreOffice converts the CSV to a flat OpenDocument spreadsheet (`.fods`, one XML
 * file) with a fresh user profile; Python's XML parser (/usr/bin/python3) reads that file.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SpreadsheetCell {
  /** The formula the spreadsheet stored and computed (`of:=1+1`), or null. */
  readonly formula: string | null;
  /** What it holds: `float`, `string`, … (null for an empty cell). */
  readonly type: string | null;
  /** The number it holds, for numeric cells. */
  readonly value: number | null;
  /** The text it shows (paragraphs joined by `\n`, tabs as `\t`). */
  readonly text: string;
}

/**
 * CSV import options (LibreOffice's token list): comma, double quote, UTF-8 (76), from line 1, no
 * column formats, English (US), quoted fields not forced to text, no special-number detection, then
 * the 13th, "evaluate formulas", on: the worst case, where a spreadsheet computes what a cell says.
 */
const CSV_IMPORT = 'CSV:44,34,76,1,,1033,false,false,false,false,false,-1,true';
/** LibreOffice's start is slow on a loaded machine: generous, but bounded. */
const CONVERSION_LIMIT_MS = 120_000;

const READ_FODS = `
import json, sys, xml.etree.ElementTree as ET
T = '{urn:oasis:names:tc:opendocument:xmlns:table:1.0}'
O = '{urn:oasis:names:tc:opendocument:xmlns:office:1.0}'
X = '{urn:oasis:names:tc:opendocument:xmlns:text:1.0}'
def shown(element):
    out = element.text or ''
    for child in element:
        if child.tag == X + 'tab': out += '\\t'
        elif child.tag == X + 's': out += ' ' * int(child.get(X + 'c', '1'))
        elif child.tag == X + 'line-break': out += '\\n'
        else: out += shown(child)
        out += child.tail or ''
    return out
rows = []
for row in ET.parse(sys.argv[1]).getroot().iter(T + 'table-row'):
    cells = []
    for cell in row:
        if cell.tag not in (T + 'table-cell', T + 'covered-table-cell'): continue
        value = cell.get(O + 'value')
        entry = {'formula': cell.get(T + 'formula'), 'type': cell.get(O + 'value-type'), 'value': float(value) if value is not None else None,
                 'text': '\\n'.join(shown(p) for p in cell.findall(X + 'p'))}
        cells.extend([entry] * min(int(cell.get(T + 'number-columns-repeated', '1')), 64))
    rows.append(cells)
json.dump(rows, sys.stdout)
`;

/** Every row of `csv` as LibreOffice Calc opens it (header row first); throws when LibreOffice is missing or fails. */
export function openInSpreadsheet(csv: string): SpreadsheetCell[][] {
  const dir = mkdtempSync(join(tmpdir(), 'odg-calc-'));
  try {
    const file = join(dir, 'export.csv');
    writeFileSync(file, csv);
    const convert = spawnSync(
      'soffice',
      [`-env:UserInstallation=file://${join(dir, 'profile')}`, '--headless', '--norestore', `--infilter=${CSV_IMPORT}`, '--convert-to', 'fods', '--outdir', dir, file],
      { encoding: 'utf8', timeout: CONVERSION_LIMIT_MS },
    );
    if (convert.error) throw new Error(`cannot run soffice (apt-get install libreoffice-calc; .ci/run does): ${convert.error.message}`);
    if (convert.status !== 0) throw new Error(`soffice failed (${convert.status}): ${convert.stderr}`);
    const fods = join(dir, 'export.fods');
    // The file must exist: soffice says nothing when a conversion silently did not happen.
    readFileSync(fods);
    const read = spawnSync('/usr/bin/python3', ['-c', READ_FODS, fods], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (read.status !== 0) throw new Error(`reading the spreadsheet failed: ${read.stderr}`);
    return (JSON.parse(read.stdout) as SpreadsheetCell[][]).filter((row) => row.some((cell) => cell.type !== null || cell.text !== ''));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
