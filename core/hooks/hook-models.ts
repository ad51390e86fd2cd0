/**
 * The model types that hooks carry. Each document module widens its entry by declaration merging when
 * it lands, so the hook map never imports the modules (and they can import the hooks without a cycle).
 */
export interface HookModels {
  invoice: { id: number; [field: string]: unknown };
  quote: { id: number; [field: string]: unknown };
  payment: { id: number; [field: string]: unknown };
  creditNote: { id: number; [field: string]: unknown };
  client: { id: number; [field: string]: unknown };
  user: { id: number; [field: string]: unknown };
}
