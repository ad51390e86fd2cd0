/**
 * What an uploaded attachment is, read from its bytes alone: the name and the content type a caller
 * gives are never trusted (a PNG called `contract.pdf` is a PNG; an HTML page called `notes.txt` is
 * refused). Only types a customer's mail client, a browser download and an e-invoice receiver all
 * handle safely are accepted: nothing that runs, renders as a page or carries script.
 */
export interface FileType {
  contentType: string;
  extension: string;
}

export const PDF: FileType = { contentType: 'application/pdf', extension: 'pdf' };
export const PNG: FileType = { contentType: 'image/png', extension: 'png' };
export const JPEG: FileType = { contentType: 'image/jpeg', extension: 'jpg' };
export const CSV: FileType = { contentType: 'text/csv', extension: 'csv' };
export const TEXT: FileType = { contentType: 'text/plain', extension: 'txt' };
export const XLSX: FileType = { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: 'xlsx' };

/** Every content type an attachment can have. */
export const ATTACHMENT_TYPES: readonly string[] = [PDF, PNG, JPEG, CSV, TEXT, XLSX].map((t) => t.contentType);

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Markup a browser or mail client would render or run, wherever it appears in a text file. */
const ACTIVE_TEXT = /<\s*(!doctype|html|head|body|script|svg|iframe|object|embed|meta|link|style|form|img|a\s|\?xml)|javascript:/i;

/** The type of an uploaded file by its bytes, or null when it is not one an attachment may be. */
export function sniffFileType(bytes: Buffer, filename: string): FileType | null {
  if (bytes.length === 0) return null;
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return PDF;
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return PNG;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return JPEG;
  if (bytes.subarray(0, 4).toString('latin1') === 'PK\x03\x04') return isWorkbook(bytes) ? XLSX : null;
  return textType(bytes, filename);
}

/**
 * An Office Open XML workbook: a zip whose entries (their names are stored uncompressed) include the
 * package's content types and the workbook part. Any other zip (a Word file, an archive of programs) is refused.
 */
function isWorkbook(bytes: Buffer): boolean {
  const names = bytes.toString('latin1');
  return names.includes('[Content_Types].xml') && names.includes('xl/workbook.xml');
}

/**
 * Plain text or CSV: valid UTF-8 without NUL or other control bytes, no markup or script anywhere, no
 * `#!` interpreter line. The name only chooses between the two harmless text types.
 */
function textType(bytes: Buffer, filename: string): FileType | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  // tab, newline and carriage return are text; every other control character is a binary file's
  if (/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(text)) return null;
  if (text.startsWith('#!') || ACTIVE_TEXT.test(text)) return null;
  return /\.csv$/i.test(filename) ? CSV : TEXT;
}

/**
 * The name a file is stored and served under: the caller's name without any folder, control or quote
 * characters, at most 120 characters, with the extension of the type its bytes are (a PNG sent as
 * `scan.pdf` is `scan.png`).
 */
export function safeFilename(given: string, type: FileType): string {
  const base = (given.split(/[\\/]/).pop() ?? '')
    .normalize('NFC')
    .replace(/[\x00-\x1f\x7f"';<>:*?|%]/g, '')
    .trim();
  const stem =
    base
      .replace(/\.[^.]*$/, '')
      .replace(/^\.+/, '')
      .slice(0, 110) || 'attachment';
  return `${stem}.${type.extension}`;
}

/** The file name a `Content-Disposition: attachment; filename="…"` (or `filename*=UTF-8''…`) request header gives; '' when none. */
export function dispositionFilename(header: string | undefined): string {
  if (!header) return '';
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // an undecodable extended name falls back to the plain one
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  return (plain?.[1] ?? plain?.[2] ?? '').replace(/\\(.)/g, '$1').trim();
}

/** A download's `Content-Disposition`: always `attachment` (never shown in the service's own origin), the name in ASCII and in UTF-8. */
export function downloadDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
