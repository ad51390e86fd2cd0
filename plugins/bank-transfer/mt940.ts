// MT940 (SWIFT customer statement) as banks export it: `:25:` account, `:60F:` opening balance (its
// currency), `:61:` statement lines (value date, optional booking date, C/D/RC/RD, amount with a decimal
// comma, transaction type, customer reference `//` bank reference), each followed by its `:86:` text.
import { bankAmount, checkEntryCount, unreadableStatement, type ParsedStatement, type StatementEntry } from './statement.ts';

export function isMt940(head: string): boolean {
  return /(^|\n)\s*:20:/.test(head) && /:25:/.test(head);
}

const LINE_61 = /^(\d{2})(\d{2})(\d{2})(\d{4})?(RC|RD|C|D)([A-Z])?(\d{1,12},\d{0,2})([A-Z][A-Z0-9]{3})([^/\n]{0,16})(?:\/\/([^\n]{0,16}))?/;

export function parseMt940(text: string): ParsedStatement {
  // fields start at a line beginning with :NN: or :NNa:; continuation lines belong to the field before
  const fields: Array<{ tag: string; value: string }> = [];
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const m = /^:(\d{2}[A-Z]?):(.*)$/.exec(line);
    if (m) fields.push({ tag: m[1]!, value: m[2]! });
    else if (fields.length && line.trim() && line.trim() !== '-' && !line.startsWith('{')) fields[fields.length - 1]!.value += `\n${line}`;
  }
  const account = fields.find((f) => f.tag === '25')?.value.trim() ?? '';
  if (!account) throw unreadableStatement('The MT940 file names no account (:25:).');
  const statementId = fields.find((f) => f.tag === '20')?.value.trim() ?? '';
  let currency = '';
  const entries: StatementEntry[] = [];
  for (const f of fields) {
    if (f.tag === '60F' || f.tag === '60M') currency = /^[CD]\d{6}([A-Z]{3})/.exec(f.value)?.[1] ?? currency;
    else if (f.tag === '61') {
      const m = LINE_61.exec(f.value);
      if (!m) throw unreadableStatement(`Statement line ${entries.length + 1} (:61:) cannot be read.`);
      const [, yy, mm, dd, booking, mark, , amount, , , bankRef] = m;
      const year = 2000 + Number(yy);
      // the booking date (MMDD) may fall in the next or previous year of the value date
      let date = `${year}-${mm}-${dd}`;
      if (booking) {
        const bm = Number(booking.slice(0, 2));
        const by = bm === 1 && Number(mm) === 12 ? year + 1 : bm === 12 && Number(mm) === 1 ? year - 1 : year;
        date = `${by}-${booking.slice(0, 2)}-${booking.slice(2)}`;
      }
      const credit = mark === 'C' || mark === 'RD';
      entries.push({
        n: entries.length + 1,
        date,
        amount: bankAmount(amount!, `Statement line ${entries.length + 1}`),
        currency,
        direction: credit ? 'credit' : 'debit',
        counterparty: '',
        remittance: '',
        bankReference: (bankRef ?? '').trim(),
      });
      checkEntryCount(entries.length);
    } else if (f.tag === '86' && entries.length) {
      const e = entries[entries.length - 1]!;
      const info = info86(f.value);
      e.remittance = info.remittance;
      e.counterparty = info.counterparty;
    }
  }
  if (!currency) throw unreadableStatement('The MT940 file has no opening balance (:60F:) to give its currency.');
  return {
    format: 'mt940',
    account: account
      .replace(/\s+/g, '')
      .toUpperCase()
      .replace(/^[A-Z0-9]{8,11}\//, ''),
    statementId,
    entries,
  };
}

/**
 * The `:86:` text. German banks structure it (`166?00…?20…?29` purpose lines, `?32`/`?33` the other
 * party's name); others write free text. Either way the remittance is what the payer wrote.
 */
function info86(value: string): { remittance: string; counterparty: string } {
  const flat = value.replace(/\n/g, '');
  if (!/^\d{3}\?/.test(flat)) return { remittance: value.replace(/\n/g, ' ').trim(), counterparty: '' };
  const sub: Record<string, string> = {};
  for (const m of flat.matchAll(/\?(\d{2})([^?]*)/g)) sub[m[1]!] = (sub[m[1]!] ?? '') + m[2]!;
  const purpose = ['20', '21', '22', '23', '24', '25', '26', '27', '28', '29', '60', '61', '62', '63'].map((k) => sub[k] ?? '').join('');
  return { remittance: purpose.trim(), counterparty: `${sub['32'] ?? ''}${sub['33'] ?? ''}`.trim() };
}
