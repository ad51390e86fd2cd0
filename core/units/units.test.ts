import { describe, expect, it } from '@jest/globals';
import { REC20_CODES, UNIT_NAMES } from './rec20.ts';
import { COMMON_UNITS, isUnitCode, unitName, unitTitle } from './units.ts';

describe('units', () => {
  it('knows the codes EN 16931 accepts and nothing else', () => {
    for (const code of ['C62', 'H87', 'HUR', 'DAY', 'MON', 'KGM', 'LS', 'E48', 'XPK', 'XBX', 'MTK']) expect(isUnitCode(code)).toBe(true);
    for (const code of ['', 'hur', 'HOUR', 'HRS', 'PCS', 'C62 ', 'QQQ']) expect(isUnitCode(code)).toBe(false);
    expect(REC20_CODES.split(' ').length).toBeGreaterThan(2000);
  });

  it('every named unit is a valid code with words in each shipped language', () => {
    for (const code of COMMON_UNITS) {
      expect([code, isUnitCode(code)]).toEqual([code, true]);
      for (const lang of ['en', 'de', 'fr', 'es', 'it', 'nl'] as const) {
        const [short, name] = UNIT_NAMES[code]![lang];
        expect([code, lang, short.length > 0 && name.length > 0]).toEqual([code, lang, true]);
      }
    }
  });

  it('names a unit in the language of a locale, English by default and for a language not shipped', () => {
    expect(unitName('HUR')).toBe('hr');
    expect(unitName('HUR', 'de')).toBe('Std.');
    expect(unitName('HUR', 'de-AT')).toBe('Std.');
    expect(unitTitle('HUR', 'de')).toBe('Stunde');
    expect(unitName('H87', 'de')).toBe('Stk.');
    expect(unitName('HUR', 'pt')).toBe('hr');
    expect(unitTitle('DAY', 'fr')).toBe('jour');
    // a valid code without words of its own prints as itself
    expect(unitName('A10', 'de')).toBe('A10');
  });
});
