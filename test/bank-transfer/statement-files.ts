// Bank statement files written for the tests, in the shape of the ISO 20022 CAMT.053 examples and the
// national guidelines (Swiss SPS, German DK) and of banks' MT940 exports. The data is invented.

export interface TestEntry {
  amount: string;
  currency?: string;
  credit?: boolean;
  date?: string;
  /** AcctSvcrRef of the entry (CAMT) or the :61: bank reference (MT940). */
  ref?: string;
  endToEnd?: string;
  debtor?: string;
  /** Unstructured remittance lines. */
  ustrd?: string[];
  /** A structured creditor reference (RF or QR reference). */
  creditorRef?: string;
}

export const ACCOUNT = 'DE89370400440532013000';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** A CAMT.053 document of `version` (2 to 8) for ACCOUNT with `entries`. */
export function camt053(entries: TestEntry[], version = 8, stmtId = 'STMT-1'): string {
  const party = (name: string) => (version >= 8 ? `<Pty><Nm>${esc(name)}</Nm></Pty>` : `<Nm>${esc(name)}</Nm>`);
  const ntry = (e: TestEntry) => `
      <Ntry>
        <Amt Ccy="${e.currency ?? 'EUR'}">${e.amount}</Amt>
        <CdtDbtInd>${e.credit === false ? 'DBIT' : 'CRDT'}</CdtDbtInd>
        <Sts>${version >= 8 ? '<Cd>BOOK</Cd>' : 'BOOK'}</Sts>
        <BookgDt><Dt>${e.date ?? '2026-11-20'}</Dt></BookgDt>
        <ValDt><Dt>${e.date ?? '2026-11-20'}</Dt></ValDt>
        ${e.ref ? `<AcctSvcrRef>${esc(e.ref)}</AcctSvcrRef>` : ''}
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls>
          <TxDtls>
            <Refs>${e.endToEnd ? `<EndToEndId>${esc(e.endToEnd)}</EndToEndId>` : '<EndToEndId>NOTPROVIDED</EndToEndId>'}</Refs>
            <AmtDtls><TxAmt><Amt Ccy="${e.currency ?? 'EUR'}">${e.amount}</Amt></TxAmt></AmtDtls>
            ${e.debtor ? `<RltdPties><${e.credit === false ? 'Cdtr' : 'Dbtr'}>${party(e.debtor)}</${e.credit === false ? 'Cdtr' : 'Dbtr'}></RltdPties>` : ''}
            <RmtInf>
              ${(e.ustrd ?? []).map((u) => `<Ustrd>${esc(u)}</Ustrd>`).join('')}
              ${e.creditorRef ? `<Strd><CdtrRefInf><Tp><CdOrPrtry><Cd>SCOR</Cd></CdOrPrtry></Tp><Ref>${esc(e.creditorRef)}</Ref></CdtrRefInf></Strd>` : ''}
            </RmtInf>
          </TxDtls>
        </NtryDtls>
      </Ntry>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.0${version}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>MSG-${stmtId}</MsgId><CreDtTm>2026-11-21T06:00:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>${stmtId}</Id>
      <ElctrncSeqNb>1</ElctrncSeqNb>
      <CreDtTm>2026-11-21T06:00:00</CreDtTm>
      <Acct><Id><IBAN>${ACCOUNT}</IBAN></Id><Ccy>EUR</Ccy><Svcr><FinInstnId><BIC>COBADEFFXXX</BIC></FinInstnId></Svcr></Acct>
      <Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">1000.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-19</Dt></Dt></Bal>
      ${entries.map(ntry).join('')}
    </Stmt>
  </BkToCstmrStmt>
</Document>`;
}

/** An MT940 export for ACCOUNT with `entries` (German-bank style structured :86:). */
export function mt940(entries: TestEntry[], stmtId = 'STARTUMS'): string {
  const line = (e: TestEntry) => {
    const d = (e.date ?? '2026-11-20').replace(/-/g, '').slice(2);
    const amount = e.amount.replace('.', ',');
    const purpose = (e.ustrd ?? []).join(' ') + (e.creditorRef ? ` ${e.creditorRef}` : '');
    const parts = purpose.match(/.{1,27}/g) ?? [''];
    const sub = parts.map((p, i) => `?${20 + i}${p}`).join('');
    return [
      `:61:${d}${d.slice(2)}${e.credit === false ? 'D' : 'C'}${amount}NTRFNONREF${e.ref ? `//${e.ref}` : ''}`,
      `:86:166?00SEPA-GUTSCHRIFT${sub}?32${(e.debtor ?? '').slice(0, 27)}`,
    ].join('\r\n');
  };
  return [
    `:20:${stmtId}`,
    `:25:COBADEFFXXX/${ACCOUNT}`,
    ':28C:00001/001',
    ':60F:C261119EUR1000,00',
    ...entries.map(line),
    ':62F:C261120EUR1000,00',
    '-',
  ].join('\r\n');
}
