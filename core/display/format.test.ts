import { describe, expect, it } from '@jest/globals';
import { countryName, formatDate, formatMoney, groupDigits, isZero } from './format.ts';

describe('PDF formatting', () => {
  it('prints the digits it is given, grouped, with the currency', () => {
    expect(formatMoney('1234567.50', 'USD')).toBe('$1,234,567.50');
    expect(formatMoney('0.10', 'EUR')).toBe('€0.10');
    expect(formatMoney('1235', 'JPY')).toBe('¥1,235');
    expect(formatMoney('12.345', 'KWD')).toBe('KWD\u00a012.345');
    expect(formatMoney('-12.00', 'CHF')).toBe('-CHF\u00a012.00');
    expect(formatMoney('99999999999999999999.99', 'GBP')).toBe('£99,999,999,999,999,999,999.99'); // no float in the way
    expect(formatMoney('5.00', 'XYZ')).toBe('XYZ\u00a05.00');
  });

  it('refuses what is not a decimal string', () => {
    expect(() => groupDigits('1e3')).toThrow(TypeError);
    expect(() => groupDigits('12,50')).toThrow(TypeError);
    expect(() => groupDigits('')).toThrow(TypeError);
  });

  it('knows zero in any spelling', () => {
    expect(['0', '0.00', '-0.000', '000'].every(isZero)).toBe(true);
    expect(['0.01', '10', '-1.00', ''].some(isZero)).toBe(false);
  });

  it('prints dates the same everywhere', () => {
    expect(formatDate('2025-03-07')).toBe('7 Mar 2025');
    expect(formatDate('2024-12-31 23:59:59')).toBe('31 Dec 2024');
    expect(() => formatDate('07/03/2025')).toThrow(TypeError);
    expect(() => formatDate('2025-13-01')).toThrow(TypeError);
  });

  it('names countries', () => {
    expect(countryName('DE')).toBe('Germany');
    expect(countryName('gr')).toBe('Greece');
    expect(countryName('')).toBe('');
  });
});
