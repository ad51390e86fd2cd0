// The official EN 16931 validation rules (shared/einvoice-en16931, schematron compiled to XSLT), run
// with SaxonJS. Each XSLT is compiled to a SEF file once and kept under .cache/ (gitignored), keyed by
// the XSLT's hash, so a test run compiles at most once and later runs not at all.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { validateXML } from 'xmllint-wasm';

const ROOT = resolve(import.meta.dirname, '../..');
/** Where the artefacts are: beside the checkout (CI: shared/ next to the clone), or EN16931_DIR. */
export const EN16931_DIR =
  process.env.EN16931_DIR ??
  [resolve(ROOT, '../shared/einvoice-en16931'), resolve(ROOT, '../../shared/einvoice-en16931'), '/work/shared/einvoice-en16931'].find((d) =>
    existsSync(d),
  ) ??
  resolve(ROOT, '../shared/einvoice-en16931');

const XSLT = {
  ubl: join(EN16931_DIR, 'ubl/xslt/EN16931-UBL-validation.xslt'),
  cii: join(EN16931_DIR, 'cii/xslt/EN16931-CII-validation.xslt'),
};
const CII_SCHEMA_DIR = join(EN16931_DIR, 'cii/schema/D16B SCRDM (Subset)/uncoupled clm/CII/uncefact/data/standard');
const CII_SCHEMA = 'CrossIndustryInvoice_100pD16B.xsd';

const require = createRequire(import.meta.url);
const SaxonJS = require('saxon-js') as {
  transform(options: Record<string, unknown>, mode: 'sync'): { principalResult: string };
};

const compiled = new Map<string, unknown>();

/** The compiled stylesheet of one syntax, compiling it on first use (about 15 s each). */
function stylesheet(syntax: 'ubl' | 'cii'): unknown {
  const cachedSef = compiled.get(syntax);
  if (cachedSef) return cachedSef;
  const xslt = XSLT[syntax];
  const hash = createHash('sha256').update(readFileSync(xslt)).digest('hex').slice(0, 16);
  const sef = join(ROOT, '.cache/en16931', `${syntax}-${hash}.sef.json`);
  if (!existsSync(sef)) {
    mkdirSync(dirname(sef), { recursive: true });
    const tmp = `${sef}.${process.pid}.tmp`;
    const cli = require.resolve('xslt3/xslt3.js');
    const out = spawnSync(process.execPath, [cli, `-xsl:${xslt}`, `-export:${tmp}`, '-nogo'], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`xslt3 could not compile ${xslt}: ${out.stderr}`);
    renameSync(tmp, sef); // atomic: parallel workers never read half a file
  }
  const parsed = JSON.parse(readFileSync(sef, 'utf8'));
  compiled.set(syntax, parsed);
  return parsed;
}

/**
 * Compiles (or loads) both stylesheets now. A first compile blocks this process for seconds (more on a
 * loaded machine): done before a test opens its HTTP connections, it cannot leave a keep-alive
 * connection idle past the server's timeout and have it reset under the next request.
 */
export function warmEn16931(): void {
  stylesheet('ubl');
  stylesheet('cii');
}

export interface FailedAssert {
  id: string;
  flag: string;
  text: string;
}

/** Every failed assertion of the EN 16931 rules on `xml` (UBL or CII). */
export function en16931Asserts(xml: string, syntax: 'ubl' | 'cii'): FailedAssert[] {
  const { principalResult } = SaxonJS.transform(
    { stylesheetInternal: stylesheet(syntax), sourceText: xml, destination: 'serialized' },
    'sync',
  );
  const out: FailedAssert[] = [];
  for (const m of principalResult.matchAll(/<svrl:failed-assert\b([^>]*)>([\s\S]*?)<\/svrl:failed-assert>/g)) {
    const attrs = m[1]!;
    out.push({
      id: /\bid="([^"]*)"/.exec(attrs)?.[1] ?? '',
      flag: /\bflag="([^"]*)"/.exec(attrs)?.[1] ?? '',
      text: /<svrl:text>([\s\S]*?)<\/svrl:text>/.exec(m[2]!)?.[1]?.trim() ?? '',
    });
  }
  return out;
}

/** Only the fatal ones: an invoice is valid when there is none. */
export function en16931Fatal(xml: string, syntax: 'ubl' | 'cii'): FailedAssert[] {
  return en16931Asserts(xml, syntax).filter((a) => a.flag === 'fatal');
}

let ciiSchemaFiles: Array<{ fileName: string; contents: string }> | null = null;

/**
 * What libxml2 says of `xml` against the CII D16B schema: '' when it is valid, else its messages. libxml2
 * runs compiled to WASM (xmllint-wasm), so the check needs nothing `npm install` does not bring.
 */
export async function ciiSchemaErrors(xml: string): Promise<string> {
  // the main schema first, then the three it imports, preloaded under the names its imports use
  ciiSchemaFiles ??= [CII_SCHEMA, ...readdirSync(CII_SCHEMA_DIR).filter((f) => f.endsWith('.xsd') && f !== CII_SCHEMA)].map((fileName) => ({
    fileName,
    contents: readFileSync(join(CII_SCHEMA_DIR, fileName), 'utf8'),
  }));
  const [main, ...imported] = ciiSchemaFiles;
  const result = await validateXML({
    xml: [{ fileName: 'cii.xml', contents: xml }],
    schema: [main!],
    preload: imported,
    maxMemoryPages: 4096, // 256 MiB: the schema's compiled form needs more than the default 16 MiB
  });
  return result.valid ? '' : result.rawOutput;
}
