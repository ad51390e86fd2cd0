export { MailCatcher as TestSmtp, type ReceivedMail } from '../../testing/mail-catcher.ts';
