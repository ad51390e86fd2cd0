import { Decimal, type DecimalInput } from '../money/decimal.ts';
import { InvalidAmountError } from '../money/errors.ts';
import { countryName, isCountry } from './countries.ts';
import { isEuMemberState } from './eu.ts';
import { normalizeVatNumber } from './vat-number.ts';

export type TaxCategory = 'standard' | 'reverse_charge' | 'export' | 'exempt';

export const TAX_CATEGORIES: readonly TaxCategory[] = Object.freeze(['standard', 'reverse_charge', 'export', 'exempt']);

export interface TaxTreatmentInput {
  /** Option `tax_rate`: a percentage (20 is 20 %), 0 for no tax. At most 4 decimals, 0–100. */
  taxRate: DecimalInput;
  /** Option `business_country` (ISO 3166-1 alpha-2). Empty or unknown: every customer is domestic. */
  businessCountry?: string | null;
  /** Option `tax_exempt_statement`: when set (non-blank) every document is exempt with this statement. */
  taxExemptStatement?: string | null;
  /** The customer's country (document override, else client record); empty counts as domestic. */
  customerCountry?: string | null;
  /** The customer's VAT number (document override, else client record); may be empty. */
  customerVat?: string | null;
}

/** The `tax_treatment` of a document, plus the rate (percent) its taxable lines are taxed at. */
export interface TaxTreatment {
  category: TaxCategory;
  /** Printed on the page and the PDF; empty for `standard`. */
  statement: string;
  /** The percentage to apply: the option's rate for `standard`, 0 otherwise. */
  rate: number;
}

/**
 * Decides how a document is taxed (docs/documents.md), first match wins:
 * 1. `exempt` — option `tax_exempt_statement` is set: rate 0, that statement.
 * 2. `reverse_charge` — business and customer are in different EU member states and the customer has a
 *    VAT number of their country's format: rate 0, the customer accounts for the VAT.
 * 3. `export` — the customer is outside the business's tax area (the whole EU for an EU business,
 *    otherwise the business's own country): rate 0, a statement naming the export.
 * 4. `standard` — the option's rate, no statement.
 * A document without a customer country is domestic; so is every document while `business_country` is
 * unset, as no tax area is known. A VAT number of the wrong format is treated as no VAT number (so the
 * supply stays taxed rather than going untaxed on a typo). Countries are read case-insensitively.
 * Throws `InvalidAmountError` on `tax_rate` for a rate that is not a percentage with ≤ 4 decimals.
 */
export function taxTreatment(input: TaxTreatmentInput): TaxTreatment {
  const rate = Decimal.parse(input.taxRate, { maxDecimals: 4, param: 'tax_rate' });
  if (rate.sign() < 0) throw new InvalidAmountError('tax_rate', 'negative', 'tax_rate must not be negative.');
  if (rate.compare(100) > 0) throw new InvalidAmountError('tax_rate', 'above_maximum', 'tax_rate must be at most 100.');

  const exemptStatement = (input.taxExemptStatement ?? '').trim();
  if (exemptStatement !== '') return { category: 'exempt', statement: exemptStatement, rate: 0 };

  const business = countryCode(input.businessCountry);
  const customer = countryCode(input.customerCountry);
  if (business === null || customer === null) return standard(rate);

  const businessInEu = isEuMemberState(business);
  if (businessInEu && isEuMemberState(customer) && customer !== business) {
    const vat = input.customerVat ? normalizeVatNumber(customer, input.customerVat) : null;
    if (vat !== null) {
      return {
        category: 'reverse_charge',
        statement: `Reverse charge: the customer accounts for the VAT on this supply (customer VAT number ${vat}).`,
        rate: 0,
      };
    }
  }

  const sameArea = businessInEu ? isEuMemberState(customer) : customer === business;
  if (!sameArea) {
    const statement = businessInEu
      ? `Export outside the EU (customer country: ${countryName(customer)}): no VAT is charged.`
      : `Export (business country: ${countryName(business)}, customer country: ${countryName(customer)}): no tax is charged.`;
    return { category: 'export', statement, rate: 0 };
  }
  return standard(rate);
}

function standard(rate: Decimal): TaxTreatment {
  return { category: 'standard', statement: '', rate: rate.toNumber() };
}

function countryCode(value: string | null | undefined): string | null {
  const code = (value ?? '').trim().toUpperCase();
  return isCountry(code) ? code : null;
}
