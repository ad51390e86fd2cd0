import type { ArgSchema } from '../http/rest/route.ts';
import { appScreen } from './app-screens.ts';
import type { AdminScreen, ScreenContext } from './screens.ts';
import { inputOf, label } from './settings.ts';
import type { FieldSuggestions, ResourceColumn, ResourceDetails, ResourceField, ResourceProps } from './wire.ts';

export type { FieldSuggestions, ResourceColumn, ResourceDetails, ResourceField, ResourceProps } from './wire.ts';

/**
 * A screen made of data: a list of what one REST collection answers, with row buttons that call its
 * routes, an optional form that creates one (drawn from the route's own ajv schemas) and an optional
 * list of details per row. One app component (`resource`, core/admin/app/resource.tsx) draws every
 * such screen; a plugin declares only which routes, columns and buttons (docs/admin.md).
 *
 * Routes are REST paths under `/wp-json/billing/v1`; `{key}` in a path or a text is the row's value of
 * `key` (URL-encoded in paths). The server checks every call again; the declaration's capabilities only
 * decide which buttons a user is shown.
 */
/** The fields of a form: the route's own ajv argument schemas (label: `title`, else the key in words). */
export type ResourceFields = Record<string, ArgSchema>;

export interface ResourceAction {
  /** The button's words; the row's label is added for screen readers and tests ("Pause Profile 3"). */
  label: string;
  method: 'POST' | 'PUT' | 'DELETE';
  route: string;
  /** Only users holding it see the button (the route checks its own again). */
  capability?: string;
  /** Shown only on rows whose values are among these, e.g. `{ status: ['active'] }`. */
  when?: Record<string, readonly unknown[]>;
  /** Asked first (a deletion). */
  confirm?: string;
  /** A form opened under the row, sent as the JSON body; without it the call has no body. */
  fields?: ResourceFields;
  /** A fixed JSON body (e.g. `{ active: false }`), merged under the form's values. */
  body?: Record<string, unknown>;
  /** The form's button (default: the action's label). */
  submit?: string;
  /** Said after success, e.g. `{login} is now {role}.` (values of the answer, else of the row). */
  done: string;
}

export interface ResourceCreate {
  /** The button that opens the form, and the form's heading. */
  label: string;
  route: string;
  capability?: string;
  fields: ResourceFields;
  /** Suggestions while typing in some of the fields, by field (an invoice found by its number or customer). */
  suggest?: Record<string, FieldSuggestions>;
  submit: string;
  done: string;
  /** A value of the answer shown once, e.g. a webhook's signing secret (`secret`), with this label. */
  reveal?: { key: string; label: string };
}

export interface ResourceScreenDeclaration {
  slug: string;
  title: string;
  capability: string;
  order?: number;
  /** A line under the title. */
  description?: string;
  list: {
    route: string;
    columns: ResourceColumn[];
    /** How a row is named in buttons and messages, e.g. `{url}` or `Profile {id}`. */
    rowLabel: string;
    /** Said when there is nothing yet: what to do next. */
    empty: string;
    perPage?: number;
  };
  actions?: ResourceAction[];
  create?: ResourceCreate;
  details?: ResourceDetails;
  /**
   * Completes the declaration for the request being drawn, for what is known only then (the roles the
   * loaded plugins declare now, …). Runs on the server; its answer travels as data like the rest.
   */
  refine?: (d: ResourceScreenDeclaration, ctx: ScreenContext) => Promise<ResourceScreenDeclaration>;
}

function fieldsOf(fields: ResourceFields, suggest: Record<string, FieldSuggestions> = {}): ResourceField[] {
  return Object.entries(fields).map(([key, schema]) => {
    const items = schema.items as ArgSchema | undefined;
    const control =
      schema.type === 'array' && Array.isArray(items?.enum)
        ? { input: 'checkboxes' as const, choices: items.enum.map(String) }
        : (({ input, choices }) => ({ input, choices }))(inputOf(schema));
    return {
      key,
      label: label(key, schema),
      description: schema.description ?? '',
      ...control,
      required: Boolean(schema.required),
      ...(schema.default !== undefined ? { default: schema.default } : {}),
      ...(suggest[key] ? { suggest: suggest[key] } : {}),
    };
  });
}

/** The declaration as the app reads it: forms as fields, buttons the user may not press left out. */
async function resolved(d: ResourceScreenDeclaration, ctx: ScreenContext): Promise<ResourceProps> {
  const allowed = async (cap?: string) => !cap || (await ctx.can(cap));
  const actions = [];
  for (const a of d.actions ?? []) {
    if (await allowed(a.capability)) actions.push({ ...a, capability: undefined, fields: a.fields ? fieldsOf(a.fields) : undefined });
  }
  const create =
    d.create && (await allowed(d.create.capability))
      ? { ...d.create, capability: undefined, suggest: undefined, fields: fieldsOf(d.create.fields, d.create.suggest) }
      : null;
  return { description: d.description ?? '', list: d.list, actions, create, details: d.details ?? null };
}

/**
 * A plugin's list screen, declared as data (`screens: [resourceScreen({...})]`): added and removed with
 * the plugin on every instance, under `capability`.
 */
export function resourceScreen(d: ResourceScreenDeclaration): AdminScreen {
  return {
    slug: d.slug,
    title: d.title,
    order: d.order ?? 60,
    capability: d.capability,
    async render(ctx) {
      const decl = d.refine ? await d.refine(d, ctx) : d;
      const base = appScreen({ slug: d.slug, title: d.title, order: 0, capability: d.capability, screen: 'resource' }, null, {
        resource: await resolved(decl, ctx),
      });
      return base.render(ctx);
    },
  };
}

/** What an upload screen shows of the answer: facts (label: value) in groups, and tables of its lists. */
export interface UploadResultSection {
  title: string;
  /** Label and value pairs; `key` as in columns (dots for nested values). */
  facts?: ResourceColumn[];
  /** A list in the answer (`key`) drawn as a table. */
  table?: { key: string; columns: ResourceColumn[] };
}

export interface UploadScreenDeclaration {
  slug: string;
  title: string;
  capability: string;
  order?: number;
  description?: string;
  /** The REST route the file is posted to as the raw body (POST), with the file's own content type. */
  route: string;
  /** The file box's label and what it accepts (`.xml,.pdf`). */
  label: string;
  accept: string;
  /** Content type per file name ending, for files the browser gives no type (`{ '.xml': 'application/xml' }`). */
  types: Record<string, string>;
  submit: string;
  /** The heading of what was read, e.g. `Invoice {number}`; values of the answer. */
  heading: string;
  sections: UploadResultSection[];
}

/** A plugin's screen that sends one file to a route and shows the answer (the e-invoice reader). */
export function uploadScreen(d: UploadScreenDeclaration): AdminScreen {
  const { order, capability, ...upload } = d;
  return appScreen({ slug: d.slug, title: d.title, order: order ?? 60, capability, screen: 'upload' }, null, { upload });
}
