import type { Tx } from '../db/database.ts';
import { BillingError } from '../errors.ts';
import type { OptionsStore } from '../options/options.ts';
import type { DocumentKind } from './types.ts';

export type { DocumentKind } from './types.ts';

const PREFIX_OPTION = { invoice: 'invoice_prefix', quote: 'quote_prefix', credit_note: 'credit_note_prefix' } as const;

/** Candidates checked per query once the first one turned out taken (a run of numbers given by hand). */
const PROBE_BATCH = 64;

/**
 * Takes the next number of a kind's gapless sequence (`INV-0001`, …) inside the creating transaction.
 * The UPDATE locks the sequence row until that transaction ends: concurrent creations queue behind it,
 * and a creation that rolls back releases the number unused — no duplicate, no gap, on any number of
 * instances. Option `next_invoice_number` moves the invoice sequence forward (never back).
 *
 * A value whose number a document of the kind already bears (given by hand, imported, or made under
 * a prefix or padding that was later set again) is passed over: that number exists, so the series
 * keeps no hole, and no number can stop the sequence (docs/decisions.md, Numbers).
 */
export async function takeNumber(tx: Tx, options: OptionsStore, kind: DocumentKind): Promise<string> {
  const terms = await numberingTerms(tx, options, kind);
  // Takes the value optimistically; once this holds the row lock, the queries below see every number
  // committed by the numberings that held it before.
  const rows = await tx.query<{ value: string }>(
    `update billing_sequences set next_value = greatest(next_value, $2) + 1 where kind = $1
     returning next_value - 1 as value`,
    [kind, terms.floor],
  );
  return settleNumber(tx, kind, terms, BigInt(rows[0]!.value));
}

/** How a kind's numbers look and where its sequence may not go below, from the options. */
export interface NumberingTerms {
  prefix: string;
  padding: number;
  floor: number;
}

export async function numberingTerms(tx: Tx, options: OptionsStore, kind: DocumentKind): Promise<NumberingTerms> {
  const o = await options.getMany([PREFIX_OPTION[kind], 'number_padding', 'next_invoice_number'], tx);
  return {
    prefix: o[PREFIX_OPTION[kind]],
    padding: o.number_padding,
    floor: kind === 'invoice' && o.next_invoice_number ? o.next_invoice_number : 1,
  };
}

/**
 * The statement part that takes the next value of `kind`'s sequence (locking its row until the
 * transaction ends) and formats it as `format` does: `with <seqName> as (…)` and the number's SQL.
 * Placeholders continue `params`' numbering.
 */
export function nextNumberSql(params: unknown[], kind: DocumentKind, terms: NumberingTerms): { seq: string; number: string } {
  const p = (v: unknown) => `$${params.push(v)}`;
  return {
    seq: `update billing_sequences set next_value = greatest(next_value, ${p(terms.floor)}::bigint) + 1 where kind = ${p(kind)}
          returning next_value - 1 as value`,
    number: `${p(terms.prefix)}::text || '-' || lpad(value::text, greatest(${p(terms.padding)}::int, length(value::text)), '0')`,
  };
}

/**
 * The first free number from `first` on (the sequence row already locked and moved past `first`): a
 * number a document of the kind already bears is passed over, and the sequence is moved past the one
 * taken.
 */
export async function settleNumber(tx: Tx, kind: DocumentKind, terms: NumberingTerms, first: bigint): Promise<string> {
  let value = first;
  for (let batch = 1; ; batch = PROBE_BATCH) {
    const candidates = Array.from({ length: batch }, (_, i) => format(terms.prefix, terms.padding, value + BigInt(i)));
    const taken = await tx.query<{ number: string }>('select number from billing_documents where kind = $1 and number = any($2::text[])', [
      kind,
      candidates,
    ]);
    const used = new Set(taken.map((r) => r.number));
    const free = candidates.findIndex((c) => !used.has(c));
    if (free >= 0) {
      value += BigInt(free);
      break;
    }
    value += BigInt(batch);
  }
  if (value !== first) {
    await tx.query('update billing_sequences set next_value = $2 where kind = $1', [kind, (value + 1n).toString()]);
  }
  return format(terms.prefix, terms.padding, value);
}

/**
 * A number given by the caller: refused when that kind already uses it. It takes the kind's sequence
 * row lock first, as `takeNumber` does, so a claim and a creation under way never both decide that the
 * same number is free (the loser would meet the unique key: a 500 instead of a 400, or a wedge).
 */
export async function claimNumber(tx: Tx, kind: DocumentKind, number: string): Promise<string> {
  await tx.query('select 1 from billing_sequences where kind = $1 for update', [kind]);
  const taken = await tx.query('select 1 from billing_documents where kind = $1 and number = $2', [kind, number]);
  if (taken.length) throw new BillingError('billing_rest_number_taken', `The number ${number} is already used.`, { number });
  return number;
}

export function format(prefix: string, padding: number, value: bigint): string {
  return `${prefix}-${value.toString().padStart(padding, '0')}`;
}

/** The most digits an imported number may have to move its sequence (beyond, the value would not fit). */
const MOVABLE_DIGITS = 15;

/**
 * An imported document bears `number`: when it is written as this kind's numbers are now
 * (`<prefix>-<digits>`), the sequence moves past it, so the next document continues after the highest
 * imported one. A number in another format, or too long to be a value, moves nothing — the sequence
 * passes over taken numbers anyway, so no imported number can wedge it. Takes the sequence row lock.
 */
export async function movePastImported(tx: Tx, options: OptionsStore, kind: DocumentKind, number: string): Promise<void> {
  const terms = await numberingTerms(tx, options, kind);
  if (!number.startsWith(`${terms.prefix}-`)) return;
  const digits = number.slice(terms.prefix.length + 1);
  if (!/^\d+$/.test(digits) || digits.replace(/^0+/, '').length > MOVABLE_DIGITS) return;
  await tx.query('update billing_sequences set next_value = greatest(next_value, $2::bigint + 1) where kind = $1', [
    kind,
    BigInt(digits).toString(),
  ]);
}
