import { mod97 } from '../../core/plugin-api.ts';
// The payment references an invoice carries: the ISO 11649 creditor reference (`RF` + two check digits +
// up to 21 letters and digits), derived from the invoice's number so it is stable and needs no storage;
// and, for a Swiss QR-IBAN, a QR reference (27 digits, the last a mod-10 recursive check digit) derived
// from the invoice's id.

const RF_BODY_MAX = 21;

/** The letters and digits of an invoice number, upper case: what its RF reference carries (the last 21). */
export function referenceBody(number: string): string {
  const body = number.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return body.length > RF_BODY_MAX ? body.slice(-RF_BODY_MAX) : body;
}

/** `RF` + check digits + `body` (1 to 21 letters or digits). */
export function rfReference(body: string): string {
  if (!/^[A-Z0-9]{1,21}$/.test(body)) throw new Error(`An RF reference carries 1 to 21 letters or digits, not "${body}".`);
  const check = 98 - mod97(`${body}RF00`);
  return `RF${String(check).padStart(2, '0')}${body}`;
}

/** The RF reference of an invoice numbered `number` (null when the number has no letter or digit). */
export function invoiceRfReference(number: string): string | null {
  const body = referenceBody(number);
  return body ? rfReference(body) : null;
}

/** Whether `ref` (spaces allowed) is an RF reference whose check digits hold. */
export function isValidRf(ref: string): boolean {
  const c = ref.replace(/\s+/g, '').toUpperCase();
  if (!/^RF[0-9]{2}[A-Z0-9]{1,21}$/.test(c)) return false;
  return mod97(c.slice(4) + c.slice(0, 4)) === 1;
}

/** An RF reference printed in groups of four, as payers type it. */
export const groupedRf = (ref: string): string => ref.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * RF references in free text, printed whole (`RF18539007547034`) or in groups of four
 * (`RF18 5390 0754 7034`): each body whose check digits hold. Of a grouped one, the last short group is
 * taken only when the digits then hold (it may be the next word).
 */
export function rfBodiesIn(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/\bRF[0-9]{2}[A-Z0-9]{1,21}\b/gi)) {
    const c = m[0].toUpperCase();
    if (isValidRf(c)) found.add(c.slice(4));
  }
  for (const m of text.matchAll(/\bRF[0-9]{2}((?: [A-Z0-9]{4}\b)*)((?: [A-Z0-9]{1,4}\b)?)/gi)) {
    const whole = m[0].replace(/\s+/g, '').toUpperCase();
    const groups = `${m[0].slice(0, 4)}${m[1]}`.replace(/\s+/g, '').toUpperCase();
    const c = isValidRf(whole) ? whole : groups;
    if (c.length > 4 && isValidRf(c)) found.add(c.slice(4));
  }
  return [...found];
}

const QR_TABLE = [0, 9, 4, 6, 8, 2, 7, 1, 3, 5];

/** The mod-10 recursive check digit of a string of digits (Swiss QR / ISR references). */
export function mod10Recursive(digits: string): number {
  let carry = 0;
  for (const d of digits) carry = QR_TABLE[(carry + Number(d)) % 10]!;
  return (10 - carry) % 10;
}

/** The QR reference of invoice `id`: 26 digits (the id, zero-padded) and the check digit. */
export function qrReference(id: number): string {
  const body = String(id).padStart(26, '0');
  return body + mod10Recursive(body);
}

/** The invoice id a QR reference names, or null when it is not one of ours or its check digit fails. */
export function invoiceIdOfQrReference(ref: string): number | null {
  const c = ref.replace(/\s+/g, '');
  if (!/^[0-9]{27}$/.test(c) || mod10Recursive(c.slice(0, 26)) !== Number(c[26])) return null;
  const id = Number(c.slice(0, 26));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
