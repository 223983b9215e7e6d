import type { offline as hu } from '../hu/offline.ts';
import type { Translation } from '../translation.ts';

/** The installable app, the offline outbox and the offline banner (issue 12). */
export const offline = {
  // the web app manifest (generated at build time from these)
  manifestName: 'Csomagküldő',
  manifestShortName: 'Csomagküldő',
  manifestDescription: 'Community parcel delivery: anyone can send a parcel, anyone can be a runner.',
  shortcutWaitingParcels: 'Parcels waiting for a runner',
  shortcutWaitingParcelsShort: 'Waiting list',
  shortcutRunnerMap: 'Runner map',
  shortcutRunnerMapShort: 'Map',

  // a new build's service worker is waiting
  updateAvailable: 'A new version is available',
  updateNow: 'update',

  // the outbox
  pendingActions: (count: number) => `Pending: ${count} ${count === 1 ? 'action' : 'actions'}`,
  pendingActionsHint: "We'll send them automatically when the connection is back.",
  pendingPickUp: 'Parcel pickup',
  pendingDeliver: 'Delivery without a QR code',
  pendingHandover: 'QR code hand-over confirmation',
  pendingCreateParcel: 'Sending a parcel',
  pendingMadeAt: (time: string) => `recorded: ${time}`,
  actionQueued: 'No connection: we saved the action and will send it when the connection is back.',
  actionDropped: "The server didn't accept a pending action, so we deleted it.",

  // reads while offline
  offlineSince: (time: string) => `Offline — last updated: ${time}`,
  offlineNoData: 'Offline — no saved data yet.',
} as const satisfies Translation<typeof hu>;
