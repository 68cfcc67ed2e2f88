/**
 * @module Change detection shared by every gateway process through Redis (REDIS_URL; change-watch.ts):
 * one process watches each (account, model) pair, all of them drop. For each pair, in Redis:
 * - a lease (`<prefix>watch:lock:<namespace>:<tag>`): the process holding it makes the checks, and
 *   renews it with each one (three intervals, at least 10 s); another process takes it over when it
 *   lapses (the holder stopped reading the model, or died). Checks therefore cost the ERP what one
 *   process's cost, however many processes there are;
 * - the pair's generation and the start of its last check that answered
 *   (`<prefix>watch:gen:<namespace>:<tag>`, a hash `g`, `at`): every process keys its cached answers
 *   with the generations it reads here, so a change the holder sees drops the answers of all.
 * The namespace names the ERP and the catalogue (cache-key.ts). Redis unusable: each call falls back
 * (no lease, no shared generation); the shared cache is then bypassed anyway (redis-cache-store.ts),
 * so every request reads the ERP: nothing stale can be served.
 */
import type { SharedRedis } from '../shared-state/redis';

/** A pair's shared state: its generation and when its last check that answered began (epoch ms; 0: none yet). */
export interface SharedPairState {
  readonly generation: number;
  readonly checkedAt: number;
}

/** Takes the lease when free, renews it when held by `holder`; 1 when `holder` holds it after the call. */
const LEASE_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if current then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

export class SharedWatch {
  constructor(
    private readonly shared: SharedRedis,
    /** The cache namespace (ERP and catalogue). */
    private readonly namespace: string,
  ) {}

  /** The state of each tag, in order; undefined when Redis cannot answer. */
  state(tags: readonly string[]): Promise<SharedPairState[] | undefined> {
    return this.shared.attempt(
      async (client) => {
        const pipeline = client.pipeline();
        for (const tag of tags) pipeline.hmget(this.key('gen', tag), 'g', 'at');
        const answers = (await pipeline.exec()) ?? [];
        return answers.map(([error, value]) => {
          if (error) throw error;
          const [g, at] = value as [string | null, string | null];
          return { generation: Number(g ?? 0), checkedAt: Number(at ?? 0) };
        });
      },
      () => undefined,
    );
  }

  /** Whether `holder` holds the pair's lease for `ms` more (taking it when free). */
  lead(tag: string, holder: string, ms: number): Promise<boolean> {
    return this.shared.attempt(
      async (client) => (await client.eval(LEASE_SCRIPT, 1, this.key('lock', tag), holder, String(Math.ceil(ms)))) === 1,
      () => false,
    );
  }

  /** A check of the pair began at `at` and answered; `changed`: a new generation. */
  async checked(tag: string, at: number, changed: boolean): Promise<void> {
    await this.shared.attempt(
      async (client) => {
        const key = this.key('gen', tag);
        const multi = client.multi();
        if (changed) multi.hincrby(key, 'g', 1);
        multi.hset(key, 'at', String(at));
        // Kept three days after the last check, longer than any answer lives (a TTL and a stale window
        // of a day each at most): a pair nobody watches any more leaves nothing behind.
        multi.pexpire(key, 3 * 86_400_000);
        await multi.exec();
      },
      () => undefined,
    );
  }

  private key(kind: 'gen' | 'lock', tag: string): string {
    return `${this.shared.keyPrefix}watch:${kind}:${this.namespace}:${tag}`;
  }
}
