import { describe, expect, it } from '@jest/globals';
import { COUNTRY_CODES, countryName, isCountry } from './countries.ts';
import { EU_MEMBER_STATES, isEuMemberState } from './eu.ts';

describe('ISO 3166-1 alpha-2 countries', () => {
  it('has the 249 assigned codes, each once', () => {
    expect(COUNTRY_CODES.length).toBe(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    expect([...COUNTRY_CODES].sort()).toEqual(COUNTRY_CODES);
    for (const code of ['US', 'DE', 'FR', 'GB', 'JP', 'GR', 'CH', 'NO', 'AX', 'BQ', 'CW', 'SS', 'SX', 'AQ', 'VA'])
      expect(isCountry(code)).toBe(true);
  });

  it('refuses lower case, reserved and user-assigned codes', () => {
    for (const code of ['us', 'De', 'UK', 'EL', 'EU', 'XK', 'ZZ', 'USA', '', ' US', 'AN', 'YU']) expect(isCountry(code)).toBe(false);
    expect(isCountry(null)).toBe(false);
    expect(isCountry(840)).toBe(false);
  });

  it('names countries in English, falling back to the code', () => {
    expect(countryName('US')).toBe('United States');
    expect(countryName('DE')).toBe('Germany');
    expect(typeof countryName('QQ')).toBe('string');
  });
});

describe('EU member states', () => {
  it('are the 27, all ISO codes', () => {
    expect(EU_MEMBER_STATES.length).toBe(27);
    for (const code of EU_MEMBER_STATES) expect(isCountry(code)).toBe(true);
    for (const code of ['DE', 'FR', 'GR', 'HR', 'IE', 'CY', 'MT', 'BG', 'RO']) expect(isEuMemberState(code)).toBe(true);
    for (const code of ['GB', 'CH', 'NO', 'IS', 'LI', 'MC', 'US', 'EL', 'de']) expect(isEuMemberState(code)).toBe(false);
  });
});
