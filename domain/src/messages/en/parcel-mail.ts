import type { parcelMail as hu } from '../hu/parcel-mail.ts';
import type { Translation } from '../translation.ts';

/**
 * Mail about parcels (issue 29): what a receiver without an account and a sender are told, the
 * one-click stop, the sender's switches on the profile page, and the send form's address field.
 * No message names a third person beyond what the receiver needs: the sender's name, never their
 * phone, email or address.
 */
export const parcelMail = {
  mailStopLink: 'Unsubscribe',
  mailLinkInvalid: 'This link is invalid or incomplete.',
  mailTrackButton: 'Track parcel',
  mailGreetingReceiver: 'Hello,',

  // to the receiver, from the address the sender typed
  mailReceiverComingSubject: (id: string) => `Someone has sent you a parcel – ${id}`,
  mailReceiverComing: (sender: string, id: string) =>
    `${sender} has sent you a parcel with Csomagküldő (ID: ${id}). A runner will bring it; you can follow its journey at the link below:`,
  mailReceiverComingToDropPoint: (place: string) =>
    `The parcel has been sent to a drop point: ${place}. You can collect it there.`,
  mailReceiverCodeNote:
    "The link also shows your collection code: when you receive the parcel, tell it to the runner (or show them its QR code). Don't give it to anyone else.",
  mailReceiverPickedUpSubject: (id: string) => `Your parcel is on its way – ${id}`,
  mailReceiverPickedUp: 'A runner has picked up the parcel and is bringing it to you. You can follow its journey here:',
  mailReceiverNearSubject: (id: string) => `The runner is nearby – ${id}`,
  mailReceiverNear:
    'The runner is less than a kilometre from your address and will be there soon. See where they are here:',
  mailReceiverAttemptedSubject: (id: string) => `Delivery failed – ${id}`,
  mailReceiverAttempted: (reason: string) => `The runner couldn't hand over the parcel (${reason}).`,
  mailReceiverAttemptedNext:
    'At the link below you can ask for a new time, tell the runner which neighbour to leave it with, or choose a drop point where you can collect it:',
  mailReceiverWithNeighbourSubject: (id: string) => `Your parcel is with a neighbour – ${id}`,
  mailReceiverWithNeighbour: (name: string, door: string) =>
    `The runner didn't find you at home, so they left the parcel with your neighbour: ${name} (${door}). You can collect it from them with the code on the notice. You can track the parcel here:`,
  mailReceiverAtDropPointSubject: (id: string) => `Your parcel is ready to collect – ${id}`,
  mailReceiverAtDropPoint: (place: string, hours: string, days: number) =>
    `The parcel is waiting for you at the drop point: ${place} (open: ${hours}). It waits for ${days} ${days === 1 ? 'day' : 'days'}; you can see your collection code at the link below:`,
  mailReceiverDeliveredSubject: (id: string) => `Delivered – ${id}`,
  mailReceiverDelivered:
    'The parcel has been handed over. Thank you for receiving it with Csomagküldő! See the details here:',
  mailReceiverStop: "Don't want any more emails about this parcel?",

  // to the sender, if they have not switched the kind off
  mailSenderPickedUpSubject: (id: string) => `A runner has picked up your parcel – ${id}`,
  mailSenderPickedUp:
    'A runner has picked up your parcel and is taking it to the receiver. You can follow its journey here:',
  mailSenderAttemptedSubject: (id: string) => `Failed delivery – ${id}`,
  mailSenderAttempted: (reason: string) =>
    `The runner couldn't deliver your parcel (${reason}). See the details and next steps here:`,
  mailSenderDeliveredSubject: (id: string) => `Delivered – ${id}`,
  mailSenderDelivered:
    "Your parcel has reached the receiver. You can see the proof of delivery (when, where, and a photo if one was taken) on the parcel's page when signed in:",
  mailSenderReportedSubject: (id: string) => `A problem with your parcel – ${id}`,
  mailSenderReported:
    'The runner has reported a problem with your parcel; our staff are dealing with it. See the details here:',
  mailSenderLost: 'Our staff have declared your parcel lost. See the details here:',
  mailSenderStop: "Don't want any more emails like this? Unsubscribe, or choose on your profile which emails you get:",

  // the profile page's switches
  mailSettingsTitle: 'Email notifications',
  mailSettingsIntro: 'What to email you about the parcels you send:',
  mailKindPickedUp: 'Picked up by a runner',
  mailKindAttempted: 'Failed delivery',
  mailKindDelivered: 'Delivered (with a link to the proof)',
  mailKindReported: 'Reported problem or lost parcel',
  mailSettingsSaved: "We've saved which emails you get.",
  mailSettingsUnverified: 'We only send email to a verified address: verify your address.',

  // the back office's outgoing mail: what each message is
  mailTemplateEmailVerification: 'Email address verification',
  mailTemplateEmailChanged: 'Email address changed',
  mailTemplateReceiver: (what: string) => `To receiver: ${what}`,
  mailTemplateSender: (what: string) => `To sender: ${what}`,
  mailTemplateComing: 'parcel on its way',
  mailTemplateNear: 'runner nearby',
  mailTemplateWithNeighbour: 'with a neighbour',
  mailTemplateAtDropPoint: 'at a drop point',
  mailTemplateDelivered: 'delivered',

  // the send form
  receiverEmailLabel: "Receiver's email address (optional)",
  receiverEmailHint:
    "If you enter it, we'll email them about the parcel's journey and send them their collection code.",

  // the one-click stop's page
  unsubscribeTitle: 'Unsubscribe',
  unsubscribeIntro: "Are you sure you don't want any more emails like this?",
  unsubscribeSubmit: 'Unsubscribe',
  unsubscribedParcel: (id: string) => `You've unsubscribed: we won't send any more emails about parcel ${id}.`,
  unsubscribedSenderKind: (kind: string) =>
    `You've unsubscribed: we won't send any more “${kind}” emails. You can switch them back on in your profile.`,

  // the receiver's link on the tracking page
  receiverLinkInvalid: 'This link is no longer valid for this parcel.',
} as const satisfies Translation<typeof hu>;
