import type { AjaxAction } from '../http/ajax/ajax-action.ts';
import type { DocumentsContext } from './documents.ts';

/** The invoice builder's admin-ajax actions (contract §6). */
export function invoiceAjaxActions(_d: DocumentsContext): AjaxAction[] {
  return [];
}
