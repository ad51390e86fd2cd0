import { BillingError } from '../errors.ts';
import { describeErrors, validator } from '../validation/ajv.ts';

export const ARCHIVE_FORMAT = 'billing-export';
export const FORMAT_VERSION = 1;
export const MANIFEST_FILE = 'manifest.json';

/** One file of the archive as the manifest vouches for it. */
export interface ManifestFile {
  /** Bytes of the file. */
  size: number;
  /** Hex SHA-256 of the file. */
  sha256: string;
  /** NDJSON files: how many rows (lines). */
  rows?: number;
  /** NDJSON files: the columns each row carries (what a restore inserts; the others take their defaults). */
  columns?: string[];
}

/**
 * `manifest.json`, the archive's last entry (written once every file's checksum is known, so the
 * archive streams): what wrote it, the schema it was read from, and every other file with its checksum.
 */
export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  format_version: number;
  service_version: string;
  created: string;
  /** Whether password hashes, application passwords and secret options are in it (`--include-secrets`). */
  includes_secrets: boolean;
  /** Applied schema migrations per owner (`documents`, `plugin:recurring`, …), as `billing_migrations` lists them. */
  schema: Record<string, string[]>;
  /** Plugins active in the source, with their versions. */
  plugins: Array<{ name: string; version: string | null }>;
  /** Every other file of the archive by its name, in archive order. */
  files: Record<string, ManifestFile>;
}

/**
 * Limits of an archive a restore reads (it is untrusted input: a file from elsewhere). A manifest lists
 * every file, so it is bounded like one; a row is bounded so one line never fills the memory; the total
 * bounds the work a small gzip (a decompression bomb) can ask for.
 */
export const ARCHIVE_LIMITS = {
  manifestBytes: 64 * 1024 * 1024,
  rowBytes: 16 * 1024 * 1024,
  entryBytes: 8 * 1024 * 1024 * 1024,
  totalBytes: 64 * 1024 * 1024 * 1024,
  entries: 2_000_000,
} as const;

const SHA256 = { type: 'string', pattern: '^[0-9a-f]{64}$' };
const NAME = { type: 'string', maxLength: 200 };

const MANIFEST_SCHEMA = {
  type: 'object',
  required: ['format', 'format_version', 'service_version', 'created', 'includes_secrets', 'schema', 'plugins', 'files'],
  properties: {
    format: { const: ARCHIVE_FORMAT },
    format_version: { type: 'integer' },
    service_version: { type: 'string', maxLength: 100 },
    created: { type: 'string', maxLength: 40 },
    includes_secrets: { type: 'boolean' },
    schema: { type: 'object', maxProperties: 1000, additionalProperties: { type: 'array', maxItems: 10_000, items: NAME } },
    plugins: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        required: ['name'],
        properties: { name: NAME, version: { type: ['string', 'null'], maxLength: 100 } },
      },
    },
    files: {
      type: 'object',
      maxProperties: ARCHIVE_LIMITS.entries,
      additionalProperties: {
        type: 'object',
        required: ['size', 'sha256'],
        properties: {
          size: { type: 'integer', minimum: 0 },
          sha256: SHA256,
          rows: { type: 'integer', minimum: 0 },
          columns: { type: 'array', maxItems: 1000, items: { type: 'string', pattern: '^[a-z_][a-z0-9_]{0,62}$' } },
        },
      },
    },
  },
} as const;

const checkManifest = validator(MANIFEST_SCHEMA);

const invalid = (message: string) => new BillingError('billing_archive_invalid', message);

/** The manifest's bytes read as a manifest this version understands, or a refusal saying why not. */
export function parseManifest(bytes: Buffer): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw invalid('the archive is not a billing export: manifest.json is not JSON');
  }
  const v = value as Partial<Manifest> | null;
  if (!v || typeof v !== 'object' || v.format !== ARCHIVE_FORMAT)
    throw invalid('the archive is not a billing export (no "format": "billing-export")');
  // the version first: a later format may change anything else, and this is the clearest answer
  if (v.format_version !== FORMAT_VERSION) {
    throw invalid(`the archive's format_version is ${JSON.stringify(v.format_version)}; this service reads version ${FORMAT_VERSION}`);
  }
  if (!checkManifest(value)) throw invalid(`the archive's manifest.json is malformed: ${describeErrors(checkManifest.errors)}`);
  return value as Manifest;
}

/** What may be in an archive: the manifest, NDJSON sections, and documents' PDFs. Nothing else, no folders. */
export function allowedEntryName(name: string): 'manifest' | 'section' | 'pdf' | null {
  if (name === MANIFEST_FILE) return 'manifest';
  if (/^[a-z0-9_-]{1,64}(\/[a-z0-9_-]{1,64})?\.ndjson$/.test(name)) return 'section';
  if (/^pdfs\/(invoices|quotes|credit_notes)\/[A-Za-z0-9_-]{1,80}\.pdf$/.test(name)) return 'pdf';
  return null;
}
