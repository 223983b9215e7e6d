import type { ParcelStatus } from '@csomag/domain/parcel';

/** Delivered, or brought back to its sender (issue 28): handed over either way, the link spent. */
export const handedOver = (status: ParcelStatus) => status === 'delivered' || status === 'returned';
