import type { TranslationsDeclaration } from '../../core/plugin-api.ts';

// The QR-bill's own headings (receipt, payment part and their fields) are the wordings the SIX
// Implementation Guidelines prescribe for German, French, Italian and English; a bill in any other
// language prints them in English, as the guidelines ask, so es and nl repeat the English ones.
const QR_BILL_EN = {
  'bank_transfer.qr_bill.receipt': 'Receipt',
  'bank_transfer.qr_bill.payment_part': 'Payment part',
  'bank_transfer.qr_bill.payable_to': 'Account / Payable to',
  'bank_transfer.qr_bill.reference': 'Reference',
  'bank_transfer.qr_bill.additional_information': 'Additional information',
  'bank_transfer.qr_bill.currency': 'Currency',
  'bank_transfer.qr_bill.amount': 'Amount',
  'bank_transfer.qr_bill.acceptance_point': 'Acceptance point',
};

/** The "pay by bank transfer" block's words, on the invoice's PDF and page, in the invoice's language. */
export const BANK_TRANSFER_TEXTS: TranslationsDeclaration = {
  en: {
    'bank_transfer.heading': 'Pay by bank transfer',
    'bank_transfer.account_holder': 'Account holder',
    'bank_transfer.iban': 'IBAN',
    'bank_transfer.bic': 'BIC',
    'bank_transfer.payment_reference': 'Payment reference',
    'bank_transfer.epc_caption': 'Scan with your banking app to pay',
    'bank_transfer.epc_alt': 'GiroCode (EPC QR code) for a SEPA credit transfer',
    'bank_transfer.swiss_caption': 'Swiss QR-bill payment part',
    'bank_transfer.swiss_alt': 'Swiss QR-bill payment part with its QR code',
    ...QR_BILL_EN,
  },
  de: {
    'bank_transfer.heading': 'Zahlung per Überweisung',
    'bank_transfer.account_holder': 'Kontoinhaber',
    'bank_transfer.iban': 'IBAN',
    'bank_transfer.bic': 'BIC',
    // a structured RF reference, to be copied as it is ("Verwendungszweck" is the free text)
    'bank_transfer.payment_reference': 'Zahlungsreferenz',
    'bank_transfer.epc_caption': 'Mit Ihrer Banking-App scannen und bezahlen',
    'bank_transfer.epc_alt': 'GiroCode (EPC-QR-Code) für eine SEPA-Überweisung',
    'bank_transfer.swiss_caption': 'Zahlteil der QR-Rechnung',
    'bank_transfer.swiss_alt': 'Zahlteil der QR-Rechnung mit dem Swiss QR Code',
    'bank_transfer.qr_bill.receipt': 'Empfangsschein',
    'bank_transfer.qr_bill.payment_part': 'Zahlteil',
    'bank_transfer.qr_bill.payable_to': 'Konto / Zahlbar an',
    'bank_transfer.qr_bill.reference': 'Referenz',
    'bank_transfer.qr_bill.additional_information': 'Zusätzliche Informationen',
    'bank_transfer.qr_bill.currency': 'Währung',
    'bank_transfer.qr_bill.amount': 'Betrag',
    'bank_transfer.qr_bill.acceptance_point': 'Annahmestelle',
  },
  fr: {
    'bank_transfer.heading': 'Paiement par virement bancaire',
    'bank_transfer.account_holder': 'Titulaire du compte',
    'bank_transfer.iban': 'IBAN',
    'bank_transfer.bic': 'BIC',
    'bank_transfer.payment_reference': 'Référence de paiement',
    'bank_transfer.epc_caption': 'Scannez avec votre application bancaire pour payer',
    'bank_transfer.epc_alt': 'GiroCode (code QR EPC) pour un virement SEPA',
    'bank_transfer.swiss_caption': 'Section paiement de la QR-facture',
    'bank_transfer.swiss_alt': 'Section paiement de la QR-facture avec son code QR suisse',
    'bank_transfer.qr_bill.receipt': 'Récépissé',
    'bank_transfer.qr_bill.payment_part': 'Section paiement',
    'bank_transfer.qr_bill.payable_to': 'Compte / Payable à',
    'bank_transfer.qr_bill.reference': 'Référence',
    'bank_transfer.qr_bill.additional_information': 'Informations supplémentaires',
    'bank_transfer.qr_bill.currency': 'Monnaie',
    'bank_transfer.qr_bill.amount': 'Montant',
    'bank_transfer.qr_bill.acceptance_point': 'Point de dépôt',
  },
  es: {
    'bank_transfer.heading': 'Pago por transferencia bancaria',
    'bank_transfer.account_holder': 'Titular de la cuenta',
    'bank_transfer.iban': 'IBAN',
    'bank_transfer.bic': 'BIC',
    'bank_transfer.payment_reference': 'Referencia de pago',
    'bank_transfer.epc_caption': 'Escanee con su aplicación bancaria para pagar',
    'bank_transfer.epc_alt': 'GiroCode (código QR EPC) para una transferencia SEPA',
    'bank_transfer.swiss_caption': 'Sección de pago de la factura QR suiza',
    'bank_transfer.swiss_alt': 'Sección de pago de la factura QR suiza con su código QR',
    ...QR_BILL_EN,
  },
  it: {
    'bank_transfer.heading': 'Pagamento con bonifico bancario',
    'bank_transfer.account_holder': 'Titolare del conto',
    'bank_transfer.iban': 'IBAN',
    'bank_transfer.bic': 'BIC',
    'bank_transfer.payment_reference': 'Riferimento di pagamento',
    'bank_transfer.epc_caption': 'Inquadra con l’app della tua banca per pagare',
    'bank_transfer.epc_alt': 'GiroCode (codice QR EPC) per un bonifico SEPA',
    'bank_transfer.swiss_caption': 'Sezione pagamento della QR-fattura',
    'bank_transfer.swiss_alt': 'Sezione pagamento della QR-fattura con il codice QR svizzero',
    'bank_transfer.qr_bill.receipt': 'Ricevuta',
    'bank_transfer.qr_bill.payment_part': 'Sezione pagamento',
    'bank_transfer.qr_bill.payable_to': 'Conto / Pagabile a',
    'bank_transfer.qr_bill.reference': 'Riferimento',
    'bank_transfer.qr_bill.additional_information': 'Informazioni supplementari',
    'bank_transfer.qr_bill.currency': 'Valuta',
    'bank_transfer.qr_bill.amount': 'Importo',
    'bank_transfer.qr_bill.acceptance_point': 'Punto di accettazione',
  },
  nl: {
    'bank_transfer.heading': 'Betalen per bankoverschrijving',
    'bank_transfer.account_holder': 'Rekeninghouder',
    'bank_transfer.iban': 'IBAN',
    'bank_transfer.bic': 'BIC',
    'bank_transfer.payment_reference': 'Betalingskenmerk',
    'bank_transfer.epc_caption': 'Scan met uw bankapp om te betalen',
    'bank_transfer.epc_alt': 'GiroCode (EPC-QR-code) voor een SEPA-overboeking',
    'bank_transfer.swiss_caption': 'Betaaldeel van de Zwitserse QR-factuur',
    'bank_transfer.swiss_alt': 'Betaaldeel van de Zwitserse QR-factuur met de QR-code',
    ...QR_BILL_EN,
  },
};

/** The languages the QR-bill's own wording exists in (the `swissqrbill` library's `language` option); others print English. */
export function qrBillLanguage(locale: string): 'DE' | 'FR' | 'IT' | 'EN' {
  const up = locale.toUpperCase();
  return up === 'DE' || up === 'FR' || up === 'IT' ? up : 'EN';
}
