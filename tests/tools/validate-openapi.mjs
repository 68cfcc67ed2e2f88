// Validates an OpenAPI document with @seriousme/openapi-schema-validator (an ESM-only package, hence
// this script, run in its own process by tests/codegen/openapi.test.ts). Prints {valid, version, errors}.
import { Validator } from '@seriousme/openapi-schema-validator';
import { readFileSync } from 'node:fs';

const validator = new Validator();
const document = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const result = await validator.validate(document);
process.stdout.write(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? null }));
