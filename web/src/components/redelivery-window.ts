import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { RedeliveryWindow } from '@csomag/domain/parcel';

/** The new time asked for, as the receiver and the runner read it (Budapest time). */
export const windowText = ({ from, until }: RedeliveryWindow) =>
  messages.redeliveryWindowText(formatTimestamp(from), formatTimestamp(until));
