import { BillingError } from '../errors.ts';
import type { AjaxAction, AjaxRequest } from '../http/ajax/ajax-action.ts';
import type { Identity } from '../identity/identity.ts';
import type { SettingSchema } from '../options/option-map.ts';
import type { OptionRow, OptionsStore } from '../options/options.ts';
import type { PluginManager } from '../plugins/plugin-manager.ts';
import type { AdminScreens } from './screens.ts';
import type { SettingField } from './wire.ts';

export type { SettingField } from './wire.ts';

/** Settings are `bill_manage_settings`. */
export const MANAGE_SETTINGS = 'bill_manage_settings';

/** The core's sections of the Settings screen (docs/admin.md), in order; core options not named here go last. */
const CORE_SECTIONS: Array<{ id: string; title: string; keys: string[] }> = [
  {
    id: 'company',
    title: 'Company',
    keys: [
      'company_name',
      'company_email',
      'company_street',
      'company_city',
      'company_postcode',
      'company_address',
      'business_country',
      'company_vat_number',
      'company_logo_url',
    ],
  },
  {
    id: 'documents',
    title: 'Invoices and quotes',
    keys: [
      'invoice_prefix',
      'quote_prefix',
      'credit_note_prefix',
      'number_padding',
      'next_invoice_number',
      'payment_terms_days',
      'quote_accept_action',
      'site_locale',
    ],
  },
  {
    id: 'tax',
    title: 'Currency and tax',
    keys: ['currency', 'timezone', 'tax_rate', 'tax_exempt_statement', 'tax_exempt_items_statement', 'allow_partial_payments'],
  },
  { id: 'email', title: 'E-mail', keys: ['attach_pdf_to_email', 'email_attachments'] },
];

const LABELS: Record<string, string> = {
  company_name: 'Company name',
  company_email: 'Company e-mail',
  company_street: 'Street',
  company_city: 'City',
  company_postcode: 'Postcode',
  company_address: 'Address (free text)',
  business_country: 'Country',
  company_vat_number: 'VAT number',
  company_logo_url: 'Logo URL',
  number_padding: 'Number padding (digits)',
  next_invoice_number: 'Next invoice number',
  payment_terms_days: 'Payment terms (days)',
  quote_accept_action: 'When a quote is accepted',
  tax_rate: 'Tax rate (%)',
  attach_pdf_to_email: 'Attach the PDF to e-mails',
  email_attachments: "Send the document's attached files with its e-mails",
  site_locale: 'Language of documents',
};

export interface SettingsSection {
  id: string;
  title: string;
  fields: SettingField[];
}

export function label(key: string, schema: { [keyword: string]: unknown }): string {
  if (typeof schema.title === 'string') return schema.title;
  if (LABELS[key]) return LABELS[key];
  const words = key.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function inputOf(schema: { type?: unknown; enum?: unknown }): Pick<SettingField, 'input' | 'choices' | 'nullable'> {
  const types: string[] = Array.isArray(schema.type) ? schema.type.map(String) : [String(schema.type)];
  const nullable = types.includes('null');
  if (Array.isArray(schema.enum)) return { input: 'select', choices: schema.enum.map(String), nullable };
  if (types.includes('boolean')) return { input: 'checkbox', nullable };
  if (types.includes('integer') || types.includes('number')) return { input: 'number', nullable };
  return { input: 'text', nullable };
}

/** One option as the screen draws it; a secret's value is never put in it, only whether it is set. */
function fieldOf(key: string, schema: SettingSchema, row: OptionRow | undefined): SettingField {
  const secret = Boolean(schema.secret);
  return {
    key,
    label: label(key, schema),
    description: schema.description ?? '',
    ...inputOf(schema),
    secret,
    ...(secret ? {} : { value: row?.value ?? schema.default }),
    isSet: secret ? Boolean(row && !row.isDefault && row.value !== '' && row.value !== null) : !row?.isDefault,
  };
}

/**
 * The sections of the Settings screen: the core's, then one per active plugin that declares settings
 * (its `definePlugin({ settings })`, titled with the plugin's title), drawn generically from the schemas.
 * Options of inactive plugins are not shown (they stay settable from the CLI).
 */
export async function settingsSections(options: OptionsStore, plugins: PluginManager): Promise<SettingsSection[]> {
  const rows = new Map((await options.list()).map((r) => [r.key, r]));
  const declared = options.declarations();
  const active = new Map((await plugins.list()).filter((p) => p.active).map((p) => [p.name, p.title]));
  const installed = new Set((await plugins.list()).map((p) => p.name));
  const field = (key: string, schema: SettingSchema): SettingField => fieldOf(key, schema, rows.get(key));
  const byKey = new Map(declared.map((d) => [d.key, d]));
  const sections: SettingsSection[] = [];
  const placed = new Set<string>();
  for (const s of CORE_SECTIONS) {
    const fields = s.keys.filter((k) => byKey.has(k)).map((k) => field(k, byKey.get(k)!.schema));
    for (const k of s.keys) placed.add(k);
    sections.push({ id: s.id, title: s.title, fields });
  }
  // options of the core's modules that no section names (the mail module's, …)
  const other = declared.filter((d) => !placed.has(d.key) && !installed.has(d.owner)).sort((a, b) => a.key.localeCompare(b.key));
  if (other.length) sections.push({ id: 'other', title: 'Other', fields: other.map((d) => field(d.key, d.schema)) });
  for (const [name, title] of [...active].sort((a, b) => a[1].localeCompare(b[1]))) {
    const own = declared.filter((d) => d.owner === name).sort((a, b) => a.key.localeCompare(b.key));
    if (own.length) sections.push({ id: `plugin-${name}`, title, fields: own.map((d) => field(d.key, d.schema)) });
  }
  return sections;
}

/**
 * The one section of a plugin's options screen (`optionsScreen`): its options, under that screen's
 * capability. A screen that is not an options screen (or none) is 404; a user without its capability 403.
 */
async function screenSections(req: AjaxRequest, deps: SettingsDeps): Promise<SettingsSection[]> {
  const slug = typeof req.params.screen === 'string' ? req.params.screen : '';
  if (!slug) throw new BillingError('rest_missing_callback_param', 'Missing parameter(s): screen', { params: ['screen'] });
  const screen = deps.screens.get(slug);
  if (!screen?.options) throw new BillingError('billing_rest_not_found', 'There is no such settings screen.');
  if (!req.user || (screen.capability && !(await deps.identity.userCan(req.user, screen.capability)))) {
    throw new BillingError('billing_forbidden', 'Sorry, you are not allowed to change these settings.');
  }
  const all = new Map((await allFields(deps.options)).map((f) => [f.key, f]));
  return [
    { id: slug.replace(/\.php$/, ''), title: screen.title, fields: screen.options.flatMap((k) => (all.has(k) ? [all.get(k)!] : [])) },
  ];
}

interface SettingsDeps {
  options: OptionsStore;
  plugins: PluginManager;
  identity: Identity;
  screens: AdminScreens;
}

async function allFields(options: OptionsStore): Promise<SettingField[]> {
  const rows = new Map((await options.list()).map((r) => [r.key, r]));
  return options.declarations().map((d) => fieldOf(d.key, d.schema, rows.get(d.key)));
}

/**
 * `billing_get_settings` / `billing_save_settings` (the Settings screen, `bill_manage_settings`) and
 * `billing_get_screen_options` / `billing_save_screen_options` (a plugin's options screen, under the
 * capability that screen declares: checked in the handler, since it depends on the `screen` field).
 */
export function settingsAjaxActions(deps: SettingsDeps): AjaxAction[] {
  const all = async () => settingsSections(deps.options, deps.plugins);
  const screen = (req: AjaxRequest) => screenSections(req, deps);
  const SAVE_FIELD = 'JSON object {option: value} of options the screen shows; a secret sent empty is kept';
  return [
    { action: 'billing_get_settings', capability: MANAGE_SETTINGS, fields: {}, handler: async () => ({ sections: await all() }) },
    {
      action: 'billing_save_settings',
      capability: MANAGE_SETTINGS,
      fields: { settings: SAVE_FIELD },
      handler: async (req) => save(req, deps.options, all),
    },
    {
      action: 'billing_get_screen_options',
      capability: null,
      fields: { screen: 'the slug of a plugin options screen' },
      handler: async (req) => ({ sections: await screen(req) }),
    },
    {
      action: 'billing_save_screen_options',
      capability: null,
      fields: { screen: 'the slug of a plugin options screen', settings: SAVE_FIELD },
      handler: async (req) => save(req, deps.options, () => screen(req)),
    },
  ];
}

/** Checks every changed option against its schema first: one bad field changes nothing. */
async function save(req: AjaxRequest, options: OptionsStore, sections: () => Promise<SettingsSection[]>) {
  const shown = new Map((await sections()).flatMap((s) => s.fields.map((f) => [f.key, f] as const)));
  let input: unknown = req.params.settings;
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch {
      throw new BillingError('rest_invalid_json', 'settings is not valid JSON.');
    }
  }
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    throw new BillingError('rest_invalid_param', 'settings must be an object.', { params: { settings: 'settings must be an object.' } });
  }
  const changes: Array<[string, unknown]> = [];
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    const f = shown.get(key);
    if (!f) {
      params[key] = `${key} is not a setting of this screen.`;
      continue;
    }
    // a write-only secret left blank keeps its value
    if (f.secret && (value === '' || value === null || value === undefined)) continue;
    try {
      options.check(key, value);
      changes.push([key, value]);
    } catch (e) {
      params[key] = e instanceof Error ? e.message : String(e);
    }
  }
  if (Object.keys(params).length) {
    throw new BillingError('rest_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, { params });
  }
  // a changed API base empties its plugin's secrets: said, so the screen can tell
  const { cleared } = await options.setMany(changes, req.actor);
  return { saved: changes.map(([k]) => k), cleared, sections: await sections() };
}
