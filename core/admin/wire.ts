// The shapes the admin screens' props and actions carry from the server to the browser app: declared
// once, here, with no imports, so the server (core/admin/*.ts) and the bundle (core/admin/app, which
// imports them as types only) read the same definitions.

/** One option as the Settings screen draws it. */
export interface SettingField {
  key: string;
  label: string;
  description: string;
  /** How the screen draws it: a text box, a number box, a checkbox or a list. */
  input: 'text' | 'number' | 'checkbox' | 'select';
  choices?: string[];
  nullable: boolean;
  secret: boolean;
  /** Absent for a secret: its value never leaves the server, only whether it is set. */
  value?: unknown;
  isSet: boolean;
}

export interface ResourceColumn {
  /** The row's property (dots for nested ones: `template.customer_name`). */
  key: string;
  label: string;
  /** How the value reads: as it is, a status badge, a money amount (the row's `currency`), a list, yes/no. */
  format?: 'text' | 'status' | 'money' | 'list' | 'yesno';
  /** A link on the value, e.g. `/wp-admin/invoice.php?id={last_invoice_id}` (only within the admin area). */
  link?: string;
}

/** A form field as the app draws it: the Settings screen's mapping of schema to control, plus sets of choices. */
export interface ResourceField {
  key: string;
  label: string;
  description: string;
  input: 'text' | 'number' | 'checkbox' | 'select' | 'checkboxes';
  choices?: string[];
  required: boolean;
  default?: unknown;
  suggest?: FieldSuggestions;
}

/**
 * Suggestions for a text box as the person types: an admin-ajax search action that answers a list for
 * `term` (narrowed on the server to what the user may see, as billing_search_invoices is), the value a
 * hit puts in the box and the words shown for it (`{key}` is the hit's value of key).
 */
export interface FieldSuggestions {
  action: string;
  value: string;
  label: string;
}

export interface ResourceDetails {
  /** The row button that shows them ("Deliveries"), with the row's label. */
  label: string;
  route: string;
  columns: ResourceColumn[];
  empty: string;
}

/** A resource screen as the app receives it: forms as fields, buttons the user may not press left out. */
export interface ResourceProps {
  description: string;
  list: { route: string; columns: ResourceColumn[]; rowLabel: string; empty: string; perPage?: number };
  actions: Array<{
    label: string;
    method: string;
    route: string;
    when?: Record<string, readonly unknown[]>;
    confirm?: string;
    fields?: ResourceField[];
    body?: Record<string, unknown>;
    submit?: string;
    done: string;
  }>;
  create: {
    label: string;
    route: string;
    fields: ResourceField[];
    submit: string;
    done: string;
    reveal?: { key: string; label: string };
  } | null;
  details: ResourceDetails | null;
}

/**
 * A source of line suggestions in the document builder, declared by a plugin (`billing_admin_item_sources`).
 * The builder posts `term` (what is typed in an item name, 1–200 characters) and `currency` (the
 * document's) to `action` with the page's nonce, and offers what it answers: an array of ItemSuggestion.
 */
export interface ItemSource {
  /** The admin-ajax action, e.g. `billing_search_items`. */
  action: string;
  /** What its suggestions are called, e.g. "Item library". */
  label: string;
}

/** One suggestion of an ItemSource: choosing it fills the builder's row with the fields it has. */
export interface ItemSuggestion {
  name: string;
  description?: string;
  /** Exact decimal text or a number. */
  price?: string | number;
  /** A UN/ECE Recommendation 20 code. */
  unit?: string | null;
  taxable?: boolean;
  tax_rate?: string | number | null;
  /** Shown beside the name in the list (an article number). */
  sku?: string | null;
}
