// The messages between a render pool and its workers.

export interface ToWorker {
  id: number;
  /** The definition as JSON text. */
  json: string;
}

export type FromWorker =
  | { type: 'ready'; fontSharing: boolean }
  | { type: 'done'; id: number; bytes: Uint8Array }
  | { type: 'failed'; id: number; message: string; stack: string };
