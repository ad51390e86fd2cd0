import { AsyncLocalStorage } from 'node:async_hooks';
import type { Tx } from './types.ts';

/**
 * A write that must commit with whatever the current request changes, or not at all: the REST layer's
 * Idempotency-Key row rides in the first transaction its handler opens (core/http/rest/idempotency.ts),
 * so a key is stored if and only if the creation it names is. Set per request with `withRideAlong`;
 * `Database.transaction` asks it in every transaction it opens.
 */
export interface RideAlong {
  /** Called at the start of each transaction of the request; writes (once) and answers whether it wrote in `tx`. */
  join(tx: Tx): Promise<boolean>;
  /** The transaction it wrote in rolled back: the write is gone and may be made again. */
  rolledBack(): void;
}

const storage = new AsyncLocalStorage<RideAlong>();

export function withRideAlong<T>(ride: RideAlong, work: () => Promise<T>): Promise<T> {
  return storage.run(ride, work);
}

export function currentRideAlong(): RideAlong | undefined {
  return storage.getStore();
}
