// Generated from the service's OpenAPI document by scripts/admin-rest-types.ts: do not edit.
// After changing a route or representation the admin app reads: npm run generate:admin-types
// (test/admin/rest-types.test.ts fails while this file is stale).

export interface paths {
  '/billing/v1/invoices': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List invoices. */
    get: operations['get_billing_v1_invoices'];
    put?: never;
    /** Create an invoice. */
    post: operations['post_billing_v1_invoices'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/billing/v1/invoices/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One invoice. */
    get: operations['get_billing_v1_invoices_id'];
    put?: never;
    post?: never;
    /** Move an invoice to the trash. */
    delete: operations['delete_billing_v1_invoices_id'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/billing/v1/quotes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List quotes. */
    get: operations['get_billing_v1_quotes'];
    put?: never;
    /** Create a quote. */
    post: operations['post_billing_v1_quotes'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/billing/v1/quotes/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One quote. */
    get: operations['get_billing_v1_quotes_id'];
    put?: never;
    post?: never;
    /** Move a quote to the trash. */
    delete: operations['delete_billing_v1_quotes_id'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/billing/v1/clients': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List clients. */
    get: operations['get_billing_v1_clients'];
    put?: never;
    /** Create a client. */
    post: operations['post_billing_v1_clients'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/billing/v1/clients/{id}/payment-methods': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A client's saved payment methods (cards, mandates) that autopay charges, newest first. */
    get: operations['get_billing_v1_clients_id_payment_methods'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/billing/v1/clients/{id}/payment-methods/{pm}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Remove a saved payment method: it is never charged again, and autopay of the client stops until another is saved. */
    delete: operations['delete_billing_v1_clients_id_payment_methods_pm'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/billing/v1/payments': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List payments, latest first. */
    get: operations['get_billing_v1_payments'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/billing/v1/audit-log': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The audit log, newest first. */
    get: operations['get_billing_v1_audit_log'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/billing/v1/imports': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Reads a CSV file (the raw body, at most 50 MiB) and answers its columns, a proposed mapping and its first rows. Nothing is imported yet. */
    post: operations['post_billing_v1_imports'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/billing/v1/imports/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** An import's status, progress (0–1) and counts. */
    get: operations['get_billing_v1_imports_id'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/billing/v1/translations/{locale}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Every customer-facing text of a language: its shipped text and the site's override. */
    get: operations['get_billing_v1_translations_locale'];
    /** Sets the site's own wording: a JSON object {key: text} (null clears an override). Each text keeps the placeholders of the shipped one. */
    put: operations['put_billing_v1_translations_locale'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /** audit-entry */
    'audit-entry': {
      readonly id: number;
      /** @description Y-m-d H:i:s in the site timezone */
      at: string;
      /** @description A login, or cli, system, visitor */
      actor: string;
      actor_id: number | null;
      action: string;
      object_type: string;
      object_id: string | null;
      /** @description What changed (JSON) */
      details: unknown;
      ip: string | null;
    };
    /** translations */
    translations: {
      locale: string;
      keys: {
        key: string;
        /** @description The shipped text in this language (English where it has none). */
        text: string;
        /** @description The site's own wording, or null. */
        override: string | null;
      }[];
    };
    /** invoice */
    invoice: {
      readonly id: number;
      /** @description From the sequence (shape `<PREFIX>-<digits>`) */
      number: string;
      title: string;
      /** @enum {string} */
      status: 'draft' | 'available' | 'partial' | 'paid' | 'unpaid' | 'cancelled';
      viewed: {
        count: number;
        /** @description Y-m-d H:i:s in the site timezone, or null */
        first: string | null;
        /** @description Y-m-d H:i:s in the site timezone, or null */
        last: string | null;
      };
      /**
       * Format: date
       * @description Y-m-d
       */
      issue_date: string;
      customer: {
        name: string;
        email: string;
        /** @description ISO 3166-1 alpha-2, or empty */
        country: string;
        vat: string;
      };
      /** @description The client (user id), or null */
      client_id: number | null;
      /** @description ISO 4217 */
      currency: string;
      totals: {
        /** @description Rounded to the currency's minor unit */
        subtotal: number;
        /** @description Rounded to the currency's minor unit */
        discount: number;
        /** @description Rounded to the currency's minor unit */
        tax: number;
        /** @description Rounded to the currency's minor unit */
        total: number;
        /** @description Rounded to the currency's minor unit */
        paid: number;
        /** @description Rounded to the currency's minor unit */
        credited: number;
        /** @description Rounded to the currency's minor unit */
        due: number;
      };
      items: {
        name: string;
        description: string;
        quantity: number;
        price: number;
        /** @description Rounded to the currency's minor unit */
        amount: number;
        /** @description UN/ECE Recommendation 20 unit code, or null (one, C62) */
        unit: string | null;
        taxable: boolean;
        /** @description The item's own rate (percent), or null for the document's */
        tax_rate: number | null;
      }[];
      discount: {
        /** @enum {string} */
        type: 'percent' | 'fixed';
        value: number;
      } | null;
      tax_treatment: {
        category: string;
        statement: string;
      };
      /** @description Tax per EN 16931 category (S, Z, E, AE, G) and rate */
      tax_breakdown: {
        category: string;
        rate: number;
        /** @description Rounded to the currency's minor unit */
        taxable_amount: number;
        /** @description Rounded to the currency's minor unit */
        tax: number;
        exemption_reason: string;
      }[];
      notes: string;
      terms: string;
      /** @description The BCP 47 tag it prints in; null prints in the option site_locale */
      locale: string | null;
      /** @description Y-m-d H:i:s in the site timezone */
      date_created: string;
      /** @description Y-m-d H:i:s in the site timezone */
      date_modified: string;
      links: {
        /** Format: uri */
        pdf: string;
      };
      /**
       * Format: date
       * @description Y-m-d, or null
       */
      due_date: string | null;
      /** @description Derived: past its due date with an amount due */
      readonly overdue: boolean;
      /**
       * Format: date
       * @description Y-m-d: the first day of the service billed, or null
       */
      period_start: string | null;
      /**
       * Format: date
       * @description Y-m-d: the last day of the service billed, or null
       */
      period_end: string | null;
      /** @description Instalments in date order (null: one due date); payments and credits fill them oldest first */
      readonly schedule:
        | {
            /** @description Y-m-d */
            due_date: string;
            /** @description Rounded to the currency's minor unit */
            amount: number;
            /** @description Rounded to the currency's minor unit */
            paid: number;
            /** @description Rounded to the currency's minor unit */
            due: number;
            /** @enum {string} */
            status: 'open' | 'partial' | 'paid' | 'overdue';
          }[]
        | null;
      /** @description The recurring profile that generated it, or null */
      readonly recurring_id: number | null;
    };
    /** quote */
    quote: {
      readonly id: number;
      /** @description From the sequence (shape `<PREFIX>-<digits>`) */
      number: string;
      title: string;
      /** @enum {string} */
      status: 'draft' | 'available' | 'accepted' | 'declined' | 'expired' | 'cancelled';
      viewed: {
        count: number;
        /** @description Y-m-d H:i:s in the site timezone, or null */
        first: string | null;
        /** @description Y-m-d H:i:s in the site timezone, or null */
        last: string | null;
      };
      /**
       * Format: date
       * @description Y-m-d
       */
      issue_date: string;
      customer: {
        name: string;
        email: string;
        /** @description ISO 3166-1 alpha-2, or empty */
        country: string;
        vat: string;
      };
      /** @description The client (user id), or null */
      client_id: number | null;
      /** @description ISO 4217 */
      currency: string;
      totals: {
        /** @description Rounded to the currency's minor unit */
        subtotal: number;
        /** @description Rounded to the currency's minor unit */
        discount: number;
        /** @description Rounded to the currency's minor unit */
        tax: number;
        /** @description Rounded to the currency's minor unit */
        total: number;
        /** @description Rounded to the currency's minor unit */
        paid: number;
        /** @description Rounded to the currency's minor unit */
        credited: number;
        /** @description Rounded to the currency's minor unit */
        due: number;
      };
      items: {
        name: string;
        description: string;
        quantity: number;
        price: number;
        /** @description Rounded to the currency's minor unit */
        amount: number;
        /** @description UN/ECE Recommendation 20 unit code, or null (one, C62) */
        unit: string | null;
        taxable: boolean;
        /** @description The item's own rate (percent), or null for the document's */
        tax_rate: number | null;
      }[];
      discount: {
        /** @enum {string} */
        type: 'percent' | 'fixed';
        value: number;
      } | null;
      tax_treatment: {
        category: string;
        statement: string;
      };
      /** @description Tax per EN 16931 category (S, Z, E, AE, G) and rate */
      tax_breakdown: {
        category: string;
        rate: number;
        /** @description Rounded to the currency's minor unit */
        taxable_amount: number;
        /** @description Rounded to the currency's minor unit */
        tax: number;
        exemption_reason: string;
      }[];
      notes: string;
      terms: string;
      /** @description The BCP 47 tag it prints in; null prints in the option site_locale */
      locale: string | null;
      /** @description Y-m-d H:i:s in the site timezone */
      date_created: string;
      /** @description Y-m-d H:i:s in the site timezone */
      date_modified: string;
      links: {
        /** Format: uri */
        pdf: string;
      };
      /**
       * Format: date
       * @description Y-m-d, or null
       */
      expiry_date: string | null;
      /** @description Who accepted (or declined) the quote and when, or null */
      accepted: {
        at: string;
        by: string;
        reason?: string;
      } | null;
      /** @description Who accepted (or declined) the quote and when, or null */
      declined: {
        at: string;
        by: string;
        reason?: string;
      } | null;
      /** @description The invoice made from the quote, or null */
      invoice_id: number | null;
    };
    /** client */
    client: {
      /** @description The user id, used as client_id on documents. */
      readonly id: number;
      name: string;
      /** Format: email */
      email: string;
      company: string;
      country: string;
      vat: string;
      /** @description Postal address, one line per line. */
      address: string;
      /** @description The BCP 47 tag its documents print in; null prints in the option site_locale. */
      locale: string | null;
      /** @description Y-m-d H:i:s in the site timezone. */
      created: string;
      counts: {
        invoices: number;
        quotes: number;
      };
      /** @description The site currency, in which totals are given. */
      currency: string;
      /** @description Invoices in the site currency: invoiced and due of issued ones, paid of all. */
      totals: {
        invoiced: number;
        paid: number;
        due: number;
      };
      /** @description The same, per currency the client has invoices in. */
      totals_by_currency: {
        [key: string]: {
          invoiced: number;
          paid: number;
          due: number;
        };
      };
    };
    /** payment */
    payment: {
      readonly id: number;
      invoice_id: number;
      /** @description The number of the invoice paid. */
      readonly invoice_number: string;
      readonly reference: string;
      amount: number;
      currency: string;
      method: string;
      /** @enum {string} */
      status: 'pending' | 'completed' | 'failed' | 'refunded' | 'cancelled';
      transaction_id: string | null;
      /** @description Y-m-d H:i:s, site timezone */
      date: string;
      refunded: number;
      notes: string;
      readonly review: string | null;
    };
    /** payment_method */
    payment_method: {
      readonly id: number;
      /** @description The payment method it charges through (gateway_a). */
      gateway: string;
      /** @description What the gateway says it is: "Visa •••• 4242", "SEPA mandate NL•• 4300". */
      label: string;
      /** @description Y-m-d H:i:s in the site timezone. */
      created: string;
    };
    /** import-preview */
    'import-preview': {
      id: number;
      resource: string;
      preset: string | null;
      columns: string[];
      /** @description column → field, or null (ignored) */
      mapping: {
        [key: string]: string | null;
      };
      rows: number;
      /** @description The first rows as fields */
      sample: {
        [key: string]: string;
      }[];
      errors: {
        row: number;
        column: string | null;
        message: string;
      }[];
    };
    /** import */
    import: {
      id: number;
      resource: string;
      preset: string | null;
      /** @enum {string} */
      status: 'previewed' | 'queued' | 'running' | 'done' | 'failed';
      progress: number;
      /** @description Data rows in the file (the header not counted) */
      rows: number;
      /** @description Records created (invoices, not their line rows) */
      created: number;
      updated: number;
      /** @description Records already here as the file says */
      skipped: number;
      /** @description Rows not imported, with why (row 1 is the first data row) */
      failed: {
        row: number;
        message: string;
      }[];
      /** @description Why the import stopped, when it did */
      error: string | null;
    };
    /** @description WordPress's error body, with the HTTP status repeated in `data.status`. */
    error: {
      code: string;
      message: string;
      data: {
        status: number;
        /** @description rest_missing_callback_param: the missing names; rest_invalid_param: name → message */
        params?:
          | string[]
          | {
              [key: string]: string;
            };
        details?: Record<string, never>;
      };
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  get_billing_v1_invoices: {
    parameters: {
      query?: {
        /** @description Current page of the collection. */
        page?: number;
        /** @description Maximum number of items to be returned in result set. */
        per_page?: number;
        /** @description Limit results to those matching a string. */
        search?: string;
        /** @description Comma-separated statuses. */
        status?: ('draft' | 'available' | 'partial' | 'paid' | 'unpaid' | 'cancelled')[];
        client_id?: number;
        /** @description Issued after this date (Y-m-d). */
        after?: string;
        /** @description Issued before this date (Y-m-d). */
        before?: string;
        overdue?: boolean;
        /** @description Generated by this recurring profile. */
        recurring_id?: number;
        orderby?: 'date' | 'id' | 'number' | 'due_date' | 'total';
        order?: 'asc' | 'desc';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of the collection. */
      200: {
        headers: {
          /** @description How many items the whole collection has. */
          'X-WP-Total'?: number;
          /** @description How many pages of `per_page` items. */
          'X-WP-TotalPages'?: number;
          /** @description `rel="prev"` / `rel="next"` URLs keeping every query parameter. */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['invoice'][];
        };
      };
      /** @description `rest_invalid_param`, `billing_bad_request`, `billing_rest_invalid_page_number` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'rest_invalid_param' | 'billing_bad_request' | 'billing_rest_invalid_page_number';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_unauthenticated` */
      401: {
        headers: {
          'WWW-Authenticate'?: 'Basic realm="billing"';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_unauthenticated';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_forbidden`, `rest_cookie_invalid_nonce` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_forbidden' | 'rest_cookie_invalid_nonce';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_internal` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_internal';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_unavailable` */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_unavailable';
          } & components['schemas']['error'];
        };
      };
    };
  };
  post_billing_v1_invoices: {
    parameters: {
      query?: never;
      header?: {
        /** @description A retried request with the same key does its work once and answers as the first time. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          items: {
            /** @description What was sold */
            name: string;
            description?: string;
            /** @description Greater than 0, at most 4 decimals */
            quantity: number | string;
            /** @description Unit price, 0 or more, at most 4 decimals */
            price: number | string;
            /**
             * Format: unit-code
             * @description UN/ECE Recommendation 20 unit code (HUR hour, DAY, MON month, KGM, MTR, LS lump sum, C62 one…); none: one (C62)
             */
            unit?: string;
            /** @default true */
            taxable?: boolean;
            /** @description Percent (0–100, at most 4 decimals) this taxable item is taxed at, instead of the document's rate */
            tax_rate?: number | string | null;
          }[];
          client_id?: number;
          customer_name?: string;
          /** Format: email */
          customer_email?: string;
          /** Format: country */
          customer_country?: string;
          customer_vat_number?: string;
          /**
           * @default draft
           * @enum {string}
           */
          status?: 'draft' | 'available';
          number?: string;
          /** Format: date-ymd */
          issue_date?: string;
          /** Format: date-ymd */
          due_date?: string;
          title?: string;
          notes?: string;
          terms?: string;
          /** Format: currency */
          currency?: string;
          /** Format: locale */
          locale?: string | null;
          discount?: {
            /** @enum {string} */
            type?: 'percent' | 'fixed';
            value?: number | string;
          } & unknown;
          /** Format: date-ymd */
          period_start?: string;
          /** Format: date-ymd */
          period_end?: string;
          schedule?:
            | {
                /**
                 * Format: date-ymd
                 * @description Y-m-d, not before the issue date nor the instalment before
                 */
                due_date: string;
                /** @description A fixed amount in the invoice's currency */
                amount?: number | string;
                /** @description A percent of the total (above 0, at most 100, 4 decimals) */
                percent?: number | string;
              }[]
            | null;
        };
        'application/x-www-form-urlencoded': {
          items: {
            /** @description What was sold */
            name: string;
            description?: string;
            /** @description Greater than 0, at most 4 decimals */
            quantity: number | string;
            /** @description Unit price, 0 or more, at most 4 decimals */
            price: number | string;
            /**
             * Format: unit-code
             * @description UN/ECE Recommendation 20 unit code (HUR hour, DAY, MON month, KGM, MTR, LS lump sum, C62 one…); none: one (C62)
             */
            unit?: string;
            /** @default true */
            taxable?: boolean;
            /** @description Percent (0–100, at most 4 decimals) this taxable item is taxed at, instead of the document's rate */
            tax_rate?: number | string | null;
          }[];
          client_id?: number;
          customer_name?: string;
          /** Format: email */
          customer_email?: string;
          /** Format: country */
          customer_country?: string;
          customer_vat_number?: string;
          /**
           * @default draft
           * @enum {string}
           */
          status?: 'draft' | 'available';
          number?: string;
          /** Format: date-ymd */
          issue_date?: string;
          /** Format: date-ymd */
          due_date?: string;
          title?: string;
          notes?: string;
          terms?: string;
          /** Format: currency */
          currency?: string;
          /** Format: locale */
          locale?: string | null;
          discount?: {
            /** @enum {string} */
            type?: 'percent' | 'fixed';
            value?: number | string;
          } & unknown;
          /** Format: date-ymd */
          period_start?: string;
          /** Format: date-ymd */
          period_end?: string;
          schedule?:
            | {
                /**
                 * Format: date-ymd
                 * @description Y-m-d, not before the issue date nor the instalment before
                 */
                due_date: string;
                /** @description A fixed amount in the invoice's currency */
                amount?: number | string;
                /** @description A percent of the total (above 0, at most 100, 4 decimals) */
                percent?: number | string;
              }[]
            | null;
        };
      };
    };
    responses: {
      /** @description Created. */
      201: {
        headers: {
          /** @description The URL of what was created. */
          Location?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['invoice'];
        };
      };
      /** @description `rest_invalid_param`, `billing_bad_request`, `rest_missing_callback_param`, `rest_invalid_json`, `billing_rest_no_client`, `billing_rest_number_taken` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?:
              | 'rest_invalid_param'
              | 'billing_bad_request'
              | 'rest_missing_callback_param'
              | 'rest_invalid_json'
              | 'billing_rest_no_client'
              | 'billing_rest_number_taken';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_unauthenticated` */
      401: {
        headers: {
          'WWW-Authenticate'?: 'Basic realm="billing"';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_unauthenticated';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_forbidden`, `rest_cookie_invalid_nonce` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_forbidden' | 'rest_cookie_invalid_nonce';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_not_found';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_idempotency_mismatch`, `billing_conflict` */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_idempotency_mismatch' | 'billing_conflict';
          } & components['schemas']['error'];
        };
      };
      /** @description `rest_payload_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'rest_payload_too_large';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_internal` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_internal';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_unavailable` */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_unavailable';
          } & components['schemas']['error'];
        };
      };
    };
  };
  get_billing_v1_invoices_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Unique identifier of the document. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['invoice'];
        };
      };
      /** @description `rest_invalid_param`, `billing_bad_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'rest_invalid_param' | 'billing_bad_request';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_unauthenticated` */
      401: {
        headers: {
          'WWW-Authenticate'?: 'Basic realm="billing"';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_unauthenticated';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_forbidden`, `rest_cookie_invalid_nonce` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_forbidden' | 'rest_cookie_invalid_nonce';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_not_found';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_internal` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_internal';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_unavailable` */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_unavailable';
          } & components['schemas']['error'];
        };
      };
    };
  };
  delete_billing_v1_invoices_id: {
    parameters: {
      query?: {
        /** @description Refused: documents are only ever trashed. */
        force?: boolean;
      };
      header?: never;
      path: {
        /** @description Unique identifier of the document. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            trashed: true;
            previous: components['schemas']['invoice'];
          };
        };
      };
      /** @description `rest_invalid_param`, `billing_bad_request`, `billing_rest_trash_only` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'rest_invalid_param' | 'billing_bad_request' | 'billing_rest_trash_only';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_unauthenticated` */
      401: {
        headers: {
          'WWW-Authenticate'?: 'Basic realm="billing"';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_unauthenticated';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_forbidden`, `rest_cookie_invalid_nonce` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_forbidden' | 'rest_cookie_invalid_nonce';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_not_found';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_already_trashed` */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_already_trashed';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_internal` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_internal';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_unavailable` */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_unavailable';
          } & components['schemas']['error'];
        };
      };
    };
  };
  get_billing_v1_quotes: {
    parameters: {
      query?: {
        /** @description Current page of the collection. */
        page?: number;
        /** @description Maximum number of items to be returned in result set. */
        per_page?: number;
        /** @description Limit results to those matching a string. */
        search?: string;
        /** @description Comma-separated statuses. */
        status?: ('draft' | 'available' | 'accepted' | 'declined' | 'expired' | 'cancelled')[];
        client_id?: number;
        /** @description Issued after this date (Y-m-d). */
        after?: string;
        /** @description Issued before this date (Y-m-d). */
        before?: string;
        orderby?: 'date' | 'id' | 'number' | 'due_date' | 'total';
        order?: 'asc' | 'desc';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of the collection. */
      200: {
        headers: {
          /** @description How many items the whole collection has. */
          'X-WP-Total'?: number;
          /** @description How many pages of `per_page` items. */
          'X-WP-TotalPages'?: number;
          /** @description `rel="prev"` / `rel="next"` URLs keeping every query parameter. */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['quote'][];
        };
      };
      /** @description `rest_invalid_param`, `billing_bad_request`, `billing_rest_invalid_page_number` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'rest_invalid_param' | 'billing_bad_request' | 'billing_rest_invalid_page_number';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_unauthenticated` */
      401: {
        headers: {
          'WWW-Authenticate'?: 'Basic realm="billing"';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_unauthenticated';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_forbidden`, `rest_cookie_invalid_nonce` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_forbidden' | 'rest_cookie_invalid_nonce';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_internal` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_internal';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_unavailable` */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_unavailable';
          } & components['schemas']['error'];
        };
      };
    };
  };
  post_billing_v1_quotes: {
    parameters: {
      query?: never;
      header?: {
        /** @description A retried request with the same key does its work once and answers as the first time. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          items: {
            /** @description What was sold */
            name: string;
            description?: string;
            /** @description Greater than 0, at most 4 decimals */
            quantity: number | string;
            /** @description Unit price, 0 or more, at most 4 decimals */
            price: number | string;
            /**
             * Format: unit-code
             * @description UN/ECE Recommendation 20 unit code (HUR hour, DAY, MON month, KGM, MTR, LS lump sum, C62 one…); none: one (C62)
             */
            unit?: string;
            /** @default true */
            taxable?: boolean;
            /** @description Percent (0–100, at most 4 decimals) this taxable item is taxed at, instead of the document's rate */
            tax_rate?: number | string | null;
          }[];
          client_id?: number;
          customer_name?: string;
          /** Format: email */
          customer_email?: string;
          /** Format: country */
          customer_country?: string;
          customer_vat_number?: string;
          /**
           * @default draft
           * @enum {string}
           */
          status?: 'draft' | 'available';
          number?: string;
          /** Format: date-ymd */
          issue_date?: string;
          /** Format: date-ymd */
          due_date?: string;
          title?: string;
          notes?: string;
          terms?: string;
          /** Format: currency */
          currency?: string;
          /** Format: locale */
          locale?: string | null;
          discount?: {
            /** @enum {string} */
            type?: 'percent' | 'fixed';
            value?: number | string;
          } & unknown;
          /** Format: date-ymd */
          expiry_date?: string;
        };
        'application/x-www-form-urlencoded': {
          items: {
            /** @description What was sold */
            name: string;
            description?: string;
            /** @description Greater than 0, at most 4 decimals */
            quantity: number | string;
            /** @description Unit price, 0 or more, at most 4 decimals */
            price: number | string;
            /**
             * Format: unit-code
             * @description UN/ECE Recommendation 20 unit code (HUR hour, DAY, MON month, KGM, MTR, LS lump sum, C62 one…); none: one (C62)
             */
            unit?: string;
            /** @default true */
            taxable?: boolean;
            /** @description Percent (0–100, at most 4 decimals) this taxable item is taxed at, instead of the document's rate */
            tax_rate?: number | string | null;
          }[];
          client_id?: number;
          customer_name?: string;
          /** Format: email */
          customer_email?: string;
          /** Format: country */
          customer_country?: string;
          customer_vat_number?: string;
          /**
           * @default draft
           * @enum {string}
           */
          status?: 'draft' | 'available';
          number?: string;
          /** Format: date-ymd */
          issue_date?: string;
          /** Format: date-ymd */
          due_date?: string;
          title?: string;
          notes?: string;
          terms?: string;
          /** Format: currency */
          currency?: string;
          /** Format: locale */
          locale?: string | null;
          discount?: {
            /** @enum {string} */
            type?: 'percent' | 'fixed';
            value?: number | string;
          } & unknown;
          /** Format: date-ymd */
          expiry_date?: string;
        };
      };
    };
    responses: {
      /** @description Created. */
      201: {
        headers: {
          /** @description The URL of what was created. */
          Location?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['quote'];
        };
      };
      /** @description `rest_invalid_param`, `billing_bad_request`, `rest_missing_callback_param`, `rest_invalid_json`, `billing_rest_no_client`, `billing_rest_number_taken` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?:
              | 'rest_invalid_param'
              | 'billing_bad_request'
              | 'rest_missing_callback_param'
              | 'rest_invalid_json'
              | 'billing_rest_no_client'
              | 'billing_rest_number_taken';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_unauthenticated` */
      401: {
        headers: {
          'WWW-Authenticate'?: 'Basic realm="billing"';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_unauthenticated';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_forbidden`, `rest_cookie_invalid_nonce` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_forbidden' | 'rest_cookie_invalid_nonce';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_not_found';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_idempotency_mismatch`, `billing_conflict` */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_idempotency_mismatch' | 'billing_conflict';
          } & components['schemas']['error'];
        };
      };
      /** @description `rest_payload_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'rest_payload_too_large';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_internal` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_internal';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_unavailable` */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_unavailable';
          } & components['schemas']['error'];
        };
      };
    };
  };
  get_billing_v1_quotes_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Unique identifier of the document. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['quote'];
        };
      };
      /** @description `rest_invalid_param`, `billing_bad_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'rest_invalid_param' | 'billing_bad_request';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_unauthenticated` */
      401: {
        headers: {
          'WWW-Authenticate'?: 'Basic realm="billing"';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_unauthenticated';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_forbidden`, `rest_cookie_invalid_nonce` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_forbidden' | 'rest_cookie_invalid_nonce';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_not_found';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_internal` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_internal';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_unavailable` */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_unavailable';
          } & components['schemas']['error'];
        };
      };
    };
  };
  delete_billing_v1_quotes_id: {
    parameters: {
      query?: {
        /** @description Refused: documents are only ever trashed. */
        force?: boolean;
      };
      header?: never;
      path: {
        /** @description Unique identifier of the document. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            trashed: true;
            previous: components['schemas']['quote'];
          };
        };
      };
      /** @description `rest_invalid_param`, `billing_bad_request`, `billing_rest_trash_only` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'rest_invalid_param' | 'billing_bad_request' | 'billing_rest_trash_only';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_unauthenticated` */
      401: {
        headers: {
          'WWW-Authenticate'?: 'Basic realm="billing"';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_unauthenticated';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_forbidden`, `rest_cookie_invalid_nonce` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_forbidden' | 'rest_cookie_invalid_nonce';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_not_found';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_already_trashed` */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_already_trashed';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_internal` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_internal';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_unavailable` */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_unavailable';
          } & components['schemas']['error'];
        };
      };
    };
  };
  get_billing_v1_clients: {
    parameters: {
      query?: {
        /** @description Current page of the collection. */
        page?: number;
        /** @description Maximum number of items to be returned in result set. */
        per_page?: number;
        /** @description Limit results to those matching a string. */
        search?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of the collection. */
      200: {
        headers: {
          /** @description How many items the whole collection has. */
          'X-WP-Total'?: number;
          /** @description How many pages of `per_page` items. */
          'X-WP-TotalPages'?: number;
          /** @description `rel="prev"` / `rel="next"` URLs keeping every query parameter. */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['client'][];
        };
      };
      /** @description `rest_invalid_param`, `billing_bad_request`, `billing_rest_invalid_page_number` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'rest_invalid_param' | 'billing_bad_request' | 'billing_rest_invalid_page_number';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_unauthenticated` */
      401: {
        headers: {
          'WWW-Authenticate'?: 'Basic realm="billing"';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_unauthenticated';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_forbidden`, `rest_cookie_invalid_nonce` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_forbidden' | 'rest_cookie_invalid_nonce';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_internal` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_internal';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_unavailable` */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_unavailable';
          } & components['schemas']['error'];
        };
      };
    };
  };
  post_billing_v1_clients: {
    parameters: {
      query?: never;
      header?: {
        /** @description A retried request with the same key does its work once and answers as the first time. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name: string;
          /** Format: email */
          email: string;
          company?: string;
          country?: string;
          vat?: string;
          address?: string;
          /** Format: locale */
          locale?: string | null;
        };
        'application/x-www-form-urlencoded': {
          name: string;
          /** Format: email */
          email: string;
          company?: string;
          country?: string;
          vat?: string;
          address?: string;
          /** Format: locale */
          locale?: string | null;
        };
      };
    };
    responses: {
      /** @description Created. */
      201: {
        headers: {
          /** @description The URL of what was created. */
          Location?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['client'];
        };
      };
      /** @description `rest_invalid_param`, `billing_bad_request`, `rest_missing_callback_param`, `rest_invalid_json` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'rest_invalid_param' | 'billing_bad_request' | 'rest_missing_callback_param' | 'rest_invalid_json';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_unauthenticated` */
      401: {
        headers: {
          'WWW-Authenticate'?: 'Basic realm="billing"';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_unauthenticated';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_forbidden`, `rest_cookie_invalid_nonce` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_forbidden' | 'rest_cookie_invalid_nonce';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_idempotency_mismatch`, `billing_conflict` */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_idempotency_mismatch' | 'billing_conflict';
          } & components['schemas']['error'];
        };
      };
      /** @description `rest_payload_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'rest_payload_too_large';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_internal` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_internal';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_unavailable` */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_unavailable';
          } & components['schemas']['error'];
        };
      };
    };
  };
  get_billing_v1_clients_id_payment_methods: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The client id. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['payment_method'][];
        };
      };
      /** @description `rest_invalid_param`, `billing_bad_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'rest_invalid_param' | 'billing_bad_request';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_unauthenticated` */
      401: {
        headers: {
          'WWW-Authenticate'?: 'Basic realm="billing"';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_unauthenticated';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_forbidden`, `rest_cookie_invalid_nonce` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_forbidden' | 'rest_cookie_invalid_nonce';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_not_found';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_internal` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_internal';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_unavailable` */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_unavailable';
          } & components['schemas']['error'];
        };
      };
    };
  };
  delete_billing_v1_clients_id_payment_methods_pm: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The client id. */
        id: number;
        /** @description The saved payment method id. */
        pm: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            deleted: boolean;
            previous: components['schemas']['payment_method'];
          };
        };
      };
      /** @description `rest_invalid_param`, `billing_bad_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'rest_invalid_param' | 'billing_bad_request';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_unauthenticated` */
      401: {
        headers: {
          'WWW-Authenticate'?: 'Basic realm="billing"';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_unauthenticated';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_forbidden`, `rest_cookie_invalid_nonce` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_forbidden' | 'rest_cookie_invalid_nonce';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_not_found';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_internal` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_internal';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_unavailable` */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_unavailable';
          } & components['schemas']['error'];
        };
      };
    };
  };
  get_billing_v1_payments: {
    parameters: {
      query?: {
        /** @description Current page of the collection. */
        page?: number;
        /** @description Maximum number of items to be returned in result set. */
        per_page?: number;
        /** @description Limit results to those matching a string. */
        search?: string;
        /** @description Comma-separated statuses. */
        status?: ('pending' | 'completed' | 'failed' | 'refunded' | 'cancelled')[];
        /** @description Comma-separated methods. */
        method?: string[];
        /** @description Paid after this day (Y-m-d) or instant (Y-m-d H:i:s), site timezone. */
        after?: string;
        /** @description Paid before this day (Y-m-d) or instant (Y-m-d H:i:s), site timezone. */
        before?: string;
        invoice_id?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of the collection. */
      200: {
        headers: {
          /** @description How many items the whole collection has. */
          'X-WP-Total'?: number;
          /** @description How many pages of `per_page` items. */
          'X-WP-TotalPages'?: number;
          /** @description `rel="prev"` / `rel="next"` URLs keeping every query parameter. */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['payment'][];
        };
      };
      /** @description `rest_invalid_param`, `billing_bad_request`, `billing_rest_invalid_page_number` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'rest_invalid_param' | 'billing_bad_request' | 'billing_rest_invalid_page_number';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_unauthenticated` */
      401: {
        headers: {
          'WWW-Authenticate'?: 'Basic realm="billing"';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_unauthenticated';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_forbidden`, `rest_cookie_invalid_nonce` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_forbidden' | 'rest_cookie_invalid_nonce';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_internal` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_internal';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_unavailable` */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_unavailable';
          } & components['schemas']['error'];
        };
      };
    };
  };
  get_billing_v1_audit_log: {
    parameters: {
      query?: {
        /** @description Current page of the collection. */
        page?: number;
        /** @description Maximum number of items to be returned in result set. */
        per_page?: number;
        /** @description invoice, quote, payment, option, plugin, user, … */
        object_type?: string;
        object_id?: string;
        /** @description A login, or cli, system, visitor */
        actor?: string;
        /** @description e.g. invoice.create, plugin.activate */
        action?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of the collection. */
      200: {
        headers: {
          /** @description How many items the whole collection has. */
          'X-WP-Total'?: number;
          /** @description How many pages of `per_page` items. */
          'X-WP-TotalPages'?: number;
          /** @description `rel="prev"` / `rel="next"` URLs keeping every query parameter. */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['audit-entry'][];
        };
      };
      /** @description `rest_invalid_param`, `billing_bad_request`, `billing_rest_invalid_page_number` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'rest_invalid_param' | 'billing_bad_request' | 'billing_rest_invalid_page_number';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_unauthenticated` */
      401: {
        headers: {
          'WWW-Authenticate'?: 'Basic realm="billing"';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_unauthenticated';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_forbidden`, `rest_cookie_invalid_nonce` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_forbidden' | 'rest_cookie_invalid_nonce';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_internal` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_internal';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_unavailable` */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_unavailable';
          } & components['schemas']['error'];
        };
      };
    };
  };
  post_billing_v1_imports: {
    parameters: {
      query?: never;
      header?: {
        /** @description A retried request with the same key does its work once and answers as the first time. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          resource: string;
          preset?: string;
        };
        'application/x-www-form-urlencoded': {
          resource: string;
          preset?: string;
        };
      };
    };
    responses: {
      /** @description Created. */
      201: {
        headers: {
          /** @description The URL of what was created. */
          Location?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['import-preview'];
        };
      };
      /** @description `rest_invalid_param`, `billing_bad_request`, `rest_missing_callback_param`, `rest_invalid_json`, `billing_import_unreadable` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?:
              | 'rest_invalid_param'
              | 'billing_bad_request'
              | 'rest_missing_callback_param'
              | 'rest_invalid_json'
              | 'billing_import_unreadable';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_unauthenticated` */
      401: {
        headers: {
          'WWW-Authenticate'?: 'Basic realm="billing"';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_unauthenticated';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_forbidden`, `rest_cookie_invalid_nonce` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_forbidden' | 'rest_cookie_invalid_nonce';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_idempotency_mismatch`, `billing_conflict` */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_idempotency_mismatch' | 'billing_conflict';
          } & components['schemas']['error'];
        };
      };
      /** @description `rest_payload_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'rest_payload_too_large';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_internal` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_internal';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_busy`, `billing_unavailable` */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_busy' | 'billing_unavailable';
          } & components['schemas']['error'];
        };
      };
    };
  };
  get_billing_v1_imports_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The import */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['import'];
        };
      };
      /** @description `rest_invalid_param`, `billing_bad_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'rest_invalid_param' | 'billing_bad_request';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_unauthenticated` */
      401: {
        headers: {
          'WWW-Authenticate'?: 'Basic realm="billing"';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_unauthenticated';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_forbidden`, `rest_cookie_invalid_nonce` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_forbidden' | 'rest_cookie_invalid_nonce';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_not_found';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_internal` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_internal';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_unavailable` */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_unavailable';
          } & components['schemas']['error'];
        };
      };
    };
  };
  get_billing_v1_translations_locale: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A shipped language: en, de, fr, es, it or nl. */
        locale: 'en' | 'de' | 'fr' | 'es' | 'it' | 'nl';
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['translations'];
        };
      };
      /** @description `rest_invalid_param`, `billing_bad_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'rest_invalid_param' | 'billing_bad_request';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_unauthenticated` */
      401: {
        headers: {
          'WWW-Authenticate'?: 'Basic realm="billing"';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_unauthenticated';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_forbidden`, `rest_cookie_invalid_nonce` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_forbidden' | 'rest_cookie_invalid_nonce';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_not_found';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_internal` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_internal';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_unavailable` */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_unavailable';
          } & components['schemas']['error'];
        };
      };
    };
  };
  put_billing_v1_translations_locale: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A shipped language: en, de, fr, es, it or nl. */
        locale: 'en' | 'de' | 'fr' | 'es' | 'it' | 'nl';
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['translations'];
        };
      };
      /** @description `rest_invalid_param`, `billing_bad_request`, `rest_invalid_json` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'rest_invalid_param' | 'billing_bad_request' | 'rest_invalid_json';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_unauthenticated` */
      401: {
        headers: {
          'WWW-Authenticate'?: 'Basic realm="billing"';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_unauthenticated';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_forbidden`, `rest_cookie_invalid_nonce` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_forbidden' | 'rest_cookie_invalid_nonce';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_rest_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_rest_not_found';
          } & components['schemas']['error'];
        };
      };
      /** @description `rest_payload_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'rest_payload_too_large';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_internal` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_internal';
          } & components['schemas']['error'];
        };
      };
      /** @description `billing_unavailable` */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            code?: 'billing_unavailable';
          } & components['schemas']['error'];
        };
      };
    };
  };
}
