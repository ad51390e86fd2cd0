/** Tax treatment of documents (docs/documents.md): countries, EU member states, VAT number formats. */
export { COUNTRY_CODES, countryName, isCountry } from './countries.ts';
export { EU_MEMBER_STATES, isEuMemberState } from './eu.ts';
export { hasVatFormat, normalizeVatNumber, validVatNumber, VAT_FORMATS } from './vat-number.ts';
export { TAX_CATEGORIES, type TaxCategory, type TaxTreatment, type TaxTreatmentInput, taxTreatment } from './treatment.ts';
export {
  breakdownJson,
  breakdownLabel,
  taxStatements,
  type BreakdownInput,
  type CreditPart,
  creditParts,
  type TaxBreakdownEntry,
  taxBreakdown,
  type VatCategoryCode,
  vatCategory,
} from './breakdown.ts';
