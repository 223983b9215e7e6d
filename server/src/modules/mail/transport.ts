import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

/** A message ready to go: addresses, subject, both parts, extra headers. */
export interface OutgoingMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

/**
 * Where messages go (issue 29, DESIGN §10): the operator's SMTP server (`SMTP_URL`), or — the
 * embedded default — `.eml` files under DATA_DIR/mail, so a self-hoster sees exactly what would
 * have been sent. Both are built by nodemailer, so a file is the message an SMTP server would get.
 */
export interface MailTransport {
  kind: 'smtp' | 'files';
  /** Sends it; a file transport answers the file's name. Throws what the server answered. */
  send(message: OutgoingMessage): Promise<{ fileName: string | null }>;
  close(): void;
}

export function mailTransport(options: { smtpUrl: string | undefined; mailDir: string }): MailTransport {
  if (options.smtpUrl) {
    const smtp = nodemailer.createTransport(options.smtpUrl);
    return {
      kind: 'smtp',
      async send(message) {
        await smtp.sendMail(message);
        return { fileName: null };
      },
      close: () => smtp.close(),
    };
  }
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'files',
    async send(message) {
      const info = await stream.sendMail(message);
      await mkdir(options.mailDir, { recursive: true });
      // Sortable by time, unique without a lock across instances sharing the folder.
      const fileName = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      await writeFile(join(options.mailDir, fileName), info.message as Buffer, { mode: 0o600 });
      return { fileName };
    },
    close: () => stream.close(),
  };
}
