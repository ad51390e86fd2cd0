// Units of measure of document lines and library items (docs/documents.md, Units): which codes are
// valid, and how a unit is named in a document's language.
import { REC20_CODES, UNIT_NAMES, type UnitWords } from './rec20.ts';

const CODES: ReadonlySet<string> = new Set(REC20_CODES.split(' '));

/** The unit a line is counted in when it names none: Recommendation 20's "one". */
export const DEFAULT_UNIT = 'C62';

/** The longest code (Recommendation 20 codes are 2 or 3 characters). */
export const UNIT_CODE_MAX = 3;

/** Whether `code` is a unit code EN 16931 accepts (Recommendation 20, with Recommendation 21's packages). */
export function isUnitCode(code: string): boolean {
  return CODES.has(code);
}

function words(code: string, locale: string): UnitWords | null {
  const names = UNIT_NAMES[code];
  if (!names) return null;
  // a BCP 47 tag: its language decides ("de-AT" is German); a language not shipped reads English
  const language = locale.toLowerCase().split(/[-_]/)[0] as keyof typeof names;
  return names[language] ?? names.en;
}

/**
 * A unit as printed next to a quantity in `locale` ("Std." in German, "hr" in English): the form an
 * accountant writes on an invoice. A valid code without a name of its own prints as its code.
 */
export function unitName(code: string, locale = 'en'): string {
  return words(code, locale)?.[0] ?? code;
}

/** A line's quantity as printed, followed by its unit's name when it has one ("12.5 hr", "3"). */
export function quantityLabel(quantity: string, unit: string | undefined, locale = 'en'): string {
  return unit ? `${quantity} ${unitName(unit, locale)}` : quantity;
}

/** A unit's full name in `locale` ("Stunde", "hour"), for lists to choose from; the code when it has none. */
export function unitTitle(code: string, locale = 'en'): string {
  return words(code, locale)?.[1] ?? code;
}

/** The named units in the data's order (pieces, time, weight, length, area, volume, energy, packages). */
export const COMMON_UNITS: readonly string[] = Object.keys(UNIT_NAMES);
