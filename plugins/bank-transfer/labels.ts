// Every text the payer or a person in the admin app reads from this plugin, in one place, so the words
// can become translation keys without hunting through the code.
export const LABELS = {
  paymentReference: 'Payment reference',
  bankDetails: 'Pay by bank transfer',
  accountHolder: 'Account holder',
  iban: 'IBAN',
  bic: 'BIC',
  epcCaption: 'Scan with your banking app to pay',
  epcAlt: 'GiroCode (EPC QR code) for a SEPA credit transfer',
  swissCaption: 'Swiss QR-bill payment part',
  swissAlt: 'Swiss QR-bill payment part with its QR code',
  receipt: 'Receipt',
  paymentPart: 'Payment part',
  payableTo: 'Account / Payable to',
  reference: 'Reference',
  additionalInformation: 'Additional information',
  currency: 'Currency',
  amount: 'Amount',
  acceptancePoint: 'Acceptance point',
} as const;
