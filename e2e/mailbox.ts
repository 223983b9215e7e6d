import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { expect } from './fixtures.ts';
import { e2eDataDir } from './playwright.config.ts';

/*
 * Email (issue 29) on the embedded default: no SMTP server, so every message is an .eml file under
 * the e2e server's DATA_DIR/mail — read here as the person's mail client would read it.
 */
const mailDir = join(e2eDataDir ?? '', 'mail');

/** The messages written to `email` so far, oldest first. */
export async function mailTo(email: string): Promise<ParsedMail[]> {
  const found: ParsedMail[] = [];
  for (const file of readdirSync(mailDir)
    .filter((name) => name.endsWith('.eml'))
    .sort()) {
    const mail = await simpleParser(readFileSync(join(mailDir, file)));
    const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
    if (to.some((address) => address.text === email)) found.push(mail);
  }
  return found;
}

/** The links matching `pattern` in the messages to `email`, oldest first. */
export const linksTo = async (email: string, pattern: RegExp): Promise<string[]> =>
  (await mailTo(email)).flatMap((mail) => pattern.exec(mail.text ?? '')?.[0] ?? []);

/** The newest link matching `pattern` to `email`, once one has been written. */
export async function newestLinkTo(email: string, pattern: RegExp): Promise<string> {
  await expect.poll(async () => (await linksTo(email, pattern)).length).toBeGreaterThan(0);
  return (await linksTo(email, pattern)).at(-1) ?? '';
}

/** The message to `email` whose subject starts so, once it has been written. */
export async function mailNamed(email: string, subject: string): Promise<ParsedMail> {
  let message: ParsedMail | undefined;
  await expect
    .poll(async () => {
      message = (await mailTo(email)).find((mail) => mail.subject?.startsWith(subject));
      return message !== undefined;
    })
    .toBe(true);
  return message as ParsedMail;
}
