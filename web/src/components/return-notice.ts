import { messages } from '@csomag/domain/messages';
import type { ParcelState } from '@csomag/domain/parcel-states';

/** What anyone holding the id is told of a parcel on its way back or back with its sender (issue 28). */
export const returnNotice = (state: ParcelState) =>
  state === 'returning' ? messages.parcelReturningNotice : state === 'returned' ? messages.parcelReturnedNotice : null;
