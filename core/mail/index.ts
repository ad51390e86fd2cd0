export { MailService, type MailDeps, type SendResult } from './mail-service.ts';
export { mailAjaxActions } from './mail-ajax.ts';
export { registerMailListeners } from './mail-listeners.ts';
export type { Delivery } from './delivery-log.ts';
export type { MailTransport, OutgoingMail, MailAttachment, Delivered } from './transport.ts';
