/** The 27 member states of the European Union, by ISO 3166-1 code (Greece is GR; its VAT prefix is EL). */
export const EU_MEMBER_STATES: readonly string[] = Object.freeze([
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
]);

const EU: ReadonlySet<string> = new Set(EU_MEMBER_STATES);

/** Whether `country` (ISO 3166-1 alpha-2, upper case) is an EU member state. */
export function isEuMemberState(country: string): boolean {
  return EU.has(country);
}
