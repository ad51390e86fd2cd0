import { ImportRowError, type ImportReaders } from './types.ts';

/** How dates in a file are written; `auto` reads ISO dates, `d.m.Y`, and `m/d/Y` unless the day shows it is `d/m/Y`. */
export const DATE_FORMATS = ['auto', 'Y-m-d', 'd/m/Y', 'm/d/Y', 'd.m.Y', 'd-m-Y'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
export type DecimalSeparator = '.' | ',';

/**
 * The cell readers of an import: amounts written with `decimal` as the decimal separator (the other
 * one, spaces and apostrophes are thousands separators), with or without a currency symbol or code,
 * negative with a minus or in parentheses; dates in `dates`.
 */
export function cellReaders(decimal: DecimalSeparator, dates: DateFormat): ImportReaders {
  return {
    amount(text, field) {
      let t = text.trim();
      const negative = /^\(.*\)$/.test(t) || t.includes('-');
      t = t.replace(/[^\d.,]/g, '');
      t = decimal === ',' ? t.replace(/\./g, '').replace(',', '.') : t.replace(/,/g, '');
      if (!/^\d+(\.\d+)?$/.test(t)) throw new ImportRowError(`${field}: "${text}" is not an amount.`, field);
      t = t.replace(/^0+(?=\d)/, '');
      return negative && /[1-9]/.test(t) ? `-${t}` : t;
    },
    date(text, field) {
      const d = readDate(text.trim(), dates);
      if (!d) throw new ImportRowError(`${field}: "${text}" is not a date${dates === 'auto' ? '' : ` written ${dates}`}.`, field);
      return d;
    },
    bool(text, field, fallback) {
      const t = text.trim().toLowerCase();
      if (t === '') return fallback;
      if (['1', 'yes', 'y', 'true', 'x', 'ja', 'oui', 'si'].includes(t)) return true;
      if (['0', 'no', 'n', 'false', 'nein', 'non'].includes(t)) return false;
      throw new ImportRowError(`${field}: "${text}" is neither yes nor no.`, field);
    },
  };
}

function readDate(text: string, format: DateFormat): string | null {
  // a time after the date (`2021-01-28 05:14:15`, `2021-01-28T05:14:15Z`) is not the date's business
  const t = text.replace(/[T ]\d{1,2}:\d{2}(:\d{2})?.*$/, '');
  let m: RegExpMatchArray | null;
  let y: number, mo: number, d: number;
  if ((format === 'auto' || format === 'Y-m-d') && (m = t.match(/^(\d{4})-(\d{1,2})-(\d{1,2})$/))) {
    [y, mo, d] = [+m[1]!, +m[2]!, +m[3]!];
  } else if ((format === 'auto' || format === 'd.m.Y') && (m = t.match(/^(\d{1,2})\.(\d{1,2})\.(\d{4})$/))) {
    [d, mo, y] = [+m[1]!, +m[2]!, +m[3]!];
  } else if (format === 'd-m-Y' && (m = t.match(/^(\d{1,2})-(\d{1,2})-(\d{4})$/))) {
    [d, mo, y] = [+m[1]!, +m[2]!, +m[3]!];
  } else if ((format === 'auto' || format === 'd/m/Y' || format === 'm/d/Y') && (m = t.match(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/))) {
    const [a, b] = [+m[1]!, +m[2]!];
    const dayFirst = format === 'd/m/Y' || (format === 'auto' && a > 12);
    [d, mo, y] = dayFirst ? [a, b, +m[3]!] : [b, a, +m[3]!];
  } else return null;
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || y < 1900 || y > 2999) return null;
  return `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}
