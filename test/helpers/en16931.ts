// The official validation rules, run with SaxonJS: EN 16931 (shared/einvoice-en16931, Schematron already
// compiled to XSLT by CEN), and the Peppol BIS Billing 3.0 and XRechnung rules on top of it
// (shared/einvoice-peppol-xrechnung, published as Schematron sources: compiled here to XSLT by
// schematron/compile-schematron.xsl, XRechnung with the Peppol rules merged in as its release does).
// Each XSLT is compiled to a SEF file once and kept under .cache/ (gitignored), keyed by the hash of
// everything it is made from, so a test run compiles at most once and later runs not at all.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { validateXML } from 'xmllint-wasm';

const ROOT = resolve(import.meta.dirname, '../..');
/** Where the artefacts are: beside the checkout (CI: shared/ next to the clone), or `<NAME>_DIR`. */
function shared(name: string, env: string | undefined): string {
  return (
    env ??
    [resolve(ROOT, '../shared', name), resolve(ROOT, '../../shared', name), join('/work/shared', name)].find((d) => existsSync(d)) ??
    resolve(ROOT, '../shared', name)
  );
}
export const EN16931_DIR = shared('einvoice-en16931', process.env.EN16931_DIR);
/** The Peppol BIS 3 and XRechnung rules, their examples and unit tests. */
export const PEPPOL_XRECHNUNG_DIR = shared('einvoice-peppol-xrechnung', process.env.PEPPOL_XRECHNUNG_DIR);

const PEPPOL_SCH = join(PEPPOL_XRECHNUNG_DIR, 'peppol/sch/PEPPOL-EN16931-UBL.sch');
const XRECHNUNG_SCH = join(PEPPOL_XRECHNUNG_DIR, 'xrechnung/schematron/ubl/XRechnung-UBL-validation.sch');
const XRECHNUNG_COMMON = join(PEPPOL_XRECHNUNG_DIR, 'xrechnung/schematron/common.sch');
const XRECHNUNG_RULE_LIST = join(PEPPOL_XRECHNUNG_DIR, 'xrechnung/rule-list.xml');
const SCHEMATRON_COMPILER = join(import.meta.dirname, 'schematron/compile-schematron.xsl');

/**
 * The rule sets: `ubl` and `cii` are EN 16931 in each syntax; `peppol` the Peppol BIS Billing 3.0 rules
 * (UBL), which a Peppol access point applies besides EN 16931; `xrechnung` the XRechnung CIUS (UBL) with
 * the Peppol rules its release merges in, which German public receivers apply besides EN 16931.
 */
export type RuleSet = 'ubl' | 'cii' | 'peppol' | 'xrechnung';

interface Source {
  /** Every file the compiled form depends on (hashed into its cache key). */
  inputs: string[];
  /** The XSLT, made first when the rules are Schematron. */
  xslt(dir: string): string;
}

const xsltFile = (file: string): Source => ({ inputs: [file], xslt: () => file });
const schematron = (sch: string, includes: string[], params: Record<string, string> = {}): Source => ({
  inputs: [SCHEMATRON_COMPILER, sch, ...includes],
  xslt: (dir) => {
    const out = join(dir, `${createHash('sha256').update(sch).digest('hex').slice(0, 8)}.${process.pid}.xsl`);
    const args = Object.entries(params).map(([k, v]) => `${k}=${v}`);
    run([`-xsl:${SCHEMATRON_COMPILER}`, `-s:${sch}`, `-o:${out}`, ...args], sch);
    return out;
  },
});

const SOURCES: Record<RuleSet, Source> = {
  ubl: xsltFile(join(EN16931_DIR, 'ubl/xslt/EN16931-UBL-validation.xslt')),
  cii: xsltFile(join(EN16931_DIR, 'cii/xslt/EN16931-CII-validation.xslt')),
  peppol: schematron(PEPPOL_SCH, []),
  xrechnung: schematron(XRECHNUNG_SCH, [XRECHNUNG_COMMON, PEPPOL_SCH, XRECHNUNG_RULE_LIST], {
    'merge-peppol': pathToFileURL(PEPPOL_SCH).href,
    'rule-list': pathToFileURL(XRECHNUNG_RULE_LIST).href,
  }),
};
const CII_SCHEMA_DIR = join(EN16931_DIR, 'cii/schema/D16B SCRDM (Subset)/uncoupled clm/CII/uncefact/data/standard');
const CII_SCHEMA = 'CrossIndustryInvoice_100pD16B.xsd';

const require = createRequire(import.meta.url);
const SaxonJS = require('saxon-js') as {
  transform(options: Record<string, unknown>, mode: 'sync'): { principalResult: string };
};

/** xslt3 (SaxonJS's compiler) with `args`, in a child process. */
function run(args: string[], what: string): void {
  const out = spawnSync(process.execPath, [require.resolve('xslt3/xslt3.js'), ...args], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`xslt3 could not compile ${what}: ${out.stderr}`);
}

const compiled = new Map<RuleSet, unknown>();

/** The compiled stylesheet of one rule set, compiling it on first use (seconds to 15 s each). */
function stylesheet(rules: RuleSet): unknown {
  const cachedSef = compiled.get(rules);
  if (cachedSef) return cachedSef;
  const source = SOURCES[rules];
  const hash = createHash('sha256');
  for (const input of source.inputs) hash.update(readFileSync(input));
  const sef = join(ROOT, '.cache/en16931', `${rules}-${hash.digest('hex').slice(0, 16)}.sef.json`);
  if (!existsSync(sef)) {
    mkdirSync(dirname(sef), { recursive: true });
    const tmp = `${sef}.${process.pid}.tmp`;
    const xslt = source.xslt(dirname(sef));
    run([`-xsl:${xslt}`, `-export:${tmp}`, '-nogo'], xslt);
    if (xslt !== source.inputs[0]) rmSync(xslt);
    renameSync(tmp, sef); // atomic: parallel workers never read half a file
  }
  const parsed = JSON.parse(readFileSync(sef, 'utf8'));
  compiled.set(rules, parsed);
  return parsed;
}

/**
 * Compiles (or loads) the stylesheets now (all four unless named). A first compile blocks this process
 * for seconds (more on a loaded machine): done before a test opens its HTTP connections, it cannot leave
 * a keep-alive connection idle past the server's timeout and have it reset under the next request.
 */
export function warmEn16931(rules: RuleSet[] = ['ubl', 'cii', 'peppol', 'xrechnung']): void {
  for (const r of rules) stylesheet(r);
}

export interface FailedAssert {
  id: string;
  flag: string;
  text: string;
  /** XPath of the node the rule failed on. */
  location: string;
}

/** Every failed assertion of one rule set on `xml` (UBL, or CII for `cii`). */
export function en16931Asserts(xml: string, rules: RuleSet): FailedAssert[] {
  const { principalResult } = SaxonJS.transform(
    { stylesheetInternal: stylesheet(rules), sourceText: xml, destination: 'serialized' },
    'sync',
  );
  const out: FailedAssert[] = [];
  for (const m of principalResult.matchAll(/<svrl:failed-assert\b([^>]*)>([\s\S]*?)<\/svrl:failed-assert>/g)) {
    const attrs = m[1]!;
    const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(attrs)?.[1] ?? '';
    const role = attr('role');
    out.push({
      id: attr('id'),
      // a rule marks what breaks a document by its flag, or by its role (error, fatal)
      flag: attr('flag') || (role === 'error' ? 'fatal' : role),
      text: /<svrl:text>([\s\S]*?)<\/svrl:text>/.exec(m[2]!)?.[1]?.trim() ?? '',
      location: attr('location'),
    });
  }
  return out.filter((a) => !IBAN_RULES.has(a.id) || ibanFailureStands(xml, a));
}

/**
 * SaxonJS computes `xs:integer` in double precision, so the IBAN check digits (mod 97) of DE-R-019
 * (Peppol's German rules) and BR-DE-19 (XRechnung), both warnings, fail most valid IBANs there. A reported
 * failure of those two is judged again here, exactly, on the account of the payment means it names.
 */
const IBAN_RULES = new Set(['DE-R-019', 'BR-DE-19']);

function ibanFailureStands(xml: string, a: FailedAssert): boolean {
  const nth = Number(/PaymentMeans[^/]*\[(\d+)\]/.exec(a.location)?.[1] ?? 0);
  const means = [...xml.matchAll(/<cac:PaymentMeans>([\s\S]*?)<\/cac:PaymentMeans>/g)][nth - 1]?.[1];
  const iban = means && /<cac:PayeeFinancialAccount>\s*<cbc:ID>([^<]*)<\/cbc:ID>/.exec(means)?.[1]?.replace(/\s+/g, '');
  if (!iban || !/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return true;
  const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  return BigInt(digits) % 97n !== 1n;
}

/** Only the fatal ones: a document is valid by those rules when there is none. */
export function en16931Fatal(xml: string, rules: RuleSet): FailedAssert[] {
  return en16931Asserts(xml, rules).filter((a) => a.flag === 'fatal');
}

/** What a Peppol access point rejects a UBL document for: EN 16931 and Peppol BIS 3 fatal assertions. */
export function peppolFatal(xml: string): FailedAssert[] {
  return [...en16931Fatal(xml, 'ubl'), ...en16931Fatal(xml, 'peppol')];
}

/** What a German public receiver rejects an XRechnung (UBL) for: EN 16931 and XRechnung fatal assertions. */
export function xrechnungFatal(xml: string): FailedAssert[] {
  return [...en16931Fatal(xml, 'ubl'), ...en16931Fatal(xml, 'xrechnung')];
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
