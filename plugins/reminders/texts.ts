import type { Translator, TranslationsDeclaration } from '../../core/plugin-api.ts';
import type { ReminderStep } from './step.ts';

// The default reminder steps in every shipped language. The texts are ICU messages whose placeholders
// are the steps' tags (`{invoice_number}` is the tag `{{invoice_number}}`); `{lead}` is the step's own
// sentence. The setting's default is the English; a step still worded as that default is sent in the
// invoice's language (and in the site's own wording of these keys).

/** Offsets of the default steps and the key of each one's words. */
const STEPS: ReadonlyArray<readonly [offset: number, key: string]> = [
  [-3, 'reminders.before_due'],
  [1, 'reminders.overdue'],
  [7, 'reminders.overdue_week'],
  [14, 'reminders.overdue_two_weeks'],
];

const TAGS = ['invoice_number', 'client_name', 'total_amount', 'amount_due', 'due_date', 'invoice_url', 'company_name'] as const;

export const REMINDER_TEXTS: TranslationsDeclaration = {
  en: {
    'reminders.body':
      'Hello {client_name},\n\n{lead}\n\nInvoice: {invoice_number}\nTotal: {total_amount}\nAmount due: {amount_due}\nDue date: {due_date}\n\nYou can view and pay it online: {invoice_url}\n\nThank you,\n{company_name}',
    'reminders.before_due.subject': 'Invoice {invoice_number} is due on {due_date}',
    'reminders.before_due.lead': 'A friendly reminder: invoice {invoice_number} from {company_name} is due in three days.',
    'reminders.overdue.subject': 'Invoice {invoice_number} is overdue',
    'reminders.overdue.lead': 'Invoice {invoice_number} was due yesterday and we have not received the full payment yet.',
    'reminders.overdue_week.subject': 'Second reminder: invoice {invoice_number} is overdue',
    'reminders.overdue_week.lead':
      'Invoice {invoice_number} is now a week overdue. Please arrange the payment at your earliest convenience.',
    'reminders.overdue_two_weeks.subject': 'Final reminder: invoice {invoice_number} is two weeks overdue',
    'reminders.overdue_two_weeks.lead':
      'Invoice {invoice_number} is two weeks overdue. Please pay the amount due now, or contact us if something is wrong.',
  },
  de: {
    'reminders.body':
      'Guten Tag {client_name},\n\n{lead}\n\nRechnung: {invoice_number}\nGesamtbetrag: {total_amount}\nOffener Betrag: {amount_due}\nFällig am: {due_date}\n\nSie können die Rechnung online ansehen und bezahlen: {invoice_url}\n\nMit freundlichen Grüßen\n{company_name}',
    'reminders.before_due.subject': 'Rechnung {invoice_number} ist am {due_date} fällig',
    'reminders.before_due.lead': 'eine freundliche Erinnerung: Die Rechnung {invoice_number} von {company_name} wird in drei Tagen fällig.',
    'reminders.overdue.subject': 'Zahlungserinnerung: Rechnung {invoice_number} ist überfällig',
    'reminders.overdue.lead':
      'die Rechnung {invoice_number} war gestern fällig, und wir haben die Zahlung noch nicht vollständig erhalten.',
    'reminders.overdue_week.subject': '1. Mahnung: Rechnung {invoice_number} ist überfällig',
    'reminders.overdue_week.lead':
      'die Rechnung {invoice_number} ist seit einer Woche überfällig. Bitte überweisen Sie den offenen Betrag baldmöglichst.',
    'reminders.overdue_two_weeks.subject': 'Letzte Mahnung: Rechnung {invoice_number} ist seit zwei Wochen überfällig',
    'reminders.overdue_two_weeks.lead':
      'die Rechnung {invoice_number} ist seit zwei Wochen überfällig. Bitte begleichen Sie den offenen Betrag umgehend oder melden Sie sich, falls etwas nicht stimmt.',
  },
  fr: {
    'reminders.body':
      'Bonjour {client_name},\n\n{lead}\n\nFacture : {invoice_number}\nTotal TTC : {total_amount}\nReste à payer : {amount_due}\nÉchéance : {due_date}\n\nVous pouvez consulter et régler la facture en ligne : {invoice_url}\n\nCordialement,\n{company_name}',
    'reminders.before_due.subject': 'La facture {invoice_number} arrive à échéance le {due_date}',
    'reminders.before_due.lead': 'Pour rappel, la facture {invoice_number} de {company_name} arrive à échéance dans trois jours.',
    'reminders.overdue.subject': 'Facture {invoice_number} : échéance dépassée',
    'reminders.overdue.lead': 'La facture {invoice_number} était payable hier et nous n’avons pas encore reçu l’intégralité du règlement.',
    'reminders.overdue_week.subject': 'Deuxième relance : facture {invoice_number} impayée',
    'reminders.overdue_week.lead':
      'La facture {invoice_number} est impayée depuis une semaine. Merci de procéder au règlement dans les meilleurs délais.',
    'reminders.overdue_two_weeks.subject': 'Dernière relance : facture {invoice_number} impayée depuis deux semaines',
    'reminders.overdue_two_weeks.lead':
      'La facture {invoice_number} est impayée depuis deux semaines. Merci de régler le montant dû dès maintenant, ou de nous contacter en cas de problème.',
  },
  es: {
    'reminders.body':
      'Estimado/a {client_name}:\n\n{lead}\n\nFactura: {invoice_number}\nTotal: {total_amount}\nImporte pendiente: {amount_due}\nVencimiento: {due_date}\n\nPuede consultar y pagar la factura en línea: {invoice_url}\n\nAtentamente,\n{company_name}',
    'reminders.before_due.subject': 'La factura {invoice_number} vence el {due_date}',
    'reminders.before_due.lead': 'Le recordamos que la factura {invoice_number} de {company_name} vence dentro de tres días.',
    'reminders.overdue.subject': 'La factura {invoice_number} está vencida',
    'reminders.overdue.lead': 'La factura {invoice_number} venció ayer y todavía no hemos recibido el pago completo.',
    'reminders.overdue_week.subject': 'Segundo aviso: la factura {invoice_number} está vencida',
    'reminders.overdue_week.lead':
      'La factura {invoice_number} lleva una semana vencida. Le rogamos que realice el pago a la mayor brevedad.',
    'reminders.overdue_two_weeks.subject': 'Último aviso: la factura {invoice_number} lleva dos semanas vencida',
    'reminders.overdue_two_weeks.lead':
      'La factura {invoice_number} lleva dos semanas vencida. Le rogamos que abone ya el importe pendiente o que se ponga en contacto con nosotros si hay algún problema.',
  },
  it: {
    'reminders.body':
      'Gentile {client_name},\n\n{lead}\n\nFattura: {invoice_number}\nTotale documento: {total_amount}\nImporto da pagare: {amount_due}\nScadenza: {due_date}\n\nPuò visualizzare e pagare la fattura online: {invoice_url}\n\nCordiali saluti,\n{company_name}',
    'reminders.before_due.subject': 'La fattura {invoice_number} scade il {due_date}',
    'reminders.before_due.lead': 'Le ricordiamo che la fattura {invoice_number} di {company_name} scade tra tre giorni.',
    'reminders.overdue.subject': 'Sollecito: la fattura {invoice_number} è scaduta',
    'reminders.overdue.lead': 'La fattura {invoice_number} è scaduta ieri e non abbiamo ancora ricevuto il pagamento completo.',
    'reminders.overdue_week.subject': 'Secondo sollecito: la fattura {invoice_number} è scaduta',
    'reminders.overdue_week.lead':
      'La fattura {invoice_number} è scaduta da una settimana. La preghiamo di provvedere al pagamento al più presto.',
    'reminders.overdue_two_weeks.subject': 'Ultimo sollecito: la fattura {invoice_number} è scaduta da due settimane',
    'reminders.overdue_two_weeks.lead':
      'La fattura {invoice_number} è scaduta da due settimane. La preghiamo di saldare subito l’importo dovuto o di contattarci in caso di problemi.',
  },
  nl: {
    'reminders.body':
      'Beste {client_name},\n\n{lead}\n\nFactuur: {invoice_number}\nTotaal: {total_amount}\nTe betalen: {amount_due}\nVervaldatum: {due_date}\n\nU kunt de factuur online bekijken en betalen: {invoice_url}\n\nMet vriendelijke groet,\n{company_name}',
    'reminders.before_due.subject': 'Factuur {invoice_number} vervalt op {due_date}',
    'reminders.before_due.lead': 'Een vriendelijke herinnering: factuur {invoice_number} van {company_name} vervalt over drie dagen.',
    'reminders.overdue.subject': 'Betalingsherinnering: factuur {invoice_number} is vervallen',
    'reminders.overdue.lead': 'Factuur {invoice_number} is gisteren vervallen en wij hebben de volledige betaling nog niet ontvangen.',
    'reminders.overdue_week.subject': 'Tweede herinnering: factuur {invoice_number} is vervallen',
    'reminders.overdue_week.lead':
      'Factuur {invoice_number} is nu een week vervallen. Wij verzoeken u het bedrag zo spoedig mogelijk te voldoen.',
    'reminders.overdue_two_weeks.subject': 'Laatste herinnering: factuur {invoice_number} is twee weken vervallen',
    'reminders.overdue_two_weeks.lead':
      'Factuur {invoice_number} is twee weken vervallen. Wij verzoeken u het openstaande bedrag nu te voldoen, of contact met ons op te nemen als er iets niet klopt.',
  },
};

/** The default steps as `texts` word them, each placeholder written as the step's tag (`{{invoice_number}}`). */
export function defaultSteps(texts: Pick<Translator, 't'>): ReminderStep[] {
  const tags = Object.fromEntries(TAGS.map((t) => [t, `{{${t}}}`]));
  return STEPS.map(([offset_days, key]) => ({
    offset_days,
    subject: texts.t(`${key}.subject`, tags),
    body: texts.t('reminders.body', { ...tags, lead: texts.t(`${key}.lead`, tags) }),
  }));
}

/** English without a catalogue: the setting's default, made from the same texts. */
export const ENGLISH: Pick<Translator, 't'> = {
  t: (key, values = {}) => REMINDER_TEXTS.en[key]!.replace(/\{(\w+)\}/g, (_m, name: string) => String(values[name] ?? '')),
};

/**
 * The step a reminder is sent with: a step still worded as the English default is worded as the
 * invoice's language has it (`tr`); one the site wrote itself is sent as written.
 */
export function localized(step: ReminderStep, tr: Pick<Translator, 't'>): ReminderStep {
  const english = defaultSteps(ENGLISH).find((s) => s.offset_days === step.offset_days);
  if (!english || english.subject !== step.subject || english.body !== step.body) return step;
  return defaultSteps(tr).find((s) => s.offset_days === step.offset_days)!;
}
