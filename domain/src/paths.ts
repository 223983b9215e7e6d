import type { Role } from './roles.ts';

/** SPEC §2.1's URL paths, spelt as the product has always had them. */
export const paths = {
  home: '/',
  login: '/Bejelentkezes',
  registerChoice: '/Regisztracio',
  registerUser: '/FelhasznaloRegisztracio',
  registerRunner: '/FutarRegisztracio',
  trackingSearch: '/CsomagKovetes',
  tracking: (parcelId: string) => `/CsomagKovetes/${encodeURIComponent(parcelId)}`,
  handover: '/Csomagatvetel',
  userDashboard: '/FelhasznaloDashboard',
  sentParcels: '/FeladottCsomagok',
  incomingParcels: '/NekemCimzettCsomagok',
  sendParcel: '/CsomagFeladas',
  userProfile: (userName: string) => `/FelhasznaloProfil/${encodeURIComponent(userName)}`,
  runnerDashboard: '/FutarDashboard',
  waitingParcels: '/FutarraVaroCsomagok',
  inProgressParcels: '/FolyamatbanLevoCsomagok',
  runnerQr: '/FutarQr',
  runnerMap: '/FutarTerkep',
  runnerProfile: (userName: string) => `/FutarProfil/${encodeURIComponent(userName)}`,
  adminRegisterRunner: '/SaFutarReg',
  adminRunners: '/SaFutarListazas',
  adminEditRunner: (userName: string) => `/SaFutarSzerkesztes/${encodeURIComponent(userName)}`,
  adminDeleteRunner: (userName: string) => `/SaFutarTorles/${encodeURIComponent(userName)}`,
  adminParcels: '/SaCsomagListazas',
  adminCreateParcel: '/SaCsomagLetrehozas',
  adminEditParcel: (parcelId: string) => `/SaCsomagSzerkesztes/${encodeURIComponent(parcelId)}`,
  adminDeleteParcel: (parcelId: string) => `/SaCsomagTorles/${encodeURIComponent(parcelId)}`,
  adminAssign: '/SaCsomagFutarhozRendeles',
  adminMap: '/SaTerkep',
} as const;

/** Where each role lands after sign-in, and where a wrong-role visit is sent (SPEC §2.3). */
export const roleHome: Record<Role, string> = {
  user: paths.userDashboard,
  runner: paths.runnerDashboard,
  superadmin: paths.adminParcels,
};
