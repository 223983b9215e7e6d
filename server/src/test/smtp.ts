import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server in the test's process (issue 29; DESIGN §10): it speaks the protocol to
 * nodemailer and keeps what it received, parsed with mailparser. `refuse` answers 550 for an
 * address (a permanent bounce); `stop` and `listen` take it down and bring it back on its port.
 */
export class TestSmtpServer {
  readonly received: (ParsedMail & { envelopeTo: string[] })[] = [];
  readonly refuse = new Set<string>();
  private server: SMTPServer | undefined;
  port = 0;

  async listen(port = this.port) {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        if (this.refuse.has(address.address.toLowerCase())) {
          const error = new Error('Mailbox unavailable') as Error & { responseCode: number };
          error.responseCode = 550;
          callback(error);
          return;
        }
        callback();
      },
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((parsed) => {
            this.received.push({ ...parsed, envelopeTo: session.envelope.rcptTo.map((to) => to.address) });
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  get url() {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async stop() {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The messages that reached `address`. */
  to(address: string) {
    return this.received.filter((mail) => mail.envelopeTo.includes(address.toLowerCase()));
  }
}
