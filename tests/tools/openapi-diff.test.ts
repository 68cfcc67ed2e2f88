/**
 * The breaking-change gate (`make openapi-diff`): each class of change an operator can make in the
 * catalogue, generated into before/after OpenAPI documents by the real generator, gets the verdict
 * the issue asks for; a major version bump or an acknowledgement added with the change lets a break
 * through, an old acknowledgement does not; a git base that a shallow clone or the first commit
 * cannot have is said and passes, an unknown one is an error.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCatalogue } from '../../codegen/generate';
import { openApiDocument } from '../../codegen/emit/openapi/document';
import { openApiDiff } from '../../tools/openapi-diff/cli';

const root = join(__dirname, '..', '..');

/** A one-resource domain; each case edits it as an operator would. */
const DEMO = `domain: demo
title: Demo
description: A demo domain.
resources:
  things:
    title: Things
    description: Things.
    model: demo.thing
    default_order: name asc
    fields:
      id: { type: integer, description: Identifier., erp: id }
      name: { type: string, description: Name., erp: name }
      count: { type: integer, description: Count., erp: count }
      done: { type: boolean, description: Done., erp: done }
      state: { type: string, description: State., enum: [draft, open, closed], erp: state }
      owner: { type: string, description: Owner., erp: { many2one: owner_id, comodel: res.users } }
      owner_id: { type: integer, description: Owner's id., erp: { many2one: owner_id, comodel: res.users } }
    filters:
      name: { op: ilike, field: name }
      state: { op: "=", field: state }
      kind: { op: "=", erp: kind, type: enum, values: [a, b] }
  others:
    title: Others
    description: Others.
    model: demo.other
    default_order: id asc
    fields:
      id: { type: integer, description: Identifier., erp: id }
`;

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'odg-openapi-diff-test-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let serial = 0;
/** The OpenAPI document the generator makes of the demo catalogue (at `version`), as a file. */
/** What the one document edit of these cases touches. */
type Editable = { paths: Record<string, { get: { parameters: { name?: string; required?: boolean }[] } }> };

function documentOf(catalogue: string, version = '1.0.0', edit?: (doc: Editable) => void): string {
  const at = join(dir, `catalogue-${++serial}`);
  mkdirSync(at);
  copyFileSync(join(root, 'catalogue', 'catalogue.schema.json'), join(at, 'catalogue.schema.json'));
  writeFileSync(join(at, 'api.yaml'), `version: ${version}\n`);
  writeFileSync(join(at, 'demo.yaml'), catalogue);
  const doc = openApiDocument(readCatalogue({ catalogueDir: at, root: at })) as unknown as Editable;
  edit?.(doc);
  const file = join(at, 'openapi.json');
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

function edited(from: string, to: string): string {
  if (!DEMO.includes(from)) throw new Error(`the demo catalogue lacks: ${from}`);
  return DEMO.replace(from, to);
}

function acknowledgements(...changes: string[]): string {
  const file = join(dir, `ack-${++serial}.yaml`);
  writeFileSync(file, `acknowledged:\n${changes.map((c) => `  - change: ${JSON.stringify(c)}\n    reason: Agreed with every consumer.\n`).join('') || '  []\n'}`);
  return file;
}

async function gate(base: string, revision: string, ...extra: string[]): Promise<{ code: number; text: string }> {
  let text = '';
  const code = await openApiDiff(
    ['--base-file', base, '--revision-file', revision, '--acknowledged', acknowledgements(), ...extra],
    {
      write: (t) => {
        text += t;
      },
    },
    root,
  );
  return { code, text };
}

const original = () => documentOf(DEMO);

describe('openapi-diff classes each change', () => {
  it.each([
    ['a route removed', () => documentOf(DEMO.slice(0, DEMO.indexOf('  others:'))), '[path-removed] /api/v1/demo/others: Path `/api/v1/demo/others` was removed.'],
    [
      'a field removed',
      () => documentOf(edited('      count: { type: integer, description: Count., erp: count }\n', '')),
      '[property-removed] GET /api/v1/demo/things: Property `count` of `DemoThingsRecord` was removed.',
    ],
    [
      'a filter removed',
      () => documentOf(edited('      name: { op: ilike, field: name }\n', '')),
      '[parameter-removed] GET /api/v1/demo/things: `name` query parameter was removed.',
    ],
    [
      'a type changed',
      () => documentOf(edited('count: { type: integer', 'count: { type: number')),
      "[schema-type-changed] GET /api/v1/demo/things: Type of `count` widened from 'integer | null' to 'number | null'.",
    ],
    ['an enum value removed from a filter', () => documentOf(edited('values: [a, b]', 'values: [a]')), "[enum-values-removed] GET /api/v1/demo/things: Enum lost values: 'b'."],
    [
      'an enum value added to a response',
      () => documentOf(edited('enum: [draft, open, closed]', 'enum: [draft, open, closed, archived]')),
      "[enum-values-added] GET /api/v1/demo/things: Enum of `state` gained values: 'archived'.",
    ],
    [
      'a field that becomes nullable',
      () => documentOf(edited('done: { type: boolean,', 'done: { type: boolean, nullable: true,')),
      "[schema-type-changed] GET /api/v1/demo/things: Type of `done` widened from 'boolean' to 'boolean | null'.",
    ],
    [
      'a parameter that becomes required (no catalogue key makes one: the document is edited)',
      () =>
        documentOf(DEMO, '1.0.0', (doc) => {
          const name = doc.paths['/api/v1/demo/things']?.get.parameters.find((p) => p.name === 'name');
          if (name) name.required = true;
        }),
      '[parameter-became-required] GET /api/v1/demo/things: `name` query parameter became required.',
    ],
  ])('breaking: %s, refused without a major bump or an acknowledgement (exit 1)', async (_name, after, line) => {
    const { code, text } = await gate(original(), after());
    expect(text).toContain(`  ${line}\n      REFUSED\n`);
    expect(text).toMatch(/^Breaking \(\d+\):$/m);
    expect(code).toBe(1);
  });

  it.each([
    [
      'a resource added',
      edited(
        '  others:\n',
        '  extras:\n    title: Extras\n    description: Extras.\n    model: demo.extra\n    default_order: id asc\n    fields:\n      id: { type: integer, description: Identifier., erp: id }\n  others:\n',
      ),
      // A resource's routes: list, export, aggregate, detail (more than the changelog names one by one).
      'added route on 4 routes',
    ],
    [
      'a field added',
      edited('      done:', '      colour: { type: string, description: Colour., erp: colour }\n      done:'),
      'added responses/200/content/application/json/schema/properties/data/items/properties/colour on GET /api/v1/demo/things',
    ],
    ['a filter added', edited('      kind:', '      owner_id: { op: "=", erp: owner_id, type: integer }\n      kind:'), 'added parameters/'],
    ['an enum value added to a filter only', edited('values: [a, b]', 'values: [a, b, c]'), 'modified parameters/'],
  ])('additive: %s passes (exit 0)', async (_name, catalogue, fragment) => {
    const { code, text } = await gate(original(), documentOf(catalogue));
    expect(text).toContain('Breaking (0):');
    expect(text).toContain(fragment);
    expect(code).toBe(0);
  });

  it('leaves prose out: a description reworded is no change of the contract', async () => {
    const { code, text } = await gate(original(), documentOf(edited('description: Count.', 'description: How many there are.')));
    expect(text).toContain('Breaking (0):\nAdditive (0):\n');
    expect(code).toBe(0);
  });

  it('lets a breaking change through with a major version bump in catalogue/api.yaml', async () => {
    const { code, text } = await gate(original(), documentOf(edited('      name: { op: ilike, field: name }\n', ''), '2.0.0'));
    expect(text).toContain('accepted: major version bump 1.0.0 -> 2.0.0');
    expect(code).toBe(0);
  });

  it('does not take a minor bump for a major one', async () => {
    expect((await gate(original(), documentOf(edited('      name: { op: ilike, field: name }\n', ''), '1.1.0'))).code).toBe(1);
  });

  it('lets a breaking change through when an acknowledgement added since the base names it (* for any text), not when the base already had it', async () => {
    const line = '[parameter-removed] GET /api/v1/demo/things: `name` query parameter was removed.';
    const after = documentOf(edited('      name: { op: ilike, field: name }\n', ''));
    const ack = acknowledgements('[parameter-removed] GET /api/v1/demo/*: `name` query parameter was removed.');
    let text = '';
    const write = (t: string) => {
      text += t;
    };
    expect(await openApiDiff(['--base-file', original(), '--revision-file', after, '--acknowledged', ack], { write }, root)).toBe(0);
    expect(text).toContain(`  ${line}\n      accepted: acknowledged (line 2): Agreed with every consumer.\n`);
    expect(await openApiDiff(['--base-file', original(), '--revision-file', after, '--acknowledged', ack, '--base-acknowledged', ack], { write }, root)).toBe(1);
  });

  it('refuses an acknowledgement without a reason (exit 2)', async () => {
    const ack = join(dir, 'no-reason.yaml');
    writeFileSync(ack, 'acknowledged:\n  - change: "[parameter-removed] GET /x: y"\n');
    let text = '';
    expect(
      await openApiDiff(
        ['--base-file', original(), '--revision-file', original(), '--acknowledged', ack],
        {
          write: (t) => {
            text += t;
          },
        },
        root,
      ),
    ).toBe(2);
    expect(text).toContain("no-reason.yaml:2: the acknowledgement of '[parameter-removed] GET /x: y' needs a 'reason'");
  });
});

describe('openapi-diff against a git base', () => {
  const GENERATED = join('packages', 'gateway', 'generated');
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.test', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8', stdio: 'pipe' });
  let repo = '';
  const commit = (openapi: string, message: string) => {
    copyFileSync(openapi, join(repo, GENERATED, 'openapi.json'));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', message);
  };
  const run = async (at: string, ...argv: string[]) => {
    let text = '';
    const code = await openApiDiff(
      argv,
      {
        write: (t) => {
          text += t;
        },
      },
      at,
    );
    return { code, text };
  };

  beforeAll(() => {
    repo = join(dir, 'repo');
    mkdirSync(join(repo, GENERATED), { recursive: true });
    mkdirSync(join(repo, 'catalogue'));
    writeFileSync(join(repo, 'catalogue', 'acknowledged-changes.yaml'), 'acknowledged: []\n');
    git(repo, 'init', '-q');
    commit(original(), 'first');
  });

  it('has nothing to compare on the first commit, and says so (exit 0)', async () => {
    const { code, text } = await run(repo, '--base', 'HEAD~1');
    expect(text).toBe('openapi-diff: nothing to compare: HEAD~1 does not exist: HEAD is the first commit\n');
    expect(code).toBe(0);
  });

  it('compares with the document committed at the base, and says a ref the repository does not have (exit 2)', async () => {
    commit(documentOf(edited('      name: { op: ilike, field: name }\n', '')), 'second: a filter removed');
    const { code, text } = await run(repo, '--base', 'HEAD~1');
    expect(text).toContain('packages/gateway/generated/openapi.json at HEAD~1 (API 1.0.0) -> packages/gateway/generated/openapi.json (API 1.0.0)');
    expect(code).toBe(1);
    expect(await run(repo, '--base', 'no-such-branch')).toEqual({ code: 2, text: "openapi-diff: unknown git ref 'no-such-branch'\n" });
  });

  it('compares with a base from before the gateway was packages/gateway, where the document was generated/openapi.json', async () => {
    const before = join(dir, 'before-the-move');
    mkdirSync(join(before, 'generated'), { recursive: true });
    mkdirSync(join(before, 'catalogue'));
    writeFileSync(join(before, 'catalogue', 'acknowledged-changes.yaml'), 'acknowledged: []\n');
    git(before, 'init', '-q');
    copyFileSync(original(), join(before, 'generated', 'openapi.json'));
    git(before, 'add', '-A');
    git(before, 'commit', '-qm', 'before the move');
    mkdirSync(join(before, GENERATED), { recursive: true });
    git(before, 'mv', 'generated/openapi.json', `${GENERATED}/openapi.json`);
    copyFileSync(documentOf(edited('      name: { op: ilike, field: name }\n', '')), join(before, GENERATED, 'openapi.json'));
    git(before, 'add', '-A');
    git(before, 'commit', '-qm', 'moved, and a filter removed');
    const { code, text } = await run(before, '--base', 'HEAD~1');
    expect(text).toContain('generated/openapi.json at HEAD~1 (API 1.0.0) -> packages/gateway/generated/openapi.json (API 1.0.0)');
    expect(text).not.toContain('nothing to compare');
    expect(code).toBe(1);
  });

  it('has nothing to compare in a shallow clone without the base, and says so (exit 0)', async () => {
    const shallow = join(dir, 'shallow');
    git(dir, 'clone', '-q', '--depth', '1', `file://${repo}`, shallow);
    const { code, text } = await run(shallow, '--base', 'HEAD~1');
    expect(text).toContain('nothing to compare: HEAD~1 is not in this shallow clone');
    expect(code).toBe(0);
  });
});
