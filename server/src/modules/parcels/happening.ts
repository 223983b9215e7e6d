import type { ParcelChange } from '../../db/change-feed.ts';

/**
 * The news a parcel change is, for whom: picked up (or assigned), a failed attempt, on its way
 * back (and not collected at its drop point), delivered, back with its sender, written off
 * (issue 28); nothing else is told. What push (push/notifier.ts) and mail (mail/parcel-mail.ts)
 * tell people of a change, each to its own recipients.
 */
export type Happening =
  | 'on_its_way'
  | 'attempted'
  | 'returning'
  | 'uncollected'
  | 'with_neighbour'
  | 'at_drop_point'
  | 'delivered'
  | 'returned'
  | 'lost';

export function happeningOf(change: ParcelChange): Happening | null {
  if (change.kind === 'picked_up' || change.kind === 'assigned') return 'on_its_way';
  if (change.kind === 'attempted') return 'attempted';
  // Turned back where it waited for its receiver: not collected in time, or refused at the counter
  // (the back office sending it back after an incident is plainly the way back).
  if (change.kind === 'return_started' && change.previous?.status === 'at_drop_point' && !change.byBackOffice) {
    return 'uncollected';
  }
  // A runner takes it from the drop point: now it really is on its way to the sender.
  if (change.kind === 'return_started' || change.kind === 'taken_from_drop_point') return 'returning';
  if (change.kind === 'lost') return 'lost';
  if (change.kind === 'returned') return 'returned';
  if (change.kind === 'left_with_neighbour') return 'with_neighbour';
  if (change.kind === 'dropped_off') return 'at_drop_point';
  if (
    ['delivered', 'handed_over_qr', 'handed_over_pin', 'collected', 'collected_at_drop_point'].includes(change.kind)
  ) {
    return 'delivered';
  }
  // The back office may mark a parcel in transit as delivered.
  if (change.kind === 'status_changed' && change.status === 'delivered' && change.previous?.status !== 'delivered') {
    return 'delivered';
  }
  return null;
}
