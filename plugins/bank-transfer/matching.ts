// Which invoice a credit entry pays, decided from its remittance information alone: an RF reference (or a
// Swiss QR reference) of an invoice, else exactly one open invoice's number written as a word of its own
// (not part of a longer number); the currency must be the invoice's. Pure: the candidates come in.
import { invoiceIdOfQrReference, referenceBody, rfBodiesIn } from './references.ts';
import type { StatementEntry } from './statement.ts';

export interface Candidate {
  id: number;
  number: string;
  currency: string;
}

export type Match =
  | { status: 'matched'; invoiceId: number; by: 'reference' | 'number' }
  | { status: 'ambiguous'; note: string }
  | { status: 'unmatched'; note: string };

/** Open invoices indexed for matching: by RF body, by number (upper case) and by id. */
export class InvoiceIndex {
  readonly byBody = new Map<string, Candidate[]>();
  readonly byNumber = new Map<string, Candidate>();
  readonly byId = new Map<number, Candidate>();

  constructor(candidates: Iterable<Candidate>) {
    for (const c of candidates) this.add(c);
  }

  add(c: Candidate): void {
    const body = referenceBody(c.number);
    if (body) this.byBody.set(body, [...(this.byBody.get(body) ?? []), c]);
    this.byNumber.set(c.number.toUpperCase(), c);
    this.byId.set(c.id, c);
  }
}

/** Words of free text that could be a document number: letters and digits, joined by - / _ . inside. */
const WORD = /[A-Za-z0-9]+(?:[-/_.][A-Za-z0-9]+)*/g;

/** The references and numbers `entry` names, for `findReferenced` to look up beyond the open invoices. */
export function referencesIn(remittance: string): { rfBodies: string[]; qrIds: number[] } {
  const qrIds = [...remittance.matchAll(/\b\d{2}(?: ?\d{5}){5}\b|\b\d{27}\b/g)]
    .map((m) => invoiceIdOfQrReference(m[0]))
    .filter((id): id is number => id !== null);
  return { rfBodies: rfBodiesIn(remittance), qrIds };
}

/**
 * Matches `entry` against `open` (the open invoices) and `referenced` (every invoice a reference in the
 * text names, open or not: a reference is explicit, so a paid invoice paid again is an overpayment to
 * review, not a miss).
 */
export function matchEntry(entry: StatementEntry, open: InvoiceIndex, referenced: InvoiceIndex = open): Match {
  const { rfBodies, qrIds } = referencesIn(entry.remittance);
  const byReference = new Map<number, Candidate>();
  for (const body of rfBodies) for (const c of referenced.byBody.get(body) ?? open.byBody.get(body) ?? []) byReference.set(c.id, c);
  for (const id of qrIds) {
    const c = referenced.byId.get(id) ?? open.byId.get(id);
    if (c) byReference.set(c.id, c);
  }
  if (byReference.size) return decide([...byReference.values()], entry, 'reference');
  const words = new Set((entry.remittance.match(WORD) ?? []).map((w) => w.toUpperCase()));
  const byNumber = new Map<number, Candidate>();
  for (const w of words) {
    const c = open.byNumber.get(w);
    if (c) byNumber.set(c.id, c);
  }
  if (!byNumber.size) return { status: 'unmatched', note: 'no invoice reference or open invoice number in the remittance' };
  return decide([...byNumber.values()], entry, 'number');
}

function decide(found: Candidate[], entry: StatementEntry, by: 'reference' | 'number'): Match {
  if (found.length > 1) return { status: 'ambiguous', note: `names ${found.map((c) => c.number).join(', ')}` };
  const c = found[0]!;
  if (c.currency !== entry.currency)
    return { status: 'unmatched', note: `${c.number} is in ${c.currency}, the transfer in ${entry.currency}` };
  return { status: 'matched', invoiceId: c.id, by };
}
