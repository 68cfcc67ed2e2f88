/**
 * `make run` reuses .sandbox/demo.db only when the sandbox that made it had the same tables and
 * columns: the database carries the registry's schema version.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { loadRegistry } from '../src/models';
import { applyRegistryDrift } from '../src/orm/registry-drift';
import { initDatabase, isCurrentDatabase, schemaVersion } from '../src/seed/init';

describe('sandbox schema version', () => {
  const dir = mkdtempSync(join(tmpdir(), 'odg-schema-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('recognises a database made by this sandbox, and not one made by another', () => {
    const path = join(dir, 'demo.db');
    initDatabase({ path });
    expect(isCurrentDatabase(path)).toBe(true);
    const db = new DatabaseSync(path);
    db.exec('PRAGMA user_version = 1');
    db.close();
    expect(isCurrentDatabase(path)).toBe(false);
  });

  it('changes when a model loses a column', () => {
    const registry = loadRegistry();
    expect(schemaVersion(applyRegistryDrift(registry, { removeFields: ['fleet.vehicle.vin_sn'] }))).not.toBe(schemaVersion(registry));
  });
});
