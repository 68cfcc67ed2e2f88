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

/**
 * Inside the gateway's runtime the folders are concerns, and each rule below keeps one direction
 * (docs/contributing.md draws the map):
 *   request/ (the request's identity: the kernel every layer may import)
 *   ◄── admission/ (everything that can refuse a request) ◄── data-routes/ (the guard and the kinds)
 *   ◄── app.ts; http/ speaks HTTP for all of them; server/ hardens the socket for main.ts; erp/ speaks
 *   to the ERP and raises ERP errors only, which http/erp-errors.ts maps to statuses.
 */
const RUNTIME = '^packages/gateway/runtime/';
/** Where HTTP is spoken and routes are served: what the identity and admission folders never import. */
const HTTP = `${RUNTIME}(http|server|data-routes|mcp)/|${RUNTIME}(app|main)\\.ts$`;
/** What serves the resources: their specs, queries, reads, records, cache, exports and change feed, and the generated catalogue. */
const RESOURCES = `^packages/gateway/generated/|${RUNTIME}(query|changes|export|cache|drift)/|${RUNTIME}(resource-reader|records|erp-requests|record-urls|resource-spec)\\.ts$`;

const RUNTIME_CONCERNS = [
  {
    name: 'request-is-the-kernel',
    severity: 'error',
    comment:
      "request/ (the request's id, trace context, route template and per-request state) is imported by every layer, so it imports none of them: only the ERP layer's per-request accounting (ErpStats).",
    from: { path: `${RUNTIME}request/` },
    to: { path: `${RUNTIME}|^packages/gateway/generated/`, pathNot: `${RUNTIME}(request/|erp/erp-client\\.ts$)` },
  },
  {
    name: 'admission-speaks-no-http',
    severity: 'error',
    comment:
      'admission/ decides whether a request may go on (key, failure limits, rate limit, deadline, memory budget) and says why with a GatewayError; it knows neither how the answer is written (http/, data-routes/) nor what is asked (the resources).',
    from: { path: `${RUNTIME}admission/` },
    to: { path: `${HTTP}|${RESOURCES}` },
  },
  {
    name: 'erp-raises-erp-errors',
    severity: 'error',
    comment:
      'The ERP layer throws no HTTP error type: it raises its own (erp/erp-error.ts), which http/erp-errors.ts, the one place, maps to statuses. It knows nothing of HTTP or of the resources either.',
    from: { path: `${RUNTIME}erp/` },
    to: { path: `${RUNTIME}errors\\.ts$|${HTTP}|${RESOURCES}` },
  },
  {
    name: 'http-speaks-http',
    severity: 'error',
    comment:
      'http/ speaks HTTP (parsing, errors, compression, conditional answers, logs, documents, health) for every route; the data-route core, admission and the resources use it, not the other way round.',
    from: { path: `${RUNTIME}http/` },
    to: { path: `${RUNTIME}(data-routes|admission|mcp|server|query|changes|export|cache)/|${RUNTIME}(resource-reader|records|erp-requests)\\.ts$|^packages/gateway/generated/` },
  },
  {
    name: 'server-hardening-for-main-only',
    severity: 'error',
    comment:
      "Only main.ts starts the listening socket and hardens it (server/); nothing else of the gateway imports it, but the cluster's primary, which answers its workers leaving (server/leave-cluster.ts).",
    from: { path: `${RUNTIME}`, pathNot: `${RUNTIME}(server/|main\\.ts$|cluster-primary\\.ts$)` },
    to: { path: `${RUNTIME}server/` },
  },
  {
    name: 'server-hardening-alone',
    severity: 'error',
    comment: "server/ hardens the listening socket (Node's own answers, time limits, stalled writers) with Node alone: it imports nothing of the gateway.",
    from: { path: `${RUNTIME}server/` },
    to: { path: `${RUNTIME}`, pathNot: `${RUNTIME}server/` },
  },
  {
    name: 'a-route-kind-is-a-unit',
    severity: 'error',
    comment:
      "A kind of data route is one folder (the runtime's data-routes/kinds/<kind>/, the generator's codegen/kinds/<kind>/): it uses what all kinds share, never another kind's folder.",
    from: { path: '^(packages/gateway/runtime/data-routes|codegen)/kinds/([^/]+)/' },
    to: { path: '^(packages/gateway/runtime/data-routes|codegen)/kinds/[^/]+/', pathNot: '^$1/kinds/$2/' },
  },
];

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
    ...RUNTIME_CONCERNS,
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
