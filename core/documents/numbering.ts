import type { Tx } from '../db/database.ts';
import { BillingError } from '../errors.ts';
import type { OptionsStore } from '../options/options.ts';

export type DocumentKind = 'invoice' | 'quote' | 'credit_note';

const PREFIX_OPTION = { invoice: 'invoice_prefix', quote: 'quote_prefix', credit_note: 'credit_note_prefix' } as const;

/**
 * Takes the next number of a kind's gapless sequence (`INV-0001`, …) inside the creating transaction.
 * The UPDATE locks the sequence row until that transaction ends: concurrent creations queue behind it,
 * and a creation that rolls back releases the number unused — no duplicate, no gap, on any number of
 * instances. Option `next_invoice_number` moves the invoice sequence forward (never back).
 */
export async function takeNumber(tx: Tx, options: OptionsStore, kind: DocumentKind): Promise<string> {
  const o = await options.getMany([PREFIX_OPTION[kind], 'number_padding', 'next_invoice_number'], tx);
  const floor = kind === 'invoice' && o.next_invoice_number ? o.next_invoice_number : 1;
  const rows = await tx.query<{ value: string }>(
    `update billing_sequences set next_value = greatest(next_value, $2) + 1 where kind = $1
     returning next_value - 1 as value`, [kind, floor]);
  return format(o[PREFIX_OPTION[kind]], o.number_padding, BigInt(rows[0]!.value));
}

/** A number given by the caller: refused when that kind already uses it. */
export async function claimNumber(tx: Tx, kind: DocumentKind, number: string): Promise<string> {
  const taken = await tx.query('select 1 from billing_documents where kind = $1 and number = $2', [kind, number]);
  if (taken.length) throw new BillingError('billing_rest_number_taken', `The number ${number} is already used.`, { number });
  return number;
}

export function format(prefix: string, padding: number, value: bigint): string {
  return `${prefix}-${value.toString().padStart(padding, '0')}`;
}
