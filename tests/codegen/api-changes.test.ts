/**
 * The generator says what a regeneration changed in the API as it writes (`make generate`, and the
 * dev loop on every save): the compiled CLI, run on a copy of the catalogue and of generated/, prints
 * a field removed as breaking (with what CI then asks) and a field added as additive; a run that
 * changes nothing says nothing of the API.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'codegen', 'index.js');

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'odg-api-changes-'));
  cpSync(join(root, 'catalogue'), join(dir, 'catalogue'), { recursive: true });
  cpSync(join(root, 'packages', 'gateway', 'generated'), join(dir, 'generated'), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function generate(): string {
  return execFileSync(process.execPath, [cli, '--catalogue', join(dir, 'catalogue'), '--out', join(dir, 'generated')], { encoding: 'utf8' });
}

describe("the generator's output states what changed in the API", () => {
  it('says nothing of the API when the catalogue is unchanged', () => {
    expect(generate()).not.toMatch(/API changes/);
  });

  it('prints a removed field as breaking and an added one as additive, with what CI asks of a break', () => {
    const file = join(dir, 'catalogue', 'fleet.yaml');
    const text = readFileSync(file, 'utf8');
    const vin = /^ {6}vin: .*\n/m;
    expect(text).toMatch(vin);
    writeFileSync(file, text.replace(vin, '      colour: { type: string, description: Colour., erp: color }\n'));
    const output = generate();
    expect(output).toMatch(/^API changes: 1 breaking, 1 additive$/m);
    expect(output).toMatch(/^ {2}breaking {2}\[property-removed\] GET \/api\/v1\/fleet\/vehicles: Property `vin` of `FleetVehiclesRecord` was removed\.$/m);
    expect(output).toMatch(/^ {2}additive {2}added .*\/properties\/colour on GET \/api\/v1\/fleet\/vehicles/m);
    expect(output).toMatch(/a breaking change fails CI \(make openapi-diff\) unless the major version in catalogue\/api\.yaml goes up/);
  });
});
