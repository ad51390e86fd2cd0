import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { waitFor } from './wait-for.ts';

export interface ReceivedMail {
  /** The SMTP envelope: MAIL FROM and RCPT TO as the server saw them. */
  envelope: { from: string; to: string[] };
  raw: Buffer;
  parsed: ParsedMail;
}

/**
 * A real SMTP server for the tests (smtp-server), parsing what it receives with mailparser. With
 * `reject` set, it answers DATA with that code and text, as a server refusing the message does.
 */
export class MailCatcher {
  readonly received: ReceivedMail[] = [];
  reject: { code: number; message: string } | null = null;
  /**
   * With `hold` set, a message to a recipient it answers true for is not answered until `release()`:
   * a server that is slow for some mail (the sender waits on DATA), as a flood's target would be.
   */
  hold: ((to: string[]) => boolean) | null = null;
  /** Messages received but not yet answered (held). */
  held = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly server: SMTPServer;
  private port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      // plain SMTP on localhost: no STARTTLS offer (nodemailer would try it against a self-signed cert)
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const to = session.envelope.rcptTo.map((r) => r.address);
          if (this.hold?.(to)) {
            this.held++;
            this.waiting.push(() => {
              this.held--;
              answer();
            });
          } else answer();
        });
        const answer = () => {
          if (this.reject) {
            const err = Object.assign(new Error(this.reject.message), { responseCode: this.reject.code });
            return callback(err);
          }
          const raw = Buffer.concat(chunks);
          simpleParser(raw, { keepCidLinks: true }).then(
            (parsed) => {
              this.received.push({
                envelope: {
                  from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                  to: session.envelope.rcptTo.map((r) => r.address),
                },
                raw,
                parsed,
              });
              callback(null, `2.0.0 Ok: queued as TEST${this.received.length}`);
            },
            (err: Error) => callback(err),
          );
        };
      },
    });
  }

  /** Answers every held message (and holds no more). */
  release(): void {
    this.hold = null;
    for (const go of this.waiting.splice(0)) go();
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.server.address() as { port: number }).port;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The first received mail `match` accepts, once it has arrived (throws after `timeoutMs`). */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs = 10000): Promise<ReceivedMail> {
    return waitFor(() => this.received.find(match), { timeoutMs, what: 'a matching mail' });
  }

  /** The mails sent to `address`. */
  to(address: string): ReceivedMail[] {
    return this.received.filter((m) => m.envelope.to.includes(address));
  }
}
