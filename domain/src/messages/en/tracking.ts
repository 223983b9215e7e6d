import type { tracking as hu } from '../hu/tracking.ts';
import type { Translation } from '../translation.ts';

/** The public tracking screens' texts (web, SPEC §2.5). */
export const tracking = {
  trackingTitle: 'Parcel tracking',
  trackingSearchHint: 'Enter the parcel ID – you can track it without signing up.',
  parcelIdInputLabel: 'Parcel ID',
  parcelIdPlaceholder: 'parcel ID',
  trackingSearchSubmit: 'Search',
  backToTrackingSearch: 'Back to search',
  parcelDetailsLabel: 'Parcel details',
  sentAtLabel: 'Sent',
  pickedUpAtLabel: 'Picked up',
  deliveredAtLabel: 'Delivered',
  timelineTitle: 'History',
  currentStatus: (status: string) => `Current status: ${status}`,
  trackingMapLabel: 'Parcel map',
} as const satisfies Translation<typeof hu>;
