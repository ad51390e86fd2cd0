import { describe, expect, it } from '@jest/globals';
import { EU_MEMBER_STATES } from './eu.ts';
import { hasVatFormat, normalizeVatNumber, validVatNumber } from './vat-number.ts';

// One well-formed number per country (format only; check digits are not verified), and malformed ones.
const VALID: Record<string, string[]> = {
  AT: ['ATU12345678', 'U12345678'],
  BE: ['BE0123456789', '1234567890'],
  BG: ['BG123456789', 'BG1234567890'],
  CY: ['CY12345678X'],
  CZ: ['CZ12345678', 'CZ123456789', 'CZ1234567890'],
  DE: ['DE123456789', 'de 123 456 789', '123456789'],
  DK: ['DK12345678'],
  EE: ['EE123456789'],
  ES: ['ESX1234567X', 'ESA12345678', 'ES12345678Z'],
  FI: ['FI12345678'],
  FR: ['FR40303265045', 'FRAB123456789', 'FR 4Z 123456789', '40303265045', 'AB123456789', 'FRDE123456789'],
  GR: ['EL123456789', 'GR123456789', '123456789'],
  HR: ['HR12345678901'],
  HU: ['HU12345678'],
  IE: ['IE1234567T', 'IE1234567WA', 'IE1A23456T', 'IE1+23456T'],
  IT: ['IT12345678901'],
  LT: ['LT123456789', 'LT123456789012'],
  LU: ['LU12345678'],
  LV: ['LV12345678901'],
  MT: ['MT12345678'],
  NL: ['NL123456789B01', 'nl.123.456.789.b.01'],
  PL: ['PL1234567890', 'PL-123-456-78-90'],
  PT: ['PT123456789'],
  RO: ['RO12', 'RO1234567890'],
  SE: ['SE123456789001'],
  SI: ['SI12345678'],
  SK: ['SK1234567890'],
  GB: ['GB123456789', 'GB123456789012', 'GBGD001', 'GBHA599', 'GB 123 4567 89', 'XI123456789'],
  CH: ['CHE-123.456.789 MWST', 'CHE123456789', 'CHE-123.456.789 TVA', 'CHE123456789IVA'],
  NO: ['NO123456789MVA', '123456789'],
};

const INVALID: Record<string, string[]> = {
  AT: ['AT12345678', 'ATU1234567', 'U123456789'],
  BE: ['BE2123456789', 'BE123456789'],
  BG: ['BG12345678', 'BG12345678901'],
  CY: ['CY123456789', 'CY1234567X'],
  CZ: ['CZ1234567', 'CZ12345678901'],
  DE: ['DE12345678', 'DE1234567890', 'FR123456789', 'DE12345678X', ''],
  DK: ['DK1234567'],
  EE: ['EE12345678'],
  ES: ['ES123456789', 'ESX123456'],
  FI: ['FI1234567'],
  FR: ['FR1234567890', 'FRIO123456789', 'FR12345678901X', 'DE123456789', 'EL123456789'],
  GR: ['EL12345678', 'DE123456789'],
  HR: ['HR1234567890'],
  HU: ['HU123456789'],
  IE: ['IE12345678', 'IE1234567Z'],
  IT: ['IT1234567890'],
  LT: ['LT1234567890'],
  LU: ['LU1234567'],
  LV: ['LV1234567890'],
  MT: ['MT1234567'],
  NL: ['NL123456789', 'NL123456789C01', 'NL123456789B1'],
  PL: ['PL123456789'],
  PT: ['PT12345678'],
  RO: ['RO1', 'RO01234567', 'RO12345678901'],
  SE: ['SE123456789012', 'SE1234567890'],
  SI: ['SI1234567'],
  SK: ['SK123456789'],
  GB: ['GB12345678', 'GBGD500', 'GBHA499', 'GB1234567890'],
  CH: ['CH123456789', 'CHE12345678', 'CHE123456789VAT'],
  NO: ['NO12345678', 'NO123456789VAT'],
};

describe('validVatNumber', () => {
  it('knows the format of every EU member state, GB, CH and NO', () => {
    for (const country of [...EU_MEMBER_STATES, 'GB', 'CH', 'NO']) {
      expect(hasVatFormat(country)).toBe(true);
      expect(VALID[country]).toBeDefined();
      expect(INVALID[country]).toBeDefined();
    }
  });

  it.each(Object.entries(VALID))('accepts well-formed %s numbers', (country, numbers) => {
    for (const vat of numbers) expect([vat, validVatNumber(country, vat)]).toEqual([vat, true]);
  });

  it.each(Object.entries(INVALID))('refuses malformed %s numbers', (country, numbers) => {
    for (const vat of numbers) expect([vat, validVatNumber(country, vat)]).toEqual([vat, false]);
  });

  it('normalises to the prefixed, compact form', () => {
    expect(normalizeVatNumber('DE', 'de 123.456-789')).toBe('DE123456789');
    expect(normalizeVatNumber('DE', '123456789')).toBe('DE123456789');
    expect(normalizeVatNumber('GR', 'GR 123456789')).toBe('EL123456789');
    expect(normalizeVatNumber('gr', '123456789')).toBe('EL123456789');
    expect(normalizeVatNumber('CH', 'CHE-123.456.789 MWST')).toBe('CHE123456789MWST');
    expect(normalizeVatNumber('NL', 'nl 1234.56.789.B01')).toBe('NL123456789B01');
    expect(normalizeVatNumber('GB', 'xi 123 4567 89')).toBe('XI123456789');
    expect(normalizeVatNumber('DE', 'DE12345678')).toBeNull();
  });

  it('accepts any plain identifier for countries without a known format, and nothing for unknown countries', () => {
    expect(hasVatFormat('US')).toBe(false);
    expect(validVatNumber('US', '12-3456789')).toBe(true);
    expect(validVatNumber('AU', '51 824 753 556')).toBe(true);
    expect(validVatNumber('US', 'x')).toBe(false);
    expect(validVatNumber('US', '12#34')).toBe(false);
    expect(validVatNumber('XK', '123456789')).toBe(false);
    expect(validVatNumber('', 'DE123456789')).toBe(false);
  });
});
