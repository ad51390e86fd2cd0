import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { isValidIban, mod97 } from '../../core/banking/iban.ts';
import {
  invoiceIdOfQrReference,
  invoiceRfReference,
  isValidRf,
  qrReference,
  referenceBody,
  rfBodiesIn,
  rfReference,
} from './references.ts';

const alnum = fc.stringMatching(/^[A-Z0-9]{1,21}$/);

describe('ISO 11649 creditor references', () => {
  it('every reference made passes the check digits, and changing any one digit fails them', () => {
    fc.assert(
      fc.property(alnum, fc.nat(), (body, at) => {
        const ref = rfReference(body);
        expect(ref).toMatch(/^RF[0-9]{2}[A-Z0-9]{1,21}$/);
        expect(isValidRf(ref)).toBe(true);
        // ISO 7064 mod 97-10 over body + "RF" + check digits is 1
        expect(mod97(ref.slice(4) + ref.slice(0, 4))).toBe(1);
        // ISO 7064 mod 97-10 detects every single-digit substitution (a digit for another digit)
        const digits = [...ref].map((c, i) => (i >= 2 && /[0-9]/.test(c) ? i : -1)).filter((i) => i >= 0);
        const i = digits[at % digits.length]!;
        const other = String((Number(ref[i]) + 1 + (at % 9)) % 10);
        expect(isValidRf(ref.slice(0, i) + other + ref.slice(i + 1))).toBe(false);
      }),
    );
  });

  it('is derived from the invoice number, stable, and found again in free text with or without spaces', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z]{1,4}-?[0-9]{1,12}$/), fc.boolean(), (number, spaced) => {
        const ref = invoiceRfReference(number)!;
        expect(invoiceRfReference(number)).toBe(ref);
        expect(ref.slice(4)).toBe(referenceBody(number));
        const printed = spaced ? ref.replace(/(.{4})(?=.)/g, '$1 ') : ref;
        expect(rfBodiesIn(`Payment ${printed} thank you`)).toEqual([referenceBody(number)]);
      }),
    );
  });

  it('matches the standard’s own example', () => {
    expect(rfReference('539007547034')).toBe('RF18539007547034');
  });
});

describe('Swiss QR references', () => {
  it('carry the invoice id and a mod-10 recursive check digit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 40 }), (id) => {
        const ref = qrReference(id);
        expect(ref).toHaveLength(27);
        expect(invoiceIdOfQrReference(ref)).toBe(id);
        const wrong = ref.slice(0, 26) + String((Number(ref[26]) + 1) % 10);
        expect(invoiceIdOfQrReference(wrong)).toBeNull();
      }),
    );
  });
});

describe('IBAN check', () => {
  it('accepts valid IBANs and refuses altered ones', () => {
    expect(isValidIban('DE89 3704 0044 0532 0130 00')).toBe(true);
    expect(isValidIban('CH44 3199 9123 0008 8901 2')).toBe(true);
    expect(isValidIban('DE89 3704 0044 0532 0130 01')).toBe(false);
  });
});
