import { isCountry } from './countries.ts';

interface VatFormat {
  /** The prefix of the number (its country code, except Greece: EL). */
  prefix: string;
  /** The number after the prefix, once spaces, dots and hyphens are removed. */
  pattern: RegExp;
}

/**
 * VAT identification number formats (what the EU's VIES and the national registries publish), for the
 * EU member states plus GB, CH and NO. Format only: check digits are not verified, and nothing is looked
 * up (docs/documents.md).
 */
export const VAT_FORMATS: Readonly<Record<string, VatFormat>> = Object.freeze({
  AT: { prefix: 'AT', pattern: /^U\d{8}$/ },
  BE: { prefix: 'BE', pattern: /^[01]\d{9}$/ },
  BG: { prefix: 'BG', pattern: /^\d{9,10}$/ },
  CY: { prefix: 'CY', pattern: /^\d{8}[A-Z]$/ },
  CZ: { prefix: 'CZ', pattern: /^\d{8,10}$/ },
  DE: { prefix: 'DE', pattern: /^\d{9}$/ },
  DK: { prefix: 'DK', pattern: /^\d{8}$/ },
  EE: { prefix: 'EE', pattern: /^\d{9}$/ },
  ES: { prefix: 'ES', pattern: /^(?:[A-Z]\d{7}[A-Z0-9]|\d{8}[A-Z])$/ },
  FI: { prefix: 'FI', pattern: /^\d{8}$/ },
  FR: { prefix: 'FR', pattern: /^[0-9A-HJ-NP-Z]{2}\d{9}$/ },
  GR: { prefix: 'EL', pattern: /^\d{9}$/ },
  HR: { prefix: 'HR', pattern: /^\d{11}$/ },
  HU: { prefix: 'HU', pattern: /^\d{8}$/ },
  IE: { prefix: 'IE', pattern: /^(?:\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/ },
  IT: { prefix: 'IT', pattern: /^\d{11}$/ },
  LT: { prefix: 'LT', pattern: /^(?:\d{9}|\d{12})$/ },
  LU: { prefix: 'LU', pattern: /^\d{8}$/ },
  LV: { prefix: 'LV', pattern: /^\d{11}$/ },
  MT: { prefix: 'MT', pattern: /^\d{8}$/ },
  NL: { prefix: 'NL', pattern: /^\d{9}B\d{2}$/ },
  PL: { prefix: 'PL', pattern: /^\d{10}$/ },
  PT: { prefix: 'PT', pattern: /^\d{9}$/ },
  RO: { prefix: 'RO', pattern: /^[1-9]\d{1,9}$/ },
  SE: { prefix: 'SE', pattern: /^\d{10}01$/ },
  SI: { prefix: 'SI', pattern: /^\d{8}$/ },
  SK: { prefix: 'SK', pattern: /^\d{10}$/ },
  // Standard (9 digits), branch (12), government departments (GD000–GD499), health authorities (HA500–HA999).
  GB: { prefix: 'GB', pattern: /^(?:\d{9}|\d{12}|GD[0-4]\d{2}|HA[5-9]\d{2})$/ },
  // UID CHE-123.456.789, with the VAT register's suffix (MWST / TVA / IVA) or without.
  CH: { prefix: 'CH', pattern: /^E\d{9}(?:MWST|TVA|IVA)?$/ },
  // Organisation number, with the VAT register's MVA suffix or without.
  NO: { prefix: 'NO', pattern: /^\d{9}(?:MVA)?$/ },
});

// Greek numbers are written EL (GR is read as EL); Northern Ireland's XI numbers belong to GB and keep XI.
const PREFIX_ALIASES: Readonly<Record<string, readonly string[]>> = { GR: ['EL', 'GR'], GB: ['GB', 'XI'] };

const FOREIGN_PREFIXES: readonly string[] = [...Object.values(VAT_FORMATS).map((f) => f.prefix), 'GR', 'XI'];

// Countries without a published format: an identifier of 2–20 letters and digits is accepted as it is.
const GENERIC = /^[A-Z0-9]{2,20}$/;

/** Whether this module knows the VAT number format of `country`. */
export function hasVatFormat(country: string): boolean {
  return Object.hasOwn(VAT_FORMATS, country);
}

/**
 * The VAT number in its canonical form — upper case, spaces, dots and hyphens removed, with its
 * country prefix (`'de 123 456 789'` → `'DE123456789'`; Greece uses EL, and a GR prefix is read as EL;
 * a GB number may carry Northern Ireland's XI) — or `null` when it does not have the format of
 * `country`. The prefix may be given or left out, but an unprefixed number that opens with another
 * country's prefix is refused.
 * For a country with no known format, any 2–20 letters and digits pass, returned without a prefix.
 */
export function normalizeVatNumber(country: string, vat: string): string | null {
  if (typeof country !== 'string' || typeof vat !== 'string') return null;
  const code = country.trim().toUpperCase();
  if (!isCountry(code)) return null;
  const compact = vat.toUpperCase().replace(/[\s.\-]/g, '');
  const format = VAT_FORMATS[code];
  if (!format) return GENERIC.test(compact) ? compact : null;

  const prefixes = PREFIX_ALIASES[code] ?? [format.prefix];
  const own = prefixes.find((p) => compact.startsWith(p));
  if (own !== undefined && format.pattern.test(compact.slice(own.length))) {
    return (own === 'XI' ? own : format.prefix) + compact.slice(own.length);
  }
  // Without its prefix the number is read as is, unless it opens with another country's prefix: `DE…`
  // given for a French customer is a German number, even though FR keys may be letters.
  if (FOREIGN_PREFIXES.some((p) => !prefixes.includes(p) && compact.startsWith(p))) return null;
  return format.pattern.test(compact) ? format.prefix + compact : null;
}

/**
 * Whether `vat` has the VAT number format of `country` (ISO 3166-1 alpha-2), prefix optional:
 * `validVatNumber('DE', 'DE123456789')`, `validVatNumber('FR', 'FR 40 303265045')`. Format only.
 */
export function validVatNumber(country: string, vat: string): boolean {
  return normalizeVatNumber(country, vat) !== null;
}
