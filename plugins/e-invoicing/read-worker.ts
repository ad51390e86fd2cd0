// The e-invoice reader as a bounded worker runs it (runBounded, see reader.ts): bytes in, data out.
import { readEinvoiceNow, type ReadEinvoice } from './reader.ts';

export default function readInWorker(bytes: Uint8Array): Promise<ReadEinvoice> {
  return readEinvoiceNow(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}
