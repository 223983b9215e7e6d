import type { Role } from '@csomag/domain/roles';
import { type ComponentType, lazy } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { Guard } from './app/guard.tsx';
import { Layout } from './app/layout.tsx';
import { ComingSoonPage, NotFoundPage } from './app/status-pages.tsx';
import { LandingPage } from './features/landing/landing-page.tsx';

const page = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  lazy(async () => ({ default: (await load())[name] }));

const LoginPage = page(() => import('./features/auth/login-page.tsx'), 'LoginPage');
const RegisterChoicePage = page(() => import('./features/auth/register-choice-page.tsx'), 'RegisterChoicePage');
const RegisterUserPage = page(() => import('./features/auth/register-page.tsx'), 'RegisterUserPage');
const RegisterRunnerPage = page(() => import('./features/auth/register-page.tsx'), 'RegisterRunnerPage');

const TrackingSearchPage = page(() => import('./features/tracking/tracking-search-page.tsx'), 'TrackingSearchPage');
const TrackingPage = page(() => import('./features/tracking/tracking-page.tsx'), 'TrackingPage');
const UserDashboardPage = page(() => import('./features/sender/dashboard-page.tsx'), 'UserDashboardPage');
const SentParcelsPage = page(() => import('./features/sender/sent-parcels-page.tsx'), 'SentParcelsPage');
const IncomingParcelsPage = page(() => import('./features/sender/incoming-parcels-page.tsx'), 'IncomingParcelsPage');
const SendParcelPage = page(() => import('./features/sender/send-parcel-page.tsx'), 'SendParcelPage');
const UserProfilePage = page(() => import('./features/profile/profile-page.tsx'), 'UserProfilePage');
const RunnerProfilePage = page(() => import('./features/profile/profile-page.tsx'), 'RunnerProfilePage');

const comingSoon = (title: string) => () => <ComingSoonPage title={title} />;

type Access = 'public' | readonly Role[];
interface Row {
  path: string;
  access: Access;
  Page: ComponentType;
}

const USER = ['user'] as const;
const RUNNER = ['runner'] as const;
const ADMIN = ['superadmin'] as const;

/** SPEC §2.1's route table and its guard table in one: path → screen → who may see it. */
export const routeTable: Row[] = [
  { path: '/', access: 'public', Page: LandingPage },
  { path: '/Bejelentkezes', access: 'public', Page: LoginPage },
  { path: '/Regisztracio', access: 'public', Page: RegisterChoicePage },
  { path: '/FelhasznaloRegisztracio', access: 'public', Page: RegisterUserPage },
  { path: '/FutarRegisztracio', access: 'public', Page: RegisterRunnerPage },
  { path: '/CsomagKovetes', access: 'public', Page: TrackingSearchPage },
  { path: '/CsomagKovetes/:packageId', access: 'public', Page: TrackingPage },
  { path: '/Csomagatvetel', access: 'public', Page: comingSoon('Csomagátvétel QR kóddal') },
  { path: '/FelhasznaloDashboard', access: USER, Page: UserDashboardPage },
  { path: '/FeladottCsomagok', access: USER, Page: SentParcelsPage },
  { path: '/NekemCimzettCsomagok', access: USER, Page: IncomingParcelsPage },
  { path: '/CsomagFeladas', access: USER, Page: SendParcelPage },
  { path: '/FelhasznaloProfil/:username', access: USER, Page: UserProfilePage },
  { path: '/FutarDashboard', access: RUNNER, Page: comingSoon('Futár áttekintés') },
  { path: '/FutarraVaroCsomagok', access: RUNNER, Page: comingSoon('Futárra váró csomagok') },
  { path: '/FolyamatbanLevoCsomagok', access: RUNNER, Page: comingSoon('Folyamatban lévő csomagok') },
  { path: '/FutarQr', access: RUNNER, Page: comingSoon('QR kódos csomagleadás') },
  { path: '/FutarTerkep', access: RUNNER, Page: comingSoon('Futártérkép') },
  { path: '/FutarProfil/:username', access: RUNNER, Page: RunnerProfilePage },
  { path: '/SaFutarReg', access: ADMIN, Page: comingSoon('Szuper Admin Futár Regisztráció') },
  { path: '/SaFutarListazas', access: ADMIN, Page: comingSoon('Futárlistázás') },
  { path: '/SaFutarSzerkesztes/:username', access: ADMIN, Page: comingSoon('Futár Szerkesztése') },
  { path: '/SaFutarTorles/:runnerId', access: ADMIN, Page: comingSoon('Futár törlése') },
  { path: '/SaCsomagListazas', access: ADMIN, Page: comingSoon('Csomaglistázás') },
  { path: '/SaCsomagLetrehozas', access: ADMIN, Page: comingSoon('Szuper Admin Csomag Létrehozás') },
  { path: '/SaCsomagSzerkesztes/:packageId', access: ADMIN, Page: comingSoon('Csomag Szerkesztése') },
  { path: '/SaCsomagTorles/:packageId', access: ADMIN, Page: comingSoon('Csomag törlése') },
  { path: '/SaCsomagFutarhozRendeles', access: ADMIN, Page: comingSoon('Csomagok futárhoz rendelése') },
  { path: '/SaTerkep', access: ADMIN, Page: comingSoon('Térkép') },
];

const children: RouteObject[] = routeTable.map(({ path, access, Page }) => ({
  path,
  element:
    access === 'public' ? (
      <Page />
    ) : (
      <Guard roles={access}>
        <Page />
      </Guard>
    ),
}));

export const router = createBrowserRouter([
  { element: <Layout />, children: [...children, { path: '*', element: <NotFoundPage /> }] },
]);
