import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../log.ts';

/** A file that goes with a message (nodemailer's attachment shape, the part the service uses). */
export interface MailAttachment {
  filename?: string;
  content: Buffer | string;
  contentType?: string;
  /** Content-ID for `<img src="cid:…">`. */
  cid?: string;
}

/** A message ready to go: the `billing_email` filter's message plus the sender. */
export interface OutgoingMail {
  from: string | { name: string; address: string };
  replyTo?: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments: MailAttachment[];
  /** A Message-ID of our own: the same message sent again (a retry after a crash) carries the same one. */
  messageId?: string;
}

/** What the server (or the outbox) said when it took the message. */
export interface Delivered {
  messageId: string;
  /** The SMTP server's final answer (`250 2.0.0 Ok: queued as …`), or where the outbox file was written. */
  response: string;
}

/** A message that was not taken; `response` is the SMTP server's answer when it gave one (`550 …`). */
export class MailSendError extends Error {
  readonly response: string;

  constructor(message: string, response: string) {
    super(message);
    this.name = 'MailSendError';
    this.response = response;
  }
}

/** Where mail goes: an SMTP server (`SMTP_URL`), or `.eml` files under `DATA_DIR/outbox/` (README.md). */
export interface MailTransport {
  readonly kind: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<Delivered>;
  close(): Promise<void>;
}

/**
 * Time limits for a server that does not answer: nodemailer's own (2 min to connect, 10 min of
 * silence) would hold an admin's request for minutes. A query parameter of SMTP_URL still wins
 * (`?connectionTimeout=30000`), as do `pool=true`, `secure`, `ignoreTLS` and the rest of nodemailer's
 * URL options.
 */
const SMTP_LIMITS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 60_000 };

/** Attachments carry their content: nodemailer must never read a file or fetch a URL on a filter's say-so. */
const SAFE = { disableUrlAccess: true, disableFileAccess: true };

export function createMailTransport(opts: { smtpUrl: string | undefined; dataDir: string; log: Logger }): MailTransport {
  return opts.smtpUrl ? new SmtpTransport(opts.smtpUrl) : new OutboxTransport(join(opts.dataDir, 'outbox'), opts.log);
}

class SmtpTransport implements MailTransport {
  readonly kind = 'smtp' as const;
  private readonly transporter: ReturnType<typeof nodemailer.createTransport>;

  constructor(url: string) {
    this.transporter = nodemailer.createTransport({ url, ...SMTP_LIMITS, ...SAFE });
  }

  async send(mail: OutgoingMail): Promise<Delivered> {
    try {
      const info = await this.transporter.sendMail(mail);
      return { messageId: String(info.messageId ?? ''), response: String(info.response ?? '') };
    } catch (err) {
      const e = err as Error & { response?: string };
      throw new MailSendError(e.message, typeof e.response === 'string' ? e.response : '');
    }
  }

  async close(): Promise<void> {
    this.transporter.close();
  }
}

/**
 * Without SMTP_URL every message becomes an `.eml` file (RFC 5322, CRLF lines) in the outbox, built by
 * nodemailer's stream transport exactly as it would have gone over SMTP. Files are readable by the
 * service's user only: the body carries the document's access key.
 */
class OutboxTransport implements MailTransport {
  readonly kind = 'outbox' as const;
  private readonly transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows', ...SAFE });
  private readonly dir: string;
  private readonly log: Logger;

  constructor(dir: string, log: Logger) {
    this.dir = dir;
    this.log = log;
  }

  async send(mail: OutgoingMail): Promise<Delivered> {
    try {
      const info = await this.transporter.sendMail(mail);
      // sortable by time, unique without a counter shared between instances
      const name = `${new Date().toISOString().replace(/[-:]/g, '').replace('.', '-')}-${randomBytes(4).toString('hex')}.eml`;
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      await writeFile(join(this.dir, name), info.message as Buffer, { mode: 0o600, flag: 'wx' });
      // the log line names the file and the envelope, never the body (it holds the access key)
      this.log.info(
        { file: join(this.dir, name), to: mail.to, subject: mail.subject, messageId: info.messageId },
        'mail written to the outbox',
      );
      return { messageId: String(info.messageId ?? ''), response: `written to outbox/${name}` };
    } catch (err) {
      throw new MailSendError((err as Error).message, '');
    }
  }

  async close(): Promise<void> {
    this.transporter.close();
  }
}
