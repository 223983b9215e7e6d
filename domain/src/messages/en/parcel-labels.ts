import type { parcelLabels as hu } from '../hu/parcel-labels.ts';
import type { Translation } from '../translation.ts';

/** A parcel's statuses and timeline events as people read them, and how long ago. */
export const parcelLabels = {
  // statuses
  statusWaiting: 'waiting',
  statusInTransit: 'in transit',
  statusDelivered: 'delivered',

  // timeline events
  eventCreated: 'Sent',
  eventPickedUp: 'Picked up by a runner',
  eventAssigned: 'Assigned to a runner',
  eventDelivered: 'Delivered',
  eventHandedOverQr: 'Handed over with a QR code',
  eventEdited: 'Details changed',
  eventStatusChanged: 'Status changed',
  eventDeleted: 'Deleted',
  eventGivenBack: 'Given up by the runner',
  eventCancelled: 'Sending withdrawn',
  eventRelayed: 'Handed to another runner',
  eventCustodyOverride: 'Holder changed',
  eventProofPhoto: 'Photo of the delivery',
  eventHandedOverPin: 'Handed over with the collection code',
  eventLeftWithNeighbour: 'Left with a neighbour',
  eventCollected: 'Collected from the neighbour',
  eventIncidentReported: 'Problem reported',
  eventDropPointChosen: 'Drop point chosen',
  eventDroppedOff: 'Left at a drop point',
  eventCollectedAtDropPoint: 'Collected at the drop point',
  eventLost: 'Written off as lost',
  eventAttempted: 'Failed delivery',
  eventRedeliveryRequested: 'New delivery time requested',
  eventNeighbourRequested: 'Asked: leave it with the neighbour',
  eventReturnStarted: 'Return to sender',
  eventReturned: 'Back with the sender',
  eventTakenFromDropPoint: 'Taken from the drop point to the sender by a runner',
  eventAttemptPhoto: 'Photo of the door',

  // how long ago
  ageNow: 'now',
  ageMinutes: (minutes: number) => `${minutes} min ago`,
  ageHours: (hours: number) => (hours === 1 ? '1 hour ago' : `${hours} hours ago`),
  ageDays: (days: number) => (days === 1 ? '1 day ago' : `${days} days ago`),
  /** The decimal mark of a distance ('1.2 km'). */
  decimalMark: '.',
  /** A moment as British English writes it: '29/11/2026, 15:20:00', Budapest time. */
  timestamp: (year: string, month: string, day: string, clock: string) => `${day}/${month}/${year}, ${clock}`,

  // registration's role
  selfRegisterRoleInvalid: 'The role can be user or runner.',
} as const satisfies Translation<typeof hu>;
