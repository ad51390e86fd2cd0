import { BillingError } from '../../core/plugin-api.ts';
// A bank statement as this plugin reads it, whatever the file's format (CAMT.053 or MT940).

export interface StatementEntry {
  /** 1-based position in the file. */
  n: number;
  /** Booking date, Y-m-d. */
  date: string;
  /** A decimal string, positive. */
  amount: string;
  currency: string;
  direction: 'credit' | 'debit';
  counterparty: string;
  /** Remittance information: unstructured lines and structured creditor references, joined by spaces. */
  remittance: string;
  /** The bank's reference (CAMT AcctSvcrRef, else the end-to-end id; MT940 the :61: bank reference); '' when none. */
  bankReference: string;
}

export interface ParsedStatement {
  format: 'camt.053' | 'mt940';
  /** The account's IBAN (or the bank's account id when it gives no IBAN). */
  account: string;
  /** The statement's own id (CAMT Stmt/Id, MT940 :20:), for the record. */
  statementId: string;
  entries: StatementEntry[];
}

/** The largest statement file taken (a year of a busy account in CAMT is a few MiB). */
export const STATEMENT_BODY_LIMIT = 20 * 1024 * 1024;
/** Elements a CAMT file may hold: about 40 per entry, for MAX_ENTRIES entries. */
export const MAX_XML_ELEMENTS = 1_000_000;
/** The most entries one file may hold. */
export const MAX_ENTRIES = 20_000;
export const PARSE_TIMEOUT_MS = 20_000;
export const PARSE_MEMORY_MB = 512;

/** 400 `billing_bank_statement_unreadable`. */
export const unreadableStatement = (message: string) => new BillingError('billing_bank_statement_unreadable', message);

/** A bank amount (`1234.56`, or MT940's `1234,56`) as a canonical decimal string, or a refusal. */
export function bankAmount(value: string, where: string): string {
  const v = value.trim().replace(',', '.');
  if (!/^[0-9]{1,15}(\.[0-9]{0,5})?$/.test(v)) throw unreadableStatement(`${where}: "${value}" is not an amount.`);
  const [int, frac = ''] = v.split('.');
  const f = frac.replace(/0+$/, '');
  return `${String(Number(int))}${f ? `.${f}` : ''}`;
}

export function checkEntryCount(n: number): void {
  if (n > MAX_ENTRIES) throw unreadableStatement(`The statement has more than ${MAX_ENTRIES} entries; split it.`);
}
