import { describe, expect, it } from '@jest/globals';
import { CURRENCY_CODES, isCurrency, minorUnits } from './currencies.ts';

describe('ISO 4217 currencies', () => {
  it('knows the minor units of common and unusual currencies', () => {
    expect(minorUnits('USD')).toBe(2);
    expect(minorUnits('EUR')).toBe(2);
    expect(minorUnits('GBP')).toBe(2);
    expect(minorUnits('JPY')).toBe(0);
    expect(minorUnits('KRW')).toBe(0);
    expect(minorUnits('ISK')).toBe(0);
    expect(minorUnits('CLP')).toBe(0);
    expect(minorUnits('KWD')).toBe(3);
    expect(minorUnits('BHD')).toBe(3);
    expect(minorUnits('OMR')).toBe(3);
    expect(minorUnits('TND')).toBe(3);
    expect(minorUnits('CLF')).toBe(4);
    expect(minorUnits('UYW')).toBe(4);
  });

  it('lists every active code with a minor unit, and only those', () => {
    expect(CURRENCY_CODES.length).toBe(165);
    expect(new Set(CURRENCY_CODES).size).toBe(CURRENCY_CODES.length);
    for (const code of CURRENCY_CODES) expect(code).toMatch(/^[A-Z]{3}$/);
    for (const code of ['USD', 'EUR', 'JPY', 'KWD', 'BHD', 'CHF', 'CNY', 'INR', 'BRL', 'ZAR', 'XOF', 'XCG', 'ZWG', 'SLE', 'VED']) {
      expect(isCurrency(code)).toBe(true);
    }
  });

  it('refuses lower case, unknown, withdrawn and unit-less codes', () => {
    for (const code of [
      'usd',
      'Usd',
      'US',
      'USDD',
      '',
      'ABC',
      'HRK',
      'ANG',
      'SLL',
      'ZWL',
      'XAU',
      'XDR',
      'XTS',
      'XXX',
      'toString',
      '__proto__',
    ]) {
      expect(isCurrency(code)).toBe(false);
    }
    expect(isCurrency(840)).toBe(false);
    expect(isCurrency(null)).toBe(false);
    expect(() => minorUnits('XYZ' as never)).toThrow(RangeError);
  });
});
