// The statement parser as a bounded worker runs it (runBounded, see parse-statement.ts): bytes in, data out.
import { parseStatementNow } from './parse-statement.ts';
import type { ParsedStatement } from './statement.ts';

export default function parseInWorker(bytes: Uint8Array): ParsedStatement {
  return parseStatementNow(bytes);
}
