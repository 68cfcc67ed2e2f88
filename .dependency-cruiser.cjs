/**
 * Which part of the project may import which (`make lint`, part of `make test`). The gateway that
 * runs in production is the gateway package (packages/gateway: runtime/ + generated/) and the wire
 * codec package; everything else is the generator, the Odoo imitation (the sandbox package), the tools
 * that prove it against a real Odoo, the demo launcher and the tests. Workspace packages are imported
 * by their names.
 *
 *   @ops-data-gateway/sandbox ──────────────► @ops-data-gateway/codec ◄── @ops-data-gateway/gateway
 *                                                                          (runtime/ ◄── generated/)
 *   live/, bench/, tools/, tests/ ──► any of the three packages
 *   codegen/ ──► packages/gateway/runtime/resource-spec.ts and route-kinds.ts (their types only, by
 *                path: the generator builds before the gateway it generates)
 */
/**
 * Inside the sandbox the folders are layers, each importing only the ones below it (a folder that
 * imports one above it makes a cycle between folders): store (SQLite) ← orm (domains, orders, reads)
 * ← models (Odoo's model definitions) and seed (demo data) ← security (users, keys) ← http (the
 * transports) ← cli.ts / run-demo.ts.
 */
const SANDBOX_LAYERS = [['store'], ['orm'], ['models', 'seed'], ['security'], ['http']];

function sandboxLayers() {
  return SANDBOX_LAYERS.slice(0, -1).map((layer, i) => {
    const above = SANDBOX_LAYERS.slice(i + 1).flat();
    return {
      name: `sandbox-${layer.join('-')}-below-${above.join('-')}`,
      severity: 'error',
      comment: `sandbox/${layer.join(', sandbox/')} may not import sandbox/${above.join(', sandbox/')} or the sandbox's entry points.`,
      from: { path: `^packages/sandbox/src/(${layer.join('|')})/` },
      to: { path: `^packages/sandbox/src/(${above.join('|')})/|^packages/sandbox/src/[^/]+\\.ts$` },
    };
  });
}

/** Each workspace package and the folders of its sources. */
const WORKSPACE_PACKAGES = { codec: 'src', gateway: '(runtime|generated)', sandbox: 'src' };
const GATEWAY = '^packages/gateway/(runtime|generated)/';
/** What the generator and the runtime share: the shape of a resource's spec and the declaration of the route kinds. */
const SHARED_TYPES = '^packages/gateway/runtime/(resource-spec|route-kinds)\\.ts$';

/** A workspace package is imported by its name: it has its own build, and production installs it as a package. */
function byItsName([name, sources]) {
  return {
    name: `${name}-by-its-name`,
    severity: 'error',
    comment: `@ops-data-gateway/${name} is imported by its name, never by a path into packages/${name} (the generator's types excepted).`,
    from: { path: `^(?!packages/${name}/)`, pathNot: '^codegen/' },
    to: { path: `^packages/${name}/${sources}/` },
  };
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle makes a module impossible to read, test or move alone.',
      from: { path: '^(packages/[^/]+/(src|runtime|generated)|codegen|live|bench|tools)/' },
      to: { circular: true },
    },
    {
      name: 'gateway-runs-alone',
      severity: 'error',
      comment: 'What production runs never imports the generator, the sandbox, the live tools, the bench or the tests.',
      from: { path: `${GATEWAY}|^packages/codec/` },
      to: { path: '^(codegen|packages/sandbox|live|bench|tools|tests)/' },
    },
    {
      name: 'codec-is-a-leaf',
      severity: 'error',
      comment: 'The wire codec is shared by the gateway and the sandbox: it depends on neither.',
      from: { path: '^packages/codec/' },
      to: { pathNot: '^(packages/codec/|node_modules/)' },
    },
    {
      name: 'sandbox-is-not-the-gateway',
      severity: 'error',
      comment: 'The Odoo imitation speaks the wire through the codec, never through the gateway runtime.',
      from: { path: '^packages/sandbox/src/' },
      to: { path: '^(packages/gateway|codegen|live|bench|tools|tests)/' },
    },
    ...sandboxLayers(),
    {
      name: 'codegen-reads-only-the-spec-types',
      severity: 'error',
      comment: "The generator emits the runtime's ResourceSpec shape and route kinds; it imports nothing else of the gateway.",
      from: { path: '^codegen/' },
      to: { path: '^(packages/gateway|packages/sandbox|live|bench|tools|tests)/', pathNot: SHARED_TYPES },
    },
    {
      name: 'codegen-imports-types-only',
      severity: 'error',
      comment: 'The generator reads the shared modules with `import type` only: it never runs code of the gateway it generates.',
      from: { path: '^codegen/' },
      to: { path: SHARED_TYPES, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'production-has-no-dev-dependencies',
      severity: 'error',
      comment:
        "npm ci --omit=dev must be enough to run the gateway: it imports only what its own package.json lists as dependencies (the workspace root's devDependencies are hoisted, so they would resolve here, but not in production).",
      from: { path: `${GATEWAY}|^packages/codec/` },
      to: { dependencyTypes: ['npm-dev', 'npm-no-pkg', 'npm-unknown'] },
    },
    ...Object.entries(WORKSPACE_PACKAGES).map(byItsName),
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', '^packages/[^/]+/dist/'] },
    exclude: { path: '^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
