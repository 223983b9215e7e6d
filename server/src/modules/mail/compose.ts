import type { Language } from '@csomag/domain/language';
import { messages } from '@csomag/domain/messages';
import { sayIn } from '../../i18n.ts';

/** A message as sent: its subject and both parts, from the catalogue's texts (issue 29). */
export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
}

/** What a message says: a greeting, paragraphs, an optional action, and for non-essential mail its stop link. */
export interface MailContent {
  subject: string;
  greeting: string;
  /** The first comes before the action's button, the rest after it. */
  paragraphs: readonly string[];
  action?: { label: string; url: string };
  /** Non-essential mail: how to get no more of it (the page behind the one-click stop). */
  stop?: { text: string; url: string };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The HTML part: one narrow column that reads on a phone's mail client, the action as a button
 * (and its link written out, for clients that block buttons), every text escaped.
 */
function htmlOf(content: MailContent, language: Language) {
  const say = (text: string) => sayIn(language, text);
  const paragraph = (text: string) => `<p style="margin:0 0 16px">${escapeHtml(text)}</p>`;
  const action = content.action
    ? `<p style="margin:0 0 16px"><a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:12px 20px;background:#1d4ed8;color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(content.action.label)}</a></p>` +
      `<p style="margin:0 0 16px;word-break:break-all;font-size:14px"><a href="${escapeHtml(content.action.url)}">${escapeHtml(content.action.url)}</a></p>`
    : '';
  const stop = content.stop
    ? `<p style="margin:16px 0 0;color:#4b5563;font-size:14px">${escapeHtml(content.stop.text)} <a href="${escapeHtml(content.stop.url)}">${escapeHtml(say(messages.mailStopLink))}</a></p>`
    : '';
  const [first = '', ...rest] = content.paragraphs;
  return [
    `<!doctype html><html lang="${language}"><head><meta charset="utf-8">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1"></head>',
    '<body style="margin:0;padding:16px;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;font-size:16px;line-height:1.5;color:#111827">',
    '<div style="max-width:560px;margin:0 auto">',
    paragraph(content.greeting),
    paragraph(first),
    action,
    ...rest.map(paragraph),
    `<p style="margin:24px 0 0;color:#4b5563;font-size:14px">${escapeHtml(say(messages.mailSignature))}<br>${escapeHtml(say(messages.mailAutomatic))}</p>`,
    stop,
    '</div></body></html>',
  ].join('');
}

/** The plain-text part: the same in the same order, each link written out on its own line. */
function textOf(content: MailContent, language: Language) {
  const say = (text: string) => sayIn(language, text);
  const [first = '', ...rest] = content.paragraphs;
  return [
    content.greeting,
    first,
    ...(content.action ? [content.action.url] : []),
    ...rest,
    `-- \n${say(messages.mailSignature)}\n${say(messages.mailAutomatic)}`,
    ...(content.stop ? [`${content.stop.text}\n${content.stop.url}`] : []),
  ].join('\n\n');
}

/**
 * Both parts of a message from what it says, in its reader's language (issue 30): written from
 * the Hungarian catalogue, said in `language` (ADR 0034) — every text, its own and the frame's.
 */
export function composeMail(written: MailContent, language: Language = 'hu'): ComposedMail {
  const say = (text: string) => sayIn(language, text);
  const content: MailContent = {
    subject: say(written.subject),
    greeting: say(written.greeting),
    paragraphs: written.paragraphs.map(say),
    ...(written.action ? { action: { ...written.action, label: say(written.action.label) } } : {}),
    ...(written.stop ? { stop: { ...written.stop, text: say(written.stop.text) } } : {}),
  };
  return { subject: content.subject, text: textOf(content, language), html: htmlOf(content, language) };
}

/** 'Elfelejtett jelszó': the link that sets a new password, once, within the hour. */
export const passwordResetMail = (name: string, link: string, language: Language = 'hu'): ComposedMail =>
  composeMail(
    {
      subject: messages.mailPasswordResetSubject,
      greeting: messages.mailGreeting(name),
      paragraphs: [messages.mailPasswordResetBody, messages.mailPasswordResetIgnore],
      action: { label: messages.mailPasswordResetButton, url: link },
    },
    language,
  );
