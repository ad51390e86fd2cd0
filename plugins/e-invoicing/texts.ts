import type { TranslationsDeclaration } from '../../core/plugin-api.ts';

// The buyer's references printed on the PDF under the parties, in the document's language. The e-invoice
// XML itself is data and has no language. BT-10 in German is "Ihr Zeichen", the reference line of a German
// business letter (DIN 5008) where a buyer looks for their own reference; "Käuferreferenz" is the
// XRechnung field's name, which a viewer shows but a letter-invoice does not print.
export const EINVOICE_TEXTS: TranslationsDeclaration = {
  en: {
    'e_invoicing.buyer_reference': 'Buyer reference: {reference}',
    'e_invoicing.purchase_order': 'Purchase order: {reference}',
  },
  de: {
    'e_invoicing.buyer_reference': 'Ihr Zeichen: {reference}',
    'e_invoicing.purchase_order': 'Bestellnummer: {reference}',
  },
  fr: {
    'e_invoicing.buyer_reference': 'Référence acheteur : {reference}',
    'e_invoicing.purchase_order': 'Bon de commande : {reference}',
  },
  es: {
    'e_invoicing.buyer_reference': 'Referencia del comprador: {reference}',
    'e_invoicing.purchase_order': 'Pedido: {reference}',
  },
  it: {
    'e_invoicing.buyer_reference': 'Riferimento acquirente: {reference}',
    'e_invoicing.purchase_order': 'Ordine d’acquisto: {reference}',
  },
  nl: {
    'e_invoicing.buyer_reference': 'Referentie koper: {reference}',
    'e_invoicing.purchase_order': 'Inkoopordernummer: {reference}',
  },
};
