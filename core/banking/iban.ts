// IBAN (ISO 13616, mod-97 check digits) and BIC (ISO 9362 shape): the `iban` and `bic` formats of settings,
// and what the bank-transfer plugin and its QR codes check accounts with.

/** An IBAN without spaces, upper case. */
export const compactIban = (iban: string): string => iban.replace(/\s+/g, '').toUpperCase();

/** ISO 7064 mod 97-10 of a string of letters (A=10 … Z=35) and digits, computed piecewise (no big numbers). */
export function mod97(s: string): number {
  let rest = 0;
  for (const ch of s) {
    const code = ch.charCodeAt(0);
    const digits = code >= 65 && code <= 90 ? String(code - 55) : ch;
    for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest;
}

/** Whether `iban` is an IBAN whose check digits hold (spaces allowed). */
export function isValidIban(iban: string): boolean {
  const c = compactIban(iban);
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(c)) return false;
  return mod97(c.slice(4) + c.slice(0, 4)) === 1;
}

/** Whether `bic` has a BIC's shape: bank (4 letters), country (2 letters), location (2), optional branch (3). */
export const isValidBic = (bic: string): boolean => /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic.trim().toUpperCase());

/** Swiss and Liechtenstein IBANs: those a QR-bill may carry. */
export const isSwissIban = (iban: string): boolean => /^(CH|LI)/.test(compactIban(iban));

/** A QR-IBAN: a Swiss IBAN whose institution id is 30000–31999; it takes only QR references. */
export function isQrIban(iban: string): boolean {
  const c = compactIban(iban);
  if (!isSwissIban(c)) return false;
  const iid = Number(c.slice(4, 9));
  return iid >= 30000 && iid <= 31999;
}
