import { messages } from '@csomag/domain/messages';

/** A message as sent: its subject and both parts, from the catalogue's texts (issue 29). */
export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The HTML part: one narrow column that reads on a phone's mail client, the action as a button
 * (and its link written out, for clients that block buttons), every text escaped.
 */
function htmlOf(lines: { greeting: string; paragraphs: string[]; action?: { label: string; url: string } }) {
  const paragraph = (text: string) => `<p style="margin:0 0 16px">${escapeHtml(text)}</p>`;
  const action = lines.action
    ? `<p style="margin:0 0 16px"><a href="${escapeHtml(lines.action.url)}" style="display:inline-block;padding:12px 20px;background:#1d4ed8;color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(lines.action.label)}</a></p>` +
      `<p style="margin:0 0 16px;word-break:break-all;font-size:14px"><a href="${escapeHtml(lines.action.url)}">${escapeHtml(lines.action.url)}</a></p>`
    : '';
  const [first = '', ...rest] = lines.paragraphs;
  return [
    '<!doctype html><html lang="hu"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1"></head>',
    '<body style="margin:0;padding:16px;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;font-size:16px;line-height:1.5;color:#111827">',
    '<div style="max-width:560px;margin:0 auto">',
    paragraph(lines.greeting),
    paragraph(first),
    action,
    ...rest.map(paragraph),
    `<p style="margin:24px 0 0;color:#4b5563;font-size:14px">${escapeHtml(messages.mailSignature)}<br>${escapeHtml(messages.mailAutomatic)}</p>`,
    '</div></body></html>',
  ].join('');
}

/** 'Elfelejtett jelszó': the link that sets a new password, once, within the hour. */
export function passwordResetMail(name: string, link: string): ComposedMail {
  const greeting = messages.mailGreeting(name);
  return {
    subject: messages.mailPasswordResetSubject,
    text: [
      greeting,
      messages.mailPasswordResetBody,
      link,
      messages.mailPasswordResetIgnore,
      `-- \n${messages.mailSignature}\n${messages.mailAutomatic}`,
    ].join('\n\n'),
    html: htmlOf({
      greeting,
      paragraphs: [messages.mailPasswordResetBody, messages.mailPasswordResetIgnore],
      action: { label: messages.mailPasswordResetButton, url: link },
    }),
  };
}
