import { isCurrency, minorUnits } from '../money/currencies.ts';
// Printing of exact amounts and dates for the PDF. Amounts arrive as decimal strings that are already
// rounded to the currency's minor unit, so they are never turned into numbers here: the digits printed
// are the digits computed.

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const symbols = new Map<string, string>();
let regions: Intl.DisplayNames | undefined;

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

/**
 * `formatMoney("1234.50", "EUR")` → `"€1,234.50"`; `("-12.00", "CHF")` → `"-CHF 12.00"`. Shown with at
 * least the currency's minor digits (a unit price "45.5" reads "$45.50"), more when it has them ("$1.2345").
 */
export function formatMoney(amount: string, currency: string): string {
  const grouped = groupDigits(padMinor(amount, currency));
  const negative = grouped.startsWith('-');
  const digits = negative ? grouped.slice(1) : grouped;
  const symbol = currencySymbol(currency);
  // A letter-only symbol (CHF, KWD) reads better with a space, as in "CHF 12.00".
  const sep = /\p{L}$/u.test(symbol) ? '\u00a0' : '';
  return `${negative ? '-' : ''}${symbol}${sep}${digits}`;
}

function padMinor(amount: string, currency: string): string {
  if (!isCurrency(currency)) return amount;
  const places = minorUnits(currency);
  const [int, frac = ''] = amount.split('.');
  return frac.length >= places ? amount : places === 0 ? int! : `${int}.${frac.padEnd(places, '0')}`;
}

/** True when a decimal string is zero (`"0"`, `"0.00"`, `"-0.000"`). */
export function isZero(amount: string): boolean {
  return /^-?0*(\.0*)?$/.test(amount.trim()) && /\d/.test(amount);
}

/** `"2025-03-07"` (or `"2025-03-07 10:00:00"`) → `"7 Mar 2025"`, the same in every locale and zone. */
export function formatDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!m) throw new TypeError(`not a Y-m-d date: ${JSON.stringify(date)}`);
  const month = MONTHS[Number(m[2]) - 1];
  if (!month) throw new TypeError(`not a Y-m-d date: ${JSON.stringify(date)}`);
  return `${Number(m[3])} ${month} ${m[1]}`;
}

/** `"DE"` → `"Germany"`; an empty or unknown code comes back as given. */
export function countryName(code: string): string {
  if (!/^[A-Za-z]{2}$/.test(code)) return code;
  regions ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  try {
    return regions.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
