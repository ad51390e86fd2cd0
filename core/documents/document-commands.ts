import { CLI } from '../audit/audit.ts';
import { BillingError } from '../errors.ts';
import { INVOICE_ARGS, type DocumentInput } from './document-schema.ts';
import type { Config } from '../config.ts';
import type { DocumentServices } from './services.ts';
import { checkArgs } from '../validation/args.ts';
import { table, type Command } from '../cli/command.ts';

const id = (text: string | undefined): number => {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw new BillingError('billing_invalid_argument', `not a document id: ${text}`);
  return n;
};

/**
 * The public page of a document, with its access key: printed to the operator on the server, never
 * sent by any route (docs/documents.md). This is how the link reaches someone who is not sent an e-mail.
 */
async function publicLink(docs: DocumentServices, config: Config, kind: 'invoice' | 'quote', docId: number) {
  const service = kind === 'invoice' ? docs.invoices : docs.quotes;
  const doc = await service.get(docId);
  const key = await service.accessKey(doc.id);
  const url = `${config.baseUrl}/billing/${kind}/${doc.id}?key=${encodeURIComponent(key)}`;
  return { id: doc.id, number: doc.number, url, pdf: url.replace(`/${doc.id}?`, `/${doc.id}/pdf?`) };
}

/** `billing invoice …` and `billing quote …`: the same in-process API that REST and AJAX call. */
export function documentCommands(docs: DocumentServices, config: Config): Command[] {
  return [
    {
      words: ['invoice', 'list'],
      usage: 'billing invoice list [--status <s,…>] [--search <text>] [--page <n>]',
      options: { status: { type: 'string' }, search: { type: 'string' }, page: { type: 'string' } },
      run: async ({ flags }) => {
        const { items, total } = await docs.invoices.list({
          page: flags.page ? id(String(flags.page)) : 1,
          per_page: 100,
          status: typeof flags.status === 'string' ? flags.status.split(',') : undefined,
          search: typeof flags.search === 'string' ? flags.search : undefined,
        });
        return {
          total,
          invoices: items.map((d) => ({
            id: d.id,
            number: d.number,
            status: d.status,
            customer: d.customer.name,
            currency: d.currency,
            total: d.totals.total,
            due: d.totals.due,
            issue_date: d.issueDate,
          })),
        };
      },
      text: (r) =>
        `${table(r.invoices, ['id', 'number', 'status', 'customer', 'currency', 'total', 'due', 'issue_date'])}\n${r.total} invoice(s)`,
    },
    {
      words: ['invoice', 'create'],
      usage: "billing invoice create '<JSON body of POST /invoices>'",
      arity: 1,
      run: async ({ args }) => {
        let body: unknown;
        try {
          body = JSON.parse(args[0]!);
        } catch {
          throw new BillingError('rest_invalid_json', 'the invoice is not valid JSON');
        }
        const input = checkArgs(INVOICE_ARGS, (body ?? {}) as Record<string, unknown>) as DocumentInput;
        const doc = await docs.invoices.create(input, { actor: CLI, source: 'cli' });
        return { id: doc.id, number: doc.number, status: doc.status, total: doc.totals.total };
      },
      text: (r) => `Invoice ${r.number} created (id ${r.id}, ${r.status}, total ${r.total}).`,
    },
    {
      words: ['invoice', 'trash'],
      usage: 'billing invoice trash <id>',
      arity: 1,
      run: async ({ args }) => {
        const d = await docs.invoices.trash(id(args[0]), CLI);
        return { id: d.id, number: d.number, trashed: true };
      },
      text: (r) => `Invoice ${r.number} moved to the trash.`,
    },
    {
      words: ['invoice', 'restore'],
      usage: 'billing invoice restore <id>',
      arity: 1,
      run: async ({ args }) => {
        const d = await docs.invoices.restore(id(args[0]), CLI);
        return { id: d.id, number: d.number, status: d.status };
      },
      text: (r) => `Invoice ${r.number} restored (${r.status}).`,
    },
    {
      words: ['invoice', 'link'],
      usage: 'billing invoice link <id>',
      arity: 1,
      run: ({ args }) => publicLink(docs, config, 'invoice', id(args[0])),
      text: (r) => r.url,
    },
    {
      words: ['quote', 'link'],
      usage: 'billing quote link <id>',
      arity: 1,
      run: ({ args }) => publicLink(docs, config, 'quote', id(args[0])),
      text: (r) => r.url,
    },
  ];
}
