import type { notifications as hu } from '../hu/notifications.ts';
import type { Translation } from '../translation.ts';

/** Push notifications: opt-in, devices, kinds, and the notifications themselves (issue 12). */
export const notifications = {
  // the profile page's section
  pushTitle: 'Notifications',
  pushIntro: 'Get a notification on your phone or computer when the status of your parcels changes.',
  pushEnable: 'Turn on notifications on this device',
  pushEnabling: 'Turning on…',
  pushEnabled: "You've turned on notifications on this device.",
  pushThisDeviceOn: 'This device receives notifications.',
  pushUnsupported: "This browser can't receive notifications.",
  pushPermissionDenied: "You've blocked notifications in your browser settings; you can allow them again there.",
  pushSubscribeFailed: "Notifications couldn't be turned on on this device.",
  pushDevicesTitle: 'Your devices',
  pushNoDevices: "You haven't turned on notifications on any device yet.",
  pushUnknownDevice: 'Unknown device',
  pushThisDevice: '(this device)',
  pushDeviceAdded: (at: string) => `Added: ${at}`,
  pushRemoveDevice: 'Remove',
  pushRemoveDeviceNamed: (label: string) => `Remove ${label}`,
  pushDeviceRemoved: 'The device will no longer receive notifications.',
  pushKindsTitle: 'What do you want to be notified about?',
  pushPreferencesSaved: 'Your notification settings are saved.',

  // the kinds, as the switches name them (not 'parcel', 'address' or 'runner': the forms' own labels)
  pushKindSentPickedUp: 'A shipment I sent is on its way',
  pushKindSentDelivered: 'A shipment I sent was delivered',
  pushKindIncomingOnItsWay: 'A shipment for me is on its way',
  pushKindIncomingDelivered: 'A shipment for me was delivered',
  pushKindAssigned: 'A shipment was assigned to me',

  // the notifications (title per kind, body = the status text)
  pushNotificationTitle: 'Csomagküldő',
  pushTitleSentPickedUp: 'A runner is on the way with your parcel',
  pushTitleSentDelivered: 'Your parcel reached its destination',
  pushTitleIncomingOnItsWay: 'Your parcel is coming',
  pushTitleIncomingDelivered: 'Your parcel has arrived',
  pushTitleAssigned: 'New parcel on your list',
  pushStatusSentPickedUp: (parcelId: string) => `The runner picked up parcel ${parcelId}.`,
  pushStatusSentDelivered: (parcelId: string) => `Parcel ${parcelId} was delivered.`,
  pushStatusIncomingOnItsWay: (parcelId: string) => `Parcel ${parcelId}, addressed to you, is on its way.`,
  pushStatusIncomingDelivered: (parcelId: string) => `Parcel ${parcelId}, addressed to you, was delivered.`,
  pushStatusAssigned: (parcelId: string) => `Parcel ${parcelId} was assigned to you.`,

  // refusals
  pushEndpointInvalid: 'The notification address must start with https://.',
  pushKeyInvalid: 'Invalid notification key.',
  pushDeviceNotFound: 'No such device.',
} as const satisfies Translation<typeof hu>;
