// `npm run einvoice:validate -- <file>…`: checks e-invoices with the official EN 16931 rules (the
// artefacts in shared/einvoice-en16931, or EN16931_DIR), the same oracle the tests use, and a UBL also
// with its receiver's rules: Peppol BIS 3 or XRechnung, by its customization (BT-24; the artefacts in
// shared/einvoice-peppol-xrechnung). A UBL or CII file is checked as it is; a Factur-X PDF has its
// factur-x.xml checked. A CII is also checked against the D16B schema (libxml2 compiled to WASM).
// Prints every failed assertion; exits 1 if any is fatal.
import { readFileSync } from 'node:fs';
import { extractFacturX } from '../plugins/e-invoicing/facturx-extract.ts';
import { ciiSchemaErrors, en16931Asserts, type RuleSet } from '../test/helpers/en16931.ts';

const files = process.argv.slice(2);
if (!files.length) {
  console.error('usage: npm run einvoice:validate -- <invoice.xml | factur-x.pdf> …');
  process.exit(2);
}
let fatal = 0;
for (const file of files) {
  const bytes = readFileSync(file);
  const xml = bytes.subarray(0, 1024).includes('%PDF-') ? await extractFacturX(bytes) : bytes.toString('utf8');
  const syntax: RuleSet = /<(\w+:)?CrossIndustryInvoice[\s>]/.test(xml) ? 'cii' : 'ubl';
  const customization = /<cbc:CustomizationID>([^<]*)</.exec(xml)?.[1] ?? '';
  const receiver: RuleSet[] =
    syntax === 'cii' ? [] : customization.includes('xrechnung') ? ['xrechnung'] : customization.includes('peppol') ? ['peppol'] : [];
  const asserts = [syntax, ...receiver].flatMap((rules) => en16931Asserts(xml, rules));
  const fatals = asserts.filter((a) => a.flag === 'fatal');
  fatal += fatals.length;
  for (const a of asserts) console.log(`${file}: ${a.flag} ${a.text}`);
  if (syntax === 'cii') {
    const errors = await ciiSchemaErrors(xml);
    if (errors) {
      fatal++;
      console.log(`${file}: fatal schema ${errors.trim()}`);
    }
  }
  console.log(
    `${file}: ${[syntax.toUpperCase(), ...receiver].join(' + ')}, ${fatals.length ? `${fatals.length} fatal` : 'valid'} (${asserts.length - fatals.length} warnings)`,
  );
}
process.exit(fatal ? 1 : 0);
