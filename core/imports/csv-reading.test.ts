import { describe, expect, it } from '@jest/globals';
import { cellReaders } from './cell-readers.ts';
import { columnNames, detectDelimiter, detectEncoding, isHeader, readRecords } from './csv-reader.ts';
import { proposeMapping } from './mapping.ts';
import type { ImportResource } from './types.ts';

async function records(text: string | Uint8Array, delimiter: ',' | ';' | '\t' = ',', encoding: 'utf-8' | 'windows-1252' = 'utf-8') {
  const out: string[][] = [];
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  // split anywhere, even inside a character, to prove decoding across chunks
  const chunks = [bytes.subarray(0, 3), bytes.subarray(3, 7), bytes.subarray(7)];
  for await (const r of readRecords(chunks, { delimiter, encoding })) out.push(r);
  return out;
}

describe('reading CSV', () => {
  it('detects the delimiter that is regular over the lines, quotes respected', () => {
    expect(detectDelimiter('a,b,c\n1,2,3\n')).toBe(',');
    expect(detectDelimiter('Name;Amount\nA;1.234,50\nB;12,00\n')).toBe(';');
    expect(detectDelimiter('a\tb\n"x, y"\tz\n')).toBe('\t');
    expect(detectDelimiter('"Title, with comma";;\nx;y;z\n1;2;3\n')).toBe(';');
  });

  it('tells UTF-8 from Windows-1252 by validity', async () => {
    expect(await detectEncoding([Buffer.from('Café Noël')])).toBe('utf-8');
    expect(await detectEncoding([Buffer.from([0x43, 0x61, 0x66, 0xe9])])).toBe('windows-1252');
    // a valid multi-byte character split across chunks is still UTF-8
    const e = Buffer.from('é');
    expect(await detectEncoding([e.subarray(0, 1), e.subarray(1)])).toBe('utf-8');
  });

  it('streams records with quotes, line breaks in cells, a BOM, and characters split across chunks', async () => {
    const text = '\uFEFFname,note\n"Zoë, ""the"" one","two\nlines"\n\nlast,é\n';
    expect(await records(text)).toEqual([
      ['name', 'note'],
      ['Zoë, "the" one', 'two\nlines'],
      ['last', 'é'],
    ]);
    expect(
      await records(Buffer.from([0x6e, 0x3b, 0x78, 0x0a, 0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72, 0x3b, 0x31, 0x0a]), ';', 'windows-1252'),
    ).toEqual([
      ['n', 'x'],
      ['Müller', '1'],
    ]);
  });

  it('finds the header below a title block and names repeated or empty columns', () => {
    expect(isHeader(['Invoice Ninja v4.5.17', '', '', ''])).toBe(false);
    expect(isHeader(['INVOICES', '', ''])).toBe(false);
    expect(isHeader(['Client', 'Email', 'Invoice Number', ''])).toBe(true);
    expect(columnNames(['Phone', ' ', 'phone', 'Email'])).toEqual(['Phone', 'Column 2', 'phone (2)', 'Email']);
  });
});

describe('reading cells', () => {
  const dot = cellReaders('.', 'auto');
  const comma = cellReaders(',', 'd.m.Y');
  it('reads amounts with either decimal separator, currency signs and negatives', () => {
    expect(dot.amount('$1,200.50', 'x')).toBe('1200.50');
    expect(dot.amount('(12.00)', 'x')).toBe('-12.00');
    expect(dot.amount('007', 'x')).toBe('7');
    expect(comma.amount('1.234,50 €', 'x')).toBe('1234.50');
    expect(comma.amount('-0,5', 'x')).toBe('-0.5');
    expect(() => dot.amount('abc', 'total')).toThrow(/total: "abc" is not an amount/);
    expect(() => dot.amount('1.2.3', 'total')).toThrow(/not an amount/);
  });
  it('reads dates in the chosen format, or detected, and refuses impossible ones', () => {
    expect(dot.date('2024-03-01 05:14:15', 'd')).toBe('2024-03-01');
    expect(dot.date('2/29/2020', 'd')).toBe('2020-02-29');
    expect(dot.date('20/10/2019', 'd')).toBe('2019-10-20');
    expect(dot.date('01.03.2024', 'd')).toBe('2024-03-01');
    expect(comma.date('03.02.2024', 'd')).toBe('2024-02-03');
    expect(() => comma.date('2024-02-03', 'date')).toThrow(/written d\.m\.Y/);
    expect(() => dot.date('2023-02-29', 'date')).toThrow(/not a date/);
  });
  it('reads yes and no', () => {
    expect(dot.bool('Yes', 'x', false)).toBe(true);
    expect(dot.bool('', 'x', true)).toBe(true);
    expect(dot.bool('0', 'x', true)).toBe(false);
    expect(() => dot.bool('maybe', 'taxable', false)).toThrow(/taxable/);
  });
});

describe('proposing a mapping', () => {
  const resource = {
    name: 'things',
    label: 'Things',
    fields: [
      { name: 'number', label: 'Number', synonyms: ['Invoice #'] },
      { name: 'customer_name', label: 'Customer', synonyms: ['Client', 'Customer'] },
      { name: 'total', label: 'Total', synonyms: ['Amount'] },
    ],
    prepare: () => null,
    write: async () => [],
  } satisfies ImportResource;
  it('matches names and synonyms with case, spaces and _ aside; each field once', () => {
    expect(proposeMapping(['INVOICE #', 'client', 'Customer', 'Other'], resource, null)).toEqual({
      'INVOICE #': 'number',
      client: 'customer_name',
      Customer: null,
      Other: null,
    });
  });
  it("puts a preset's columns first, wherever they stand", () => {
    const preset = { columns: { Customer: 'customer_name', Amount: 'total' } };
    expect(proposeMapping(['client', 'Customer', 'Amount', 'total'], resource, preset)).toEqual({
      client: null,
      Customer: 'customer_name',
      Amount: 'total',
      total: null,
    });
  });
});
