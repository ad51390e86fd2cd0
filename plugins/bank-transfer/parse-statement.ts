import { BillingError, runBounded } from '../../core/plugin-api.ts';
// Reading a statement file: the format from its first bytes, then the parser, in a bounded worker
// (parse-worker.ts) so a hostile or huge file is stopped by time and memory and never holds the event loop.
import { isCamt, parseCamt } from './camt.ts';
import { isMt940, parseMt940 } from './mt940.ts';
import { PARSE_MEMORY_MB, PARSE_TIMEOUT_MS, unreadableStatement, type ParsedStatement } from './statement.ts';

/** Parses on the calling thread: only ever called inside the bounded worker. */
export function parseStatementNow(bytes: Uint8Array): ParsedStatement {
  try {
    return parse(bytes);
  } catch (e) {
    // whatever a malformed file makes a parser throw is the sender's problem, never a 500
    if (e instanceof BillingError) throw e;
    throw unreadableStatement('The statement could not be read.');
  }
}

function parse(bytes: Uint8Array): ParsedStatement {
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 4096));
  if (
    head
      .replace(/^\uFEFF/, '')
      .trimStart()
      .startsWith('<')
  ) {
    if (!isCamt(head) && !/<!DOCTYPE/i.test(head)) throw unreadableStatement('The XML is not a CAMT.053 bank statement.');
    return parseCamt(bytes);
  }
  if (isMt940(head)) {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      // MT940 exports are often Latin-1
      text = new TextDecoder('latin1').decode(bytes);
    }
    return parseMt940(text);
  }
  throw unreadableStatement('The file is neither a CAMT.053 (XML) nor an MT940 statement.');
}

/** Parses a statement in a bounded worker; 400 `billing_bank_statement_unreadable` when it cannot or may not. */
export function parseStatement(bytes: Buffer): Promise<ParsedStatement> {
  return runBounded<Uint8Array, ParsedStatement>(new URL('./parse-worker.ts', import.meta.url), bytes, {
    timeoutMs: PARSE_TIMEOUT_MS,
    maxMemoryMb: PARSE_MEMORY_MB,
    refuse: (hit) =>
      unreadableStatement(
        hit === 'time'
          ? `The statement is too complex to read: it took more than ${PARSE_TIMEOUT_MS / 1000} s.`
          : `The statement is too complex to read: it needed more than ${PARSE_MEMORY_MB} MiB.`,
      ),
  });
}
