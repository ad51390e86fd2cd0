import type { AjaxAction } from '../http/ajax/ajax-action.ts';
import type { DocumentsContext } from './documents.ts';

/** The quote builder's and the visitor's admin-ajax actions (contract §6). */
export function quoteAjaxActions(_d: DocumentsContext): AjaxAction[] {
  return [];
}
