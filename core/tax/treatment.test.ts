import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { InvalidAmountError } from '../money/errors.ts';
import { COUNTRY_CODES } from './countries.ts';
import { EU_MEMBER_STATES } from './eu.ts';
import { type TaxTreatmentInput, taxTreatment } from './treatment.ts';

const base: TaxTreatmentInput = { taxRate: 19, businessCountry: 'DE' };

describe('taxTreatment', () => {
  it("is standard for a domestic customer, at the option's rate", () => {
    expect(taxTreatment({ ...base, customerCountry: 'DE' })).toEqual({ category: 'standard', statement: '', rate: 19 });
    expect(taxTreatment({ ...base, customerCountry: 'DE', customerVat: 'DE123456789' })).toEqual({
      category: 'standard',
      statement: '',
      rate: 19,
    });
    expect(taxTreatment({ taxRate: 7.7, businessCountry: 'CH', customerCountry: 'CH' }).rate).toBe(7.7);
    expect(taxTreatment({ taxRate: 0, businessCountry: 'DE', customerCountry: 'DE' })).toEqual({
      category: 'standard',
      statement: '',
      rate: 0,
    });
  });

  it('counts no customer country as domestic', () => {
    expect(taxTreatment({ ...base }).category).toBe('standard');
    expect(taxTreatment({ ...base, customerCountry: '', customerVat: 'FR40303265045' }).category).toBe('standard');
    expect(taxTreatment({ ...base, customerCountry: null }).category).toBe('standard');
  });

  it('is standard everywhere while the business country is unknown', () => {
    expect(taxTreatment({ taxRate: 20, customerCountry: 'US' }).category).toBe('standard');
    expect(taxTreatment({ taxRate: 20, businessCountry: '', customerCountry: 'FR', customerVat: 'FR40303265045' }).category).toBe(
      'standard',
    );
  });

  it('reverse-charges a customer with a VAT number in another EU member state', () => {
    const t = taxTreatment({ ...base, customerCountry: 'FR', customerVat: 'fr 40 303265045' });
    expect(t).toEqual({
      category: 'reverse_charge',
      statement: 'Reverse charge: the customer accounts for the VAT on this supply (customer VAT number FR40303265045).',
      rate: 0,
    });
    expect(taxTreatment({ ...base, customerCountry: 'GR', customerVat: '123456789' }).statement).toContain('EL123456789');
  });

  it('taxes an EU customer without a valid VAT number as domestic (the EU is one area)', () => {
    expect(taxTreatment({ ...base, customerCountry: 'FR' }).category).toBe('standard');
    expect(taxTreatment({ ...base, customerCountry: 'FR', customerVat: '' }).category).toBe('standard');
    expect(taxTreatment({ ...base, customerCountry: 'FR', customerVat: 'DE123456789' }).category).toBe('standard');
    expect(taxTreatment({ ...base, customerCountry: 'FR', customerVat: 'FR123' })).toEqual({
      category: 'standard',
      statement: '',
      rate: 19,
    });
  });

  it('treats a customer outside the EU as an export for an EU business', () => {
    expect(taxTreatment({ ...base, customerCountry: 'US' })).toEqual({
      category: 'export',
      statement: 'Export outside the EU (customer country: United States): no VAT is charged.',
      rate: 0,
    });
    expect(taxTreatment({ ...base, customerCountry: 'GB', customerVat: 'GB123456789' }).category).toBe('export');
    expect(taxTreatment({ ...base, customerCountry: 'CH', customerVat: 'CHE-123.456.789 MWST' }).category).toBe('export');
  });

  it("uses the business's own country as the tax area outside the EU", () => {
    const gb = { taxRate: 20, businessCountry: 'GB' };
    expect(taxTreatment({ ...gb, customerCountry: 'GB', customerVat: 'GB123456789' }).category).toBe('standard');
    expect(taxTreatment({ ...gb, customerCountry: 'FR', customerVat: 'FR40303265045' })).toEqual({
      category: 'export',
      statement: 'Export (business country: United Kingdom, customer country: France): no tax is charged.',
      rate: 0,
    });
    expect(taxTreatment({ taxRate: 8, businessCountry: 'US', customerCountry: 'CA' }).category).toBe('export');
  });

  it('puts exempt before everything else', () => {
    const statement = 'VAT exempt under §19 UStG (small business).';
    for (const customerCountry of ['DE', 'FR', 'US', undefined]) {
      expect(taxTreatment({ ...base, taxExemptStatement: `  ${statement} `, customerCountry, customerVat: 'FR40303265045' })).toEqual({
        category: 'exempt',
        statement,
        rate: 0,
      });
    }
    expect(taxTreatment({ ...base, taxExemptStatement: '   ', customerCountry: 'DE' }).category).toBe('standard');
  });

  it('reads countries case-insensitively', () => {
    expect(taxTreatment({ taxRate: 19, businessCountry: 'de', customerCountry: ' fr ', customerVat: 'FR40303265045' }).category).toBe(
      'reverse_charge',
    );
  });

  it('refuses rates that are not percentages', () => {
    expect(() => taxTreatment({ taxRate: -5 })).toThrow(InvalidAmountError);
    expect(() => taxTreatment({ taxRate: 150 })).toThrow('tax_rate must be at most 100.');
    expect(() => taxTreatment({ taxRate: 'twenty' })).toThrow('tax_rate must be a number.');
  });

  it('follows the precedence for any pair of countries', () => {
    const country = fc.constantFrom(...COUNTRY_CODES);
    const eu = new Set(EU_MEMBER_STATES);
    fc.assert(
      fc.property(
        country,
        fc.option(country),
        fc.boolean(),
        fc.option(fc.constantFrom('Exempt.', '')),
        fc.integer({ min: 0, max: 30 }),
        (business, customer, withVat, exempt, rate) => {
          // a well-formed number for EU countries (their formats all accept 9+ digits but differ); else none
          const vat = withVat && customer ? wellFormedVat(customer) : null;
          const t = taxTreatment({
            taxRate: rate,
            businessCountry: business,
            customerCountry: customer,
            customerVat: vat,
            taxExemptStatement: exempt,
          });
          const domestic = customer === null || (eu.has(business) ? eu.has(customer) : customer === business);
          let expected: string;
          if (exempt) expected = 'exempt';
          else if (customer && eu.has(business) && eu.has(customer) && business !== customer && vat) expected = 'reverse_charge';
          else if (!domestic) expected = 'export';
          else expected = 'standard';
          expect(t.category).toBe(expected);
          expect(t.rate).toBe(expected === 'standard' ? rate : 0);
          expect(t.statement === '').toBe(expected === 'standard');
        },
      ),
      { numRuns: 500 },
    );
  });
});

const SAMPLE_VAT: Record<string, string> = {
  AT: 'U12345678',
  BE: '0123456789',
  BG: '123456789',
  CY: '12345678X',
  CZ: '12345678',
  DE: '123456789',
  DK: '12345678',
  EE: '123456789',
  ES: 'X1234567X',
  FI: '12345678',
  FR: '40303265045',
  GR: '123456789',
  HR: '12345678901',
  HU: '12345678',
  IE: '1234567T',
  IT: '12345678901',
  LT: '123456789',
  LU: '12345678',
  LV: '12345678901',
  MT: '12345678',
  NL: '123456789B01',
  PL: '1234567890',
  PT: '123456789',
  RO: '1234567890',
  SE: '123456789001',
  SI: '12345678',
  SK: '1234567890',
};

function wellFormedVat(country: string): string | null {
  return SAMPLE_VAT[country] ?? null;
}
