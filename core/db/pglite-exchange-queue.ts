import type { PGlite } from '@electric-sql/pglite';

interface Pending {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (err: Error) => void;
}

/** Frontend messages that end an exchange: Sync (extended protocol), Query (simple), Terminate. */
const EXCHANGE_ENDS = new Set(['S', 'Q', 'X'].map((c) => c.charCodeAt(0)));
/** Frontend message types; a message starting with anything else is a startup packet. */
const TYPED = new Set('BCDEFHPQSXcdfp'.split('').map((c) => c.charCodeAt(0)));

/**
 * The order in which several connections' messages reach PGlite's single session.
 *
 * pglite-socket's own queue keeps a *transaction's* messages together, but not an extended-protocol
 * exchange (Parse, Bind, Describe, Execute … Sync) outside one: two connections' exchanges interleave, and
 * one connection's Bind then runs another's unnamed statement — wrong rows, or "portal does not exist".
 * This queue gives the session to one connection from the first message of an exchange until its end
 * (Sync or Query processed with no transaction open), or until its transaction ends, whichever is later.
 * It has pglite-socket's QueryQueueManager interface and replaces it on the server.
 */
export class ExchangeQueue {
  private readonly db: PGlite;
  private readonly queue: Pending[] = [];
  private owner: number | null = null;
  private processing = false;

  constructor(db: PGlite) {
    this.db = db;
  }

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.process();
    });
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  /** A connection went away: drop its messages, roll back what it left open, free the session. */
  clearQueueForHandler(handlerId: number): void {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      if (this.queue[i]!.handlerId === handlerId) this.queue.splice(i, 1)[0]!.reject(new Error('Handler disconnected'));
    }
  }

  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    this.owner = null;
    void this.process();
  }

  private async process(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      for (;;) {
        const index = this.owner === null ? 0 : this.queue.findIndex((p) => p.handlerId === this.owner);
        if (index < 0 || !this.queue.length) break; // the owner's next message has not arrived yet
        const next = this.queue.splice(index, 1)[0]!;
        this.owner = next.handlerId;
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(next.message, {
              onRawData: (data) => {
                bytes += data.length;
                next.onData(data);
              },
            }),
          );
          next.resolve(bytes);
        } catch (err) {
          next.reject(err as Error);
        }
        const type = next.message[0]!;
        const ended = !TYPED.has(type) || EXCHANGE_ENDS.has(type);
        if (ended && !this.db.isInTransaction()) this.owner = null;
      }
    } finally {
      this.processing = false;
    }
  }
}
