// The first read of an uploaded CSV, in a bounded worker (runBounded, see csv-preview.ts): bytes in, the
// file's shape, header, row count and first rows out. Every byte is read once here, so a file that
// would hold a thread or fill memory is stopped at the upload, before it is ever committed.
import {
  chunksOf,
  columnNames,
  CsvReadError,
  detectDelimiter,
  detectEncoding,
  HEADER_SEARCH,
  isHeader,
  readRecords,
  sniffText,
  type CsvShape,
} from './csv-reader.ts';

export interface CsvPreview {
  shape: CsvShape;
  columns: string[];
  /** Data rows after the header. */
  rows: number;
  /** The first data rows as cells. */
  sample: string[][];
  /** Where the file stopped being readable, if it did (rows counted up to there). */
  error: { row: number; message: string } | null;
}

export const SAMPLE_ROWS = 5;

export default async function previewCsv(bytes: Uint8Array): Promise<CsvPreview> {
  const encoding = await detectEncoding(chunksOf(bytes));
  const delimiter = detectDelimiter(sniffText(bytes, encoding));
  const shape: CsvShape = { encoding, delimiter, headerIndex: 0 };
  let columns: string[] | null = null;
  let rows = 0;
  const sample: string[][] = [];
  let seen = 0;
  try {
    for await (const record of readRecords(chunksOf(bytes), shape)) {
      if (!columns) {
        if (isHeader(record) || seen >= HEADER_SEARCH) {
          columns = columnNames(record);
          shape.headerIndex = seen;
        }
        seen++;
        continue;
      }
      rows++;
      if (sample.length < SAMPLE_ROWS) sample.push(record);
    }
  } catch (err) {
    if (!(err instanceof CsvReadError)) throw err;
    return { shape, columns: columns ?? [], rows, sample, error: { row: columns ? rows + 1 : 0, message: err.message } };
  }
  return { shape, columns: columns ?? [], rows, sample, error: null };
}
