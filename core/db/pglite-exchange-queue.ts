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
  /**
   * Told of every NotificationResponse the session sends, whichever connection's exchange carried it
   * (the session LISTENs once for the whole process: see embedded.ts). Called before the bytes reach
   * that connection, so before the committing client learns that its transaction committed.
   */
  onNotification: ((channel: string, payload: string) => void) | null = null;

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
        const scan = this.onNotification ? new NotificationScanner(this.onNotification) : null;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(next.message, {
              onRawData: (data) => {
                bytes += data.length;
                scan?.feed(data);
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

const NOTIFICATION = 'A'.charCodeAt(0);

/**
 * Finds NotificationResponse messages ('A', length, pid, channel, payload) in a stream of backend
 * messages that arrives in chunks of any size: headers and bodies may be split across chunks. Only the
 * bodies of notifications are kept; everything else is skipped by its length.
 */
class NotificationScanner {
  private readonly emit: (channel: string, payload: string) => void;
  private readonly header = new Uint8Array(5);
  private headerFill = 0;
  /** Bytes of the current message's body not yet seen. */
  private left = 0;
  /** The current notification's body, when the message is one. */
  private body: Uint8Array[] | null = null;

  constructor(emit: (channel: string, payload: string) => void) {
    this.emit = emit;
  }

  feed(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.left === 0 && this.body === null) {
        const take = Math.min(5 - this.headerFill, chunk.length - at);
        this.header.set(chunk.subarray(at, at + take), this.headerFill);
        this.headerFill += take;
        at += take;
        if (this.headerFill < 5) return;
        this.headerFill = 0;
        const length = new DataView(this.header.buffer).getInt32(1) - 4;
        this.left = length;
        this.body = this.header[0] === NOTIFICATION ? [] : null;
        if (length === 0) this.finish();
        continue;
      }
      const take = Math.min(this.left, chunk.length - at);
      this.body?.push(chunk.slice(at, at + take));
      this.left -= take;
      at += take;
      if (this.left === 0) this.finish();
    }
  }

  private finish(): void {
    const parts = this.body;
    this.body = null;
    if (!parts) return;
    const body = Buffer.concat(parts);
    // int32 pid, then channel and payload as NUL-terminated strings
    const channelEnd = body.indexOf(0, 4);
    const payloadEnd = body.indexOf(0, channelEnd + 1);
    if (channelEnd < 0 || payloadEnd < 0) return;
    this.emit(body.toString('utf8', 4, channelEnd), body.toString('utf8', channelEnd + 1, payloadEnd));
  }
}
