import { at, children, parseXml, textAt, type XmlElement } from '../../core/plugin-api.ts';
// CAMT.053 (ISO 20022 BankToCustomerStatement, versions .001.02 to .001.08) as the banks export it: each
// statement's account, and each entry's amount, direction, booking date, references, counterparty and
// remittance. An entry that batches several transactions with their own amounts (a collective credit)
// becomes one entry per transaction. Read with the core's safe XML reader (no DTD, bounded depth and size).
import {
  bankAmount,
  checkEntryCount,
  MAX_XML_ELEMENTS,
  unreadableStatement,
  type ParsedStatement,
  type StatementEntry,
} from './statement.ts';

const CAMT053 = /^urn:iso:std:iso:20022:tech:xsd:camt\.053\.001\.0([2-8])$/;

export function isCamt(head: string): boolean {
  return /camt\.053\.001\.0[0-9]/.test(head);
}

export function parseCamt(bytes: Uint8Array): ParsedStatement {
  const root = parseXml(bytes, { refuse: unreadableStatement, maxNodes: MAX_XML_ELEMENTS });
  if (root.name !== 'Document' || !CAMT053.test(root.ns)) {
    throw unreadableStatement(`The XML is not a CAMT.053 statement of versions .001.02 to .001.08 (its root is ${root.name} ${root.ns}).`);
  }
  const report = at(root, 'BkToCstmrStmt');
  const statements = children(report, 'Stmt');
  if (!statements.length) throw unreadableStatement('The CAMT.053 file holds no statement (Stmt).');
  const entries: StatementEntry[] = [];
  let account = '';
  let statementId = '';
  for (const stmt of statements) {
    account ||= textAt(stmt, 'Acct/Id/IBAN') || textAt(stmt, 'Acct/Id/Othr/Id');
    statementId ||= textAt(stmt, 'Id');
    for (const ntry of children(stmt, 'Ntry')) {
      for (const e of entryRows(ntry, entries.length)) entries.push(e);
      checkEntryCount(entries.length);
    }
  }
  if (!account) throw unreadableStatement('The statement names no account (Acct/Id).');
  return { format: 'camt.053', account: account.replace(/\s+/g, '').toUpperCase(), statementId, entries };
}

function entryRows(ntry: XmlElement, before: number): StatementEntry[] {
  const amt = at(ntry, 'Amt');
  if (!amt) throw unreadableStatement(`Entry ${before + 1} has no amount.`);
  const indicator = textAt(ntry, 'CdtDbtInd');
  if (indicator !== 'CRDT' && indicator !== 'DBIT') throw unreadableStatement(`Entry ${before + 1} is neither a credit nor a debit.`);
  // a reversal turns the direction around (a returned credit is money going out)
  const reversal = textAt(ntry, 'RvslInd') === 'true';
  const direction: StatementEntry['direction'] = (indicator === 'CRDT') !== reversal ? 'credit' : 'debit';
  const date = (textAt(ntry, 'BookgDt/Dt') || textAt(ntry, 'BookgDt/DtTm') || textAt(ntry, 'ValDt/Dt')).slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw unreadableStatement(`Entry ${before + 1} has no booking date.`);
  const entryRef = textAt(ntry, 'AcctSvcrRef');
  const details = children(at(ntry, 'NtryDtls'), 'TxDtls').concat(
    ...children(ntry, 'NtryDtls')
      .slice(1)
      .map((d) => children(d, 'TxDtls')),
  );
  const amountOf = (tx: XmlElement) => at(tx, 'Amt') ?? at(tx, 'AmtDtls/TxAmt/Amt');
  const split = details.length > 1 && details.every((tx) => amountOf(tx));
  const parts = split ? details : [details[0] ?? null];
  return parts.map((tx, i) => {
    const a = split ? amountOf(tx!)! : amt;
    const txRef = textAt(tx, 'Refs/AcctSvcrRef');
    const e2e = textAt(tx, 'Refs/EndToEndId');
    const ownRef = split ? txRef || (entryRef ? `${entryRef}/${i + 1}` : '') : txRef || entryRef;
    return {
      n: before + i + 1,
      date,
      amount: bankAmount(a.text, `Entry ${before + 1}`),
      currency: (a.attrs.Ccy ?? '').toUpperCase(),
      direction,
      counterparty: counterparty(tx, direction),
      remittance: remittance(tx) || textAt(ntry, 'AddtlNtryInf'),
      bankReference: ownRef || (e2e && e2e !== 'NOTPROVIDED' ? e2e : ''),
    };
  });
}

/** The other party's name: the debtor of a credit, the creditor of a debit (.08 nests it under Pty). */
function counterparty(tx: XmlElement | null, direction: StatementEntry['direction']): string {
  const role = direction === 'credit' ? 'Dbtr' : 'Cdtr';
  return textAt(tx, `RltdPties/${role}/Nm`) || textAt(tx, `RltdPties/${role}/Pty/Nm`);
}

function remittance(tx: XmlElement | null): string {
  const info = at(tx, 'RmtInf');
  const parts = [
    ...children(info, 'Ustrd').map((u) => u.text.trim()),
    ...children(info, 'Strd').map((s) => textAt(s, 'CdtrRefInf/Ref')),
    textAt(tx, 'AddtlTxInf'),
  ];
  return parts.filter(Boolean).join(' ');
}
