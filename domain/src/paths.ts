import type { Role } from './roles.ts';

/**
 * SPEC §2.1's URL paths, spelt as the product has always had them. A path with a parameter has a
 * builder for links and an `…Pattern` for the router (web/src/routes.tsx), whose parameter name the
 * page reads (paths.test.ts holds the two to one spelling).
 */
export const paths = {
  home: '/',
  login: '/Bejelentkezes',
  registerChoice: '/Regisztracio',
  registerUser: '/FelhasznaloRegisztracio',
  registerRunner: '/FutarRegisztracio',
  trackingSearch: '/CsomagKovetes',
  tracking: (parcelId: string) => `/CsomagKovetes/${encodeURIComponent(parcelId)}`,
  trackingPattern: '/CsomagKovetes/:packageId',
  handover: '/Csomagatvetel',
  userDashboard: '/FelhasznaloDashboard',
  sentParcels: '/FeladottCsomagok',
  incomingParcels: '/NekemCimzettCsomagok',
  sendParcel: '/CsomagFeladas',
  userProfile: (userName: string) => `/FelhasznaloProfil/${encodeURIComponent(userName)}`,
  userProfilePattern: '/FelhasznaloProfil/:username',
  runnerDashboard: '/FutarDashboard',
  waitingParcels: '/FutarraVaroCsomagok',
  inProgressParcels: '/FolyamatbanLevoCsomagok',
  runnerQr: '/FutarQr',
  runnerMap: '/FutarTerkep',
  runnerTrip: '/FutarUtvonal',
  /** The next runner's page for a relay link (issue 14): `?csomag=<id>&token=…`. */
  runnerTakeOver: '/FutarAtvetel',
  runnerProfile: (userName: string) => `/FutarProfil/${encodeURIComponent(userName)}`,
  runnerProfilePattern: '/FutarProfil/:username',
  adminRegisterRunner: '/SaFutarReg',
  adminRunners: '/SaFutarListazas',
  adminEditRunner: (userName: string) => `/SaFutarSzerkesztes/${encodeURIComponent(userName)}`,
  adminEditRunnerPattern: '/SaFutarSzerkesztes/:username',
  adminDeleteRunner: (userName: string) => `/SaFutarTorles/${encodeURIComponent(userName)}`,
  adminDeleteRunnerPattern: '/SaFutarTorles/:runnerId',
  adminParcels: '/SaCsomagListazas',
  adminCreateParcel: '/SaCsomagLetrehozas',
  adminEditParcel: (parcelId: string) => `/SaCsomagSzerkesztes/${encodeURIComponent(parcelId)}`,
  adminEditParcelPattern: '/SaCsomagSzerkesztes/:packageId',
  adminDeleteParcel: (parcelId: string) => `/SaCsomagTorles/${encodeURIComponent(parcelId)}`,
  adminDeleteParcelPattern: '/SaCsomagTorles/:packageId',
  adminAssign: '/SaCsomagFutarhozRendeles',
  adminMap: '/SaTerkep',
  /** 'Nem érkezett meg' reports (issue 15): the open ones, and one with its evidence. */
  adminReports: '/SaBejelentesek',
  adminReport: (reportId: number | string) => `/SaBejelentes/${encodeURIComponent(String(reportId))}`,
  adminReportPattern: '/SaBejelentes/:reportId',
  /** Incidents the runners reported (issue 28): the queue, and one with its evidence. */
  adminIncidents: '/SaProblemak',
  adminIncident: (incidentId: number | string) => `/SaProblema/${encodeURIComponent(String(incidentId))}`,
  adminIncidentPattern: '/SaProblema/:incidentId',
  /** The back office's drop points (issue 28). */
  adminDropPoints: '/SaAtvetelipontok',
  /** A drop point's staff: what comes and waits there (issue 28). */
  dropPointStaff: '/AtvetelPont',
  /** The timetables in use (issue 26). */
  adminTimetables: '/SaMenetrendek',
  /** 'Elfelejtett jelszó' (issue 29): ask for a link; the link's page sets the new password (`#token=…`). */
  forgotPassword: '/ElfelejtettJelszo',
  resetPassword: '/UjJelszo',
  /** The link in the verification mail (issue 29): `#token=…`. */
  verifyEmail: '/EmailMegerosites',
  /** The one-click stop's page (issue 29): `#token=…`; the mail client's own one-click POST goes to the API. */
  unsubscribe: '/Leiratkozas',
  /** 'Kimenő levelek' (issue 29): what was sent, or written as .eml without SMTP. */
  adminMail: '/SaLevelek',
  /** The operator's pages (issue 29), linked from the footer. */
  privacy: '/Adatvedelem',
  contact: '/Kapcsolat',
  imprint: '/Impresszum',
} as const;

/** Where each role lands after sign-in, and where a wrong-role visit is sent (SPEC §2.3). */
export const roleHome: Record<Role, string> = {
  user: paths.userDashboard,
  runner: paths.runnerDashboard,
  superadmin: paths.adminParcels,
};
