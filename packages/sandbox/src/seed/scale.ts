/**
 * @module Growing a model to a row count for benchmarks (`--scale fleet.vehicle=1000000`): the
 * same row builder as the demo data, without remembering the rows; their many2ones point at demo
 * rows (so `copy` hints stay consistent) and each gets one many2many link.
 */
import type { Database } from '../store/database';
import { prepareInsert, linkMany2many } from './demo';
import { createRandom } from './prng';
import { planRows, type SeedState } from './rows';

/** Adds rows to `model` until it has `target` rows; returns how many were added. */
export function growModel(db: Database, state: SeedState, modelName: string, target: number): number {
  const model = state.registry.get(modelName);
  if (!model) throw new Error(`Cannot scale ${modelName}: no such model`);
  const current = (db.prepare(`SELECT COUNT(*) AS n FROM "${model.table}"`).get() as { n: number }).n;
  if (target <= current) return 0;
  const plan = planRows(state, model, { scaled: true });
  const insert = prepareInsert(db, model, plan.columns);
  const random = createRandom(state.seed, model.name, 'scale');
  for (let index = current; index < target; index++) insert.run(plan.build(index, random));
  linkMany2many(db, state, model, 1, current + 1, target);
  return target - current;
}
