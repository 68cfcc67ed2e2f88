// Scaffolds every model of the sandbox ERP that no catalogue resource exposes, the way an operator
// would (the compiled `make scaffold`, over JSON-2, with the API account's key), into a copy of
// catalogue/ in WORK_DIR, then generates WORK_DIR/generated from it as `make generate` would. Prints
// one JSON line: { resources, refused } (resource paths, and the models the scaffold refused with why).
// Run by tests/tools/scaffold-sandbox.test.ts before it declares its suites (needs `make build`).
// Usage: node scaffold-sandbox-catalogue.mjs WORK_DIR
import { cpSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

const require = createRequire(import.meta.url);
const root = resolve(import.meta.dirname, '..', '..');
const work = resolve(process.argv[2] ?? '');
const { scaffold } = require(join(root, 'dist/tools/scaffold/cli.js'));
const { generate, readCatalogue } = require(join(root, 'dist/codegen/generate.js'));
const { writeGenerated } = require(join(root, 'dist/codegen/write.js'));
const { MODEL_SOURCES } = require('@ops-data-gateway/sandbox/models/index');
const { initDatabase } = require('@ops-data-gateway/sandbox/seed/init');
const { startSandbox } = require('@ops-data-gateway/sandbox/http/start-sandbox');
const { createDemoKeys } = require('@ops-data-gateway/sandbox/security/demo-keys');

const DOMAIN = 'scaffolded';
const catalogueDir = join(work, 'catalogue');
cpSync(join(root, 'catalogue'), catalogueDir, { recursive: true });
const exposed = new Set(readCatalogue({ catalogueDir, root }).domains.flatMap((d) => d.resources.map((r) => r.model)));
const models = MODEL_SOURCES.flat()
  .map((m) => m.name)
  .filter((name) => !exposed.has(name))
  .sort();

const dbPath = join(work, 'sandbox.db');
initDatabase({ path: dbPath });
const db = new DatabaseSync(dbPath);
const sandbox = await startSandbox({ dbPath, version: 19 });
const keys = createDemoKeys(db, sandbox.database);
db.close();
const env = { ERP_URL: sandbox.url, ERP_DATABASE: sandbox.database, ERP_TRANSPORT: 'json2', ERP_CHECK_KEY: keys.valid };
const resources = [];
const refused = [];
try {
  for (const model of models) {
    const resource = model.replace(/[._]/g, '-');
    let said = '';
    const io = { out: () => undefined, err: (text) => (said += text) };
    const code = await scaffold(['--model', model, '--domain', DOMAIN, '--resource', resource, '--catalogue', catalogueDir], env, io, root);
    if (code === 0) resources.push(`${DOMAIN}/${resource}`);
    else refused.push({ model, code, said: said.trim() });
  }
} finally {
  await sandbox.close();
}
const generatedDir = join(work, 'generated');
mkdirSync(generatedDir, { recursive: true });
writeGenerated(generatedDir, generate({ catalogueDir, root }), false);
process.stdout.write(`${JSON.stringify({ models, resources, refused })}\n`);
