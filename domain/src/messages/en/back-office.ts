import type { backOffice as hu } from '../hu/back-office.ts';
import type { Translation } from '../translation.ts';

/** The back-office screens' texts (web, SPEC §2.8); the server's refusals and toasts are in core.ts. */
export const backOffice = {
  // actions every back-office screen shares
  adminBack: 'Back',
  adminEdit: 'Edit',
  adminDelete: 'Delete',
  adminHandOver: 'Mark delivered',

  // a parcel's fields as the back office labels them
  adminParcelId: 'ID',
  adminParcelCreatedAt: 'Created',
  adminFrom: 'From',
  adminTo: 'To',
  adminReason: 'Reason',

  // parcel list ('Csomaglistázás')
  adminParcelsTitle: 'Parcel list',
  adminNewParcel: 'New parcel',
  adminParcelsEmpty: 'No parcels match the filters.',

  // parcel create, edit, delete
  adminCreateParcelTitle: 'Back office: create parcel',
  adminSenderUser: 'Sender user',
  adminCreateParcelSubmit: 'Create',
  adminEditParcelTitle: 'Edit parcel',
  adminParcelSummary: (weight: string, sender: string, runner: string) =>
    `Weight: ${weight} · Sender: ${sender} · Runner: ${runner}`,
  adminEditParcelSubmit: 'Save',
  adminDeleteParcelTitle: 'Delete parcel',

  // assignment ('Csomagok futárhoz rendelése')
  adminAssignTitle: 'Assign parcels to runners',
  adminAssignParcel: 'Parcel',
  adminChooseParcel: 'Choose a parcel…',
  adminSelectedParcel: 'The selected parcel',
  adminChooseRunner: 'Choose a runner…',
  adminRunnerChoice: (userName: string, name: string, distance: string) => `${userName} – ${name} (${distance})`,
  adminRunnerPositionUnknown: 'location unknown',
  adminAssignSubmit: 'Assign',

  // runners
  adminRegisterRunnerTitle: 'Back office: register runner',
  adminRegisterRunnerSubmit: 'Register',
  adminRunnersTitle: 'Runner list',
  adminNewRunner: 'New runner',
  adminRunnerSearch: 'Search by name',
  adminRunnersEmpty: 'No such runner.',
  adminRunnerCard: (userName: string) => `Runner ${userName}`,
  adminEditRunnerTitle: 'Edit runner',
  adminDeleteRunnerTitle: 'Delete runner',
  adminCarriedParcelsTitle: 'Parcels they are carrying',
  adminCarriedParcelsEmpty: "They aren't carrying any parcels.",

  // the admin map
  adminMapTitle: 'Map',
  adminMapLabel: 'Parcel map',
  adminMapTotal: (count: string) => `${count} ${count === '1' ? 'parcel' : 'parcels'} on the map`,
  adminMapCluster: (count: number) => `${count} ${count === 1 ? 'parcel' : 'parcels'}`,
  adminMapDetails: 'Details',
  adminMapPopupReceiverAddress: 'Delivery address:',
  adminMapPopupRunner: 'Runner:',

  // the mail written about a parcel, on the incident detail (issue 28)
  adminParcelMessagesTitle: 'Emails about the parcel',
  adminParcelMessagesNone: 'No emails were written about this parcel.',
  adminParcelMessageTo: (to: string) => `To: ${to}`,
  adminParcelMessageWritten: (at: string) => `Written: ${at}`,
} as const satisfies Translation<typeof hu>;
