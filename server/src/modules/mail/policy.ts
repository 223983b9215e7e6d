import { type Actor, hasRole, policyGuard } from '../../policy.ts';

/** Email (issue 29): what was sent is the back office's to read; the messages themselves go to their person only. */
const rules = {
  /** 'Kimenő levelek': every message, its status and where it went. */
  readOutbox: (actor: Actor) => hasRole(actor, 'superadmin'),
  /** Which status mails one gets about the parcels one sends: senders (users) only, their own. */
  managePreferences: (actor: Actor) => hasRole(actor, 'user'),
} satisfies Record<string, (actor: Actor) => boolean>;

export type MailAction = keyof typeof rules;
export const MAIL_ACTIONS = Object.keys(rules) as MailAction[];

export const mayMail = (actor: Actor, action: MailAction): boolean => rules[action](actor);

export const mailGuard = (action: MailAction) => policyGuard((actor) => mayMail(actor, action));
