/**
 * @module `make scaffold MODEL=fleet.vehicle.log.contract DOMAIN=fleet RESOURCE=contracts`: asks the
 * configured ERP (the gateway's settings: ERP_URL, ERP_DATABASE, ERP_TRANSPORT, ERP_LOGIN, and the
 * operator's key ERP_CHECK_KEY, as `make check-erp`) what it knows of a model, drafts a resource
 * (draft-resource.ts) and writes it into catalogue/<domain>.yaml (resource-yaml.ts), creating the
 * file for a new domain. It never overwrites a resource, and writes nothing that `make generate`
 * would refuse: the whole catalogue with the new resource is checked first. Exit 0 written; 1 refused
 * (the resource exists, the draft does not generate); 2 settings, arguments or the ERP.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { CatalogueErrors } from '../../codegen/catalogue-error';
import { readCatalogue } from '../../codegen/generate';
import { ConfigError, loadConfig, type GatewayConfig } from '@ops-data-gateway/gateway/runtime/config';
import { erpErrorSummary } from '@ops-data-gateway/gateway/runtime/erp/erp-error';
import { ErpClient, ErpStats } from '@ops-data-gateway/gateway/runtime/erp/erp-client';
import { draftResource } from './draft-resource';
import { describeModel } from './model-facts';
import { placeResource, resourceExists } from './resource-yaml';

const USAGE =
  'usage: scaffold --model <erp.model> --domain <domain> --resource <resource> [--catalogue <dir>]   (ERP settings from the environment, as for the gateway, with ERP_CHECK_KEY)';
const SEGMENT = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const MODEL = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)+$/;

export interface ScaffoldIo {
  out(text: string): void;
  err(text: string): void;
}

export async function scaffold(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: ScaffoldIo,
  root = resolve(__dirname, '..', '..', '..'),
): Promise<number> {
  const args = parseArgs(argv);
  if ('error' in args) return fail(io, 2, `${args.error}\n${USAGE}`);
  const catalogueDir = resolve(root, args.catalogue ?? 'catalogue');
  const file = join(catalogueDir, `${args.domain}.yaml`);
  const shown = relative(process.cwd(), file) || file;
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  // Refused before the ERP is asked: nothing to learn for a resource that will not be written.
  if (existing !== undefined && resourceExists(existing, args.resource))
    return fail(io, 1, `${shown}: resource '${args.resource}' already exists in domain '${args.domain}': the scaffold never overwrites one`);

  let config: GatewayConfig;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return fail(io, 2, error.message);
    throw error;
  }
  const key = config.driftCheck.key;
  if (!key) return fail(io, 2, "ERP_CHECK_KEY is not set (an API key allowed to read the model; an administrator key also tells the model's _order and indexes)");
  const erp = new ErpClient(config.erp);
  let uid: number | false;
  try {
    uid = await erp.identify(key, new ErpStats());
  } catch (error) {
    return fail(io, 2, `the ERP could not be asked: ${erpErrorSummary(error)}`);
  }
  if (uid === false) return fail(io, 2, 'the ERP refuses ERP_CHECK_KEY');
  const described = await describeModel(erp, { uid, key }, args.model);
  if (!described.ok) return fail(io, 2, described.message);

  const draft = draftResource(described.facts, args.resource);
  const placed = placeResource(existing, args.domain, args.resource, draft);
  if (!placed.ok) return fail(io, 1, `${shown}: ${placed.message}`);
  const problems = checkGenerates(catalogueDir, `${args.domain}.yaml`, placed.text);
  if (problems) return fail(io, 1, `the draft would not generate, nothing written:\n${problems}`);
  writeFileSync(file, placed.text);
  io.out(
    `scaffold: ${existing === undefined ? 'created' : 'added to'} ${shown}: resources.${args.resource} (${args.model}, ${draft.fields.length} fields, ${draft.filters.length} filters, default order ${draft.defaultOrder})\n` +
      described.facts.notes.map((note) => `  note: ${note}\n`).join('') +
      "  review the comments it wrote (personal data, scope, what was left out), then 'make generate'\n",
  );
  return 0;
}

/** The whole catalogue with the new file, read by the generator as `make generate` would: its problems, or undefined. */
function checkGenerates(catalogueDir: string, name: string, text: string): string | undefined {
  const copy = mkdtempSync(join(tmpdir(), 'odg-scaffold-'));
  try {
    cpSync(catalogueDir, copy, { recursive: true });
    writeFileSync(join(copy, name), text);
    readCatalogue({ catalogueDir: copy, root: copy });
    return undefined;
  } catch (error) {
    if (error instanceof CatalogueErrors) return error.message;
    throw error;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

type Args = { model: string; domain: string; resource: string; catalogue?: string };

function parseArgs(argv: readonly string[]): Args | { error: string } {
  const values: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i] as string;
    const value = argv[i + 1];
    if (!['--model', '--domain', '--resource', '--catalogue'].includes(flag)) return { error: `unknown argument ${JSON.stringify(flag)}` };
    if (!value) return { error: `${flag} needs a value` };
    values[flag.slice(2)] = value;
  }
  const { model, domain, resource, catalogue } = values;
  if (!model || !MODEL.test(model)) return { error: `--model must name an ERP model such as fleet.vehicle.log.contract (got ${JSON.stringify(model ?? '')})` };
  if (!domain || !SEGMENT.test(domain)) return { error: `--domain must be a URL segment such as fleet (got ${JSON.stringify(domain ?? '')})` };
  if (!resource || !SEGMENT.test(resource)) return { error: `--resource must be a URL segment such as contracts (got ${JSON.stringify(resource ?? '')})` };
  return { model, domain, resource, ...(catalogue ? { catalogue } : {}) };
}

function fail(io: ScaffoldIo, code: number, message: string): number {
  io.err(`scaffold: ${message}\n`);
  return code;
}

if (require.main === module) {
  void scaffold(process.argv.slice(2), process.env, { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) }).then((code) => {
    process.exitCode = code;
  });
}
