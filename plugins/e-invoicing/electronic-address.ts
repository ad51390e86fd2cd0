// Electronic addresses (BT-34 seller, BT-49 buyer): where a party receives e-invoices, as an identifier in
// a scheme of the EAS code list. Peppol routes by them and accepts only the schemes of its own list; a
// few schemes' identifiers carry check digits that Peppol verifies. Pure data and checks.

/** An electronic address: an EAS scheme and an identifier in it. */
export interface Endpoint {
  scheme: string;
  id: string;
}

/**
 * The EAS schemes Peppol BIS Billing 3.0 accepts for an electronic address (its code list, release
 * 3.0.19). E-mail (`EM`) is not one of them: Peppol delivers by participant identifier only.
 */
// prettier-ignore
export const PEPPOL_EAS = [
  '0002', '0007', '0009', '0037', '0060', '0088', '0096', '0097', '0106', '0130', '0135', '0142', '0147', '0151',
  '0154', '0158', '0170', '0177', '0183', '0184', '0188', '0190', '0191', '0192', '0193', '0194', '0195', '0196',
  '0198', '0199', '0200', '0201', '0202', '0203', '0204', '0205', '0208', '0209', '0210', '0211', '0212', '0213',
  '0215', '0216', '0217', '0218', '0221', '0225', '0230', '0235', '0240', '9910', '9913', '9914', '9915', '9918',
  '9919', '9920', '9922', '9923', '9924', '9925', '9926', '9927', '9928', '9929', '9930', '9931', '9932', '9933',
  '9934', '9935', '9936', '9937', '9938', '9939', '9940', '9941', '9942', '9943', '9944', '9945', '9946', '9947',
  '9948', '9949', '9950', '9951', '9952', '9953', '9957', '9959',
] as const;

/**
 * The EAS scheme of each country's VAT numbers, as Peppol participants are commonly registered: a party
 * with a VAT number of one of these countries and no electronic address of its own is addressed by it.
 */
export const VAT_EAS: Readonly<Record<string, string>> = {
  AT: '9914',
  BE: '9925',
  BG: '9926',
  CH: '9927',
  CY: '9928',
  CZ: '9929',
  DE: '9930',
  EE: '9931',
  ES: '9920',
  FI: '0213',
  FR: '9957',
  GB: '9932',
  GR: '9933',
  HR: '9934',
  HU: '9910',
  IE: '9935',
  IT: '0211',
  LT: '9937',
  LU: '9938',
  LV: '9939',
  MT: '9943',
  NL: '9944',
  PL: '9945',
  PT: '9946',
  RO: '9947',
  SI: '9949',
  SK: '9950',
};

const digits = (s: string) => [...s].map(Number);

/** GS1 check digit (GLN, 0088): weights 3 and 1 from the right, before the check digit. */
function gln(id: string): boolean {
  const d = digits(id);
  const check = d.pop()!;
  const sum = d.reverse().reduce((s, n, i) => s + n * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}

/** Norwegian organisation number (0192): mod 11, weights 2–7 from the right. */
function mod11(id: string): boolean {
  const d = digits(id);
  const check = d.pop()!;
  const sum = d.reverse().reduce((s, n, i) => s + n * ((i % 6) + 2), 0);
  return Number(id) > 0 && (11 - (sum % 11)) % 11 === check;
}

/** Swedish organisation number (0007): Luhn. */
function luhn(id: string): boolean {
  const d = digits(id);
  const check = d.pop()!;
  const sum = d.reverse().reduce((s, n, i) => s + (i % 2 === 0 ? ((n * 2) % 10) + Math.floor((n * 2) / 10) : n), 0);
  return (10 - (sum % 10)) % 10 === check;
}

/** Australian Business Number (0151): weighted sum mod 89, the first digit less one. */
function abn(id: string): boolean {
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  return digits(id).reduce((s, n, i) => s + (i === 0 ? n - 1 : n) * weights[i]!, 0) % 89 === 0;
}

/** The format Peppol checks (PEPPOL-COMMON-R040 to R050) of the schemes it checks, as data. */
const CHECKED: Record<string, { format: RegExp; check?: (id: string) => boolean; name: string }> = {
  '0088': { format: /^\d{8,14}$/, check: gln, name: 'a GLN (8 to 14 digits with a valid GS1 check digit)' },
  '0192': { format: /^\d{9}$/, check: mod11, name: 'a Norwegian organisation number (9 digits, mod 11)' },
  '0184': { format: /^(DK\d{8}|\d{8})$/, name: 'a Danish CVR number (8 digits, optionally after DK)' },
  '0208': {
    format: /^\d{10}$/,
    check: (id) => 97 - (Number(id.slice(0, 8)) % 97) === Number(id.slice(8)),
    name: 'a Belgian enterprise number (10 digits, mod 97)',
  },
  '0007': { format: /^\d{10}$/, check: luhn, name: 'a Swedish organisation number (10 digits, Luhn)' },
  '0151': { format: /^\d{11}$/, check: abn, name: 'an Australian Business Number (11 digits)' },
};

/** Why `address` cannot be a Peppol electronic address, or null when it can. */
export function electronicAddressProblem(address: Endpoint): string | null {
  if (!(PEPPOL_EAS as readonly string[]).includes(address.scheme)) {
    return `scheme ${address.scheme} is not an electronic address scheme Peppol accepts (EAS code list).`;
  }
  if (!/^[^\s]{1,100}$/.test(address.id)) return 'id must be 1 to 100 characters without spaces.';
  const rule = CHECKED[address.scheme];
  if (rule && (!rule.format.test(address.id) || (rule.check && !rule.check(address.id)))) {
    return `id is not ${rule.name}, as scheme ${address.scheme} requires.`;
  }
  return null;
}
