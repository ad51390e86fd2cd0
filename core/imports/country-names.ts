import { COUNTRY_CODES, countryName, isCountry } from '../tax/countries.ts';
import { ImportRowError } from './types.ts';

let byName: Map<string, string> | null = null;

/**
 * A country as a file writes it — a code (`us`, `US`) or its English name (`United States`, what
 * FreshBooks, Wave and Zoho export) — as its ISO 3166-1 alpha-2 code; empty stays empty.
 */
export function countryCode(text: string, field: string): string {
  const t = text.trim();
  if (t === '') return '';
  if (isCountry(t.toUpperCase())) return t.toUpperCase();
  byName ??= new Map(COUNTRY_CODES.map((c) => [countryName(c).toLowerCase(), c]));
  const code = byName.get(t.toLowerCase()) ?? ALSO.get(t.toLowerCase());
  if (!code) throw new ImportRowError(`${field}: "${text}" is not a country name or code.`, field);
  return code;
}

/** Names files use that are not the English display names. */
const ALSO = new Map([
  ['usa', 'US'],
  ['united states of america', 'US'],
  ['uk', 'GB'],
  ['great britain', 'GB'],
  ['england', 'GB'],
  ['deutschland', 'DE'],
  ['россия', 'RU'],
]);
