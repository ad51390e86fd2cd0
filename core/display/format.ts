import { isCurrency, minorUnits } from '../money/currencies.ts';
// Printing of exact amounts and dates for PDFs, pages and mails, in the document's locale. Amounts arrive
// as decimal strings that are already rounded to the currency's minor unit, so they are never turned into
// numbers here: the digits printed are the digits computed (Intl.NumberFormat formats a decimal string
// exactly, without a float in the way). English keeps its own spelling (`€1,234.50`, `7 Mar 2025`); every
// other locale is Intl's (`1.234,50 €`, `07.03.2025`). Formatters are made once per locale and currency.

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const symbols = new Map<string, string>();

/** The currency's symbol in English use (`$`, `€`, `£`, `¥`), or its code when it has none (`CHF`). */
export function currencySymbol(currency: string): string {
  const code = currency.toUpperCase();
  let symbol = symbols.get(code);
  if (symbol === undefined) {
    try {
      symbol =
        new Intl.NumberFormat('en', { style: 'currency', currency: code, currencyDisplay: 'symbol' })
          .formatToParts(0)
          .find((p) => p.type === 'currency')?.value ?? code;
    } catch {
      symbol = code; // not a code ICU knows: print it as given
    }
    symbols.set(code, symbol);
  }
  return symbol;
}

/** `"1234567.5"` → `"1,234,567.5"`; throws on anything that is not a plain decimal string. */
export function groupDigits(amount: string): string {
  const m = DECIMAL.exec(amount.trim());
  if (!m) throw new TypeError(`not a decimal amount: ${JSON.stringify(amount)}`);
  const [, sign, int, frac] = m;
  const grouped = int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${grouped}${frac === undefined ? '' : `.${frac}`}`;
}

/** Per locale, currency and digits: the formatter, and whether it prints the currency itself. */
const moneyFormats = new Map<string, { format: Intl.NumberFormat; currency: boolean }>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const regionNames = new Map<string, Intl.DisplayNames>();

/** Whether a locale prints in the house English spelling rather than through Intl. */
function english(locale: string): boolean {
  return locale === 'en' || locale.startsWith('en-');
}

/**
 * `formatMoney("1234.50", "EUR")` → `"€1,234.50"`; `("-12.00", "CHF")` → `"-CHF 12.00"`; in `de`
 * `"1.234,50 €"`, in `fr` `"1 234,50 €"`. Shown with at least the currency's minor digits (a unit price
 * "45.5" reads "$45.50"), more when it has them ("$1.2345").
 */
export function formatMoney(amount: string, currency: string, locale = 'en'): string {
  if (!english(locale)) return localMoney(amount, currency, locale);
  const grouped = groupDigits(padMinor(amount, currency));
  const negative = grouped.startsWith('-');
  const digits = negative ? grouped.slice(1) : grouped;
  const symbol = currencySymbol(currency);
  // A letter-only symbol (CHF, KWD) reads better with a space, as in "CHF 12.00".
  const sep = /\p{L}$/u.test(symbol) ? '\u00a0' : '';
  return `${negative ? '-' : ''}${symbol}${sep}${digits}`;
}

function localMoney(amount: string, currency: string, locale: string): string {
  const m = DECIMAL.exec(amount.trim());
  if (!m) throw new TypeError(`not a decimal amount: ${JSON.stringify(amount)}`);
  const code = currency.toUpperCase();
  const minor = isCurrency(code) ? minorUnits(code) : 2;
  const digits = Math.min(20, Math.max(minor, m[3]?.length ?? 0));
  const key = `${locale}|${code}|${digits}`;
  let known = moneyFormats.get(key);
  if (!known) {
    const digitsOf = { minimumFractionDigits: digits, maximumFractionDigits: digits };
    try {
      known = { format: new Intl.NumberFormat(locale, { style: 'currency', currency: code, ...digitsOf }), currency: true };
    } catch {
      // not a code ICU knows: the number in the locale, the code as given
      known = { format: new Intl.NumberFormat(locale, digitsOf), currency: false };
    }
    moneyFormats.set(key, known);
  }
  // the string overload of format() is exact (ES2023 Intl.NumberFormat v3); the cast is for older lib types
  const text = known.format.format(amount.trim() as unknown as number);
  return known.currency ? text : `${text}\u00a0${code}`;
}

function padMinor(amount: string, currency: string): string {
  if (!isCurrency(currency)) return amount;
  const places = minorUnits(currency);
  const [int, frac = ''] = amount.split('.');
  return frac.length >= places ? amount : places === 0 ? int! : `${int}.${frac.padEnd(places, '0')}`;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * A plain decimal (a line's quantity) as the locale writes it, exactly and with the digits it has:
 * `"1234.5"` stays `"1234.5"` in English (quantities are not grouped there, as before), reads `"1.234,5"`
 * in German and `"1 234,5"` in French.
 */
export function formatDecimal(value: string, locale = 'en'): string {
  const m = DECIMAL.exec(value.trim());
  if (!m) throw new TypeError(`not a decimal: ${JSON.stringify(value)}`);
  if (english(locale)) return value.trim();
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 20 });
    numberFormats.set(locale, format);
  }
  // the string overload of format() is exact, as for amounts
  return format.format(value.trim() as unknown as number);
}

/** True when a decimal string is zero (`"0"`, `"0.00"`, `"-0.000"`). */
export function isZero(amount: string): boolean {
  return /^-?0*(\.0*)?$/.test(amount.trim()) && /\d/.test(amount);
}

/**
 * `"2025-03-07"` (or `"2025-03-07 10:00:00"`) → `"7 Mar 2025"`; in `de` `"07.03.2025"`, in `fr`
 * `"07/03/2025"`. The calendar date as written, whatever the zone of the server.
 */
export function formatDate(date: string, locale = 'en'): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!m) throw new TypeError(`not a Y-m-d date: ${JSON.stringify(date)}`);
  const month = MONTHS[Number(m[2]) - 1];
  if (!month) throw new TypeError(`not a Y-m-d date: ${JSON.stringify(date)}`);
  if (english(locale)) return `${Number(m[3])} ${month} ${m[1]}`;
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' });
    dateFormats.set(locale, format);
  }
  return format.format(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
}

/** `"DE"` → `"Germany"` (in `de` `"Deutschland"`); an empty or unknown code comes back as given. */
export function countryName(code: string, locale = 'en'): string {
  if (!/^[A-Za-z]{2}$/.test(code)) return code;
  let names = regionNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
    regionNames.set(locale, names);
  }
  try {
    return names.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
