/**
 * The generator's golden files, as openapi-typescript's examples and kysely-codegen's snapshots:
 * each fixture catalogue (tests/fixtures/<case>/catalogue/*.yaml) has its expected generated/ tree
 * committed beside it, and generating the catalogue gives exactly that tree, byte for byte (no file
 * missing, none extra). A change of the generator shows as a diff of those files; `make fixtures`
 * rewrites them after a change made on purpose.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { generate } from '../../codegen/generate';

const root = join(__dirname, '..', '..');
const fixtures = join(root, 'tests', 'fixtures');
const schemaFile = join(root, 'catalogue', 'catalogue.schema.json');
const cases = readdirSync(fixtures).filter((name) => existsSync(join(fixtures, name, 'catalogue')));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));
}

describe('the fixture catalogues', () => {
  it('are there', () => {
    expect(cases).toContain('small');
  });

  describe.each(cases)('%s', (name) => {
    const expectedDir = join(fixtures, name, 'generated');
    const generated = generate({ catalogueDir: join(fixtures, name, 'catalogue'), root, schemaFile });

    it('generates exactly the files of its expected tree', () => {
      const expected = filesUnder(expectedDir).map((file) => relative(expectedDir, file).split('\\').join('/'));
      expect([...generated.keys()].sort()).toEqual(expected.sort());
    });

    it.each([...generated.keys()].sort())('generates %s as committed', (path) => {
      expect(generated.get(path)).toBe(readFileSync(join(expectedDir, path), 'utf8'));
    });
  });
});
