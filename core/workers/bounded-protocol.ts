// The messages between a bounded pool and its worker threads.

export interface ToThread {
  id: number;
  input: unknown;
}

export type FromThread =
  | { type: 'ready' }
  | { type: 'done'; id: number; output: unknown }
  | {
      type: 'failed';
      id: number;
      /** A BillingError keeps its code, status and data across the thread boundary. */
      error: { message: string; stack?: string; code?: string; status?: number; data?: Record<string, unknown> };
    };
