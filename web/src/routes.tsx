import { paths } from '@csomag/domain/paths';
import type { Role } from '@csomag/domain/roles';
import { type ComponentType, lazy } from 'react';
import { Guard } from './app/guard.tsx';
import { Layout } from './app/layout.tsx';
import { NotFoundPage } from './app/status-pages.tsx';
import { LandingPage } from './features/landing/landing-page.tsx';
import { Route, Routes } from './lib/router.tsx';

const page = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  lazy(async () => ({ default: (await load())[name] }));

const LoginPage = page(() => import('./features/auth/login-page.tsx'), 'LoginPage');
const ForgotPasswordPage = page(() => import('./features/auth/forgot-password-page.tsx'), 'ForgotPasswordPage');
const ResetPasswordPage = page(() => import('./features/auth/reset-password-page.tsx'), 'ResetPasswordPage');
const VerifyEmailPage = page(() => import('./features/auth/verify-email-page.tsx'), 'VerifyEmailPage');
const UnsubscribePage = page(() => import('./features/mail/unsubscribe-page.tsx'), 'UnsubscribePage');
const MailPage = page(() => import('./features/admin/mail-page.tsx'), 'MailPage');
const PrivacyPage = page(() => import('./features/operator-pages/operator-page.tsx'), 'PrivacyPage');
const ContactPage = page(() => import('./features/operator-pages/operator-page.tsx'), 'ContactPage');
const ImprintPage = page(() => import('./features/operator-pages/operator-page.tsx'), 'ImprintPage');
const RegisterChoicePage = page(() => import('./features/auth/register-choice-page.tsx'), 'RegisterChoicePage');
const RegisterUserPage = page(() => import('./features/auth/register-page.tsx'), 'RegisterUserPage');
const RegisterRunnerPage = page(() => import('./features/auth/register-page.tsx'), 'RegisterRunnerPage');

const TrackingSearchPage = page(() => import('./features/tracking/tracking-search-page.tsx'), 'TrackingSearchPage');
const TrackingPage = page(() => import('./features/tracking/tracking-page.tsx'), 'TrackingPage');
const UserDashboardPage = page(() => import('./features/sender/dashboard-page.tsx'), 'UserDashboardPage');
const SentParcelsPage = page(() => import('./features/sender/sent-parcels-page.tsx'), 'SentParcelsPage');
const IncomingParcelsPage = page(() => import('./features/sender/incoming-parcels-page.tsx'), 'IncomingParcelsPage');
const DropPointStaffPage = page(() => import('./features/drop-point/staff-page.tsx'), 'DropPointStaffPage');
const SendParcelPage = page(() => import('./features/sender/send-parcel-page.tsx'), 'SendParcelPage');
const UserProfilePage = page(() => import('./features/profile/profile-page.tsx'), 'UserProfilePage');
const RunnerProfilePage = page(() => import('./features/profile/profile-page.tsx'), 'RunnerProfilePage');

const HandoverPage = page(() => import('./features/handover/handover-page.tsx'), 'HandoverPage');
const RunnerQrPage = page(() => import('./features/handover/qr-page.tsx'), 'RunnerQrPage');
// The runner's lists and map, with the relay's parts in them.
const RunnerDashboardPage = page(() => import('./app/runner-screens.tsx'), 'RunnerDashboardPage');
const WaitingParcelsPage = page(() => import('./app/runner-screens.tsx'), 'WaitingParcelsPage');
const InProgressPage = page(() => import('./app/runner-screens.tsx'), 'InProgressPage');
const RunnerMapPage = page(() => import('./app/runner-screens.tsx'), 'RunnerMapPage');
const TripPage = page(() => import('./features/trips/trip-page.tsx'), 'TripPage');
const TakeOverPage = page(() => import('./features/relay/take-over-page.tsx'), 'TakeOverPage');

const RunnerRegisterPage = page(() => import('./features/admin/runner-register-page.tsx'), 'RunnerRegisterPage');
const RunnersPage = page(() => import('./features/admin/runners-page.tsx'), 'RunnersPage');
const RunnerEditPage = page(() => import('./features/admin/runner-edit-page.tsx'), 'RunnerEditPage');
const RunnerDeletePage = page(() => import('./features/admin/runner-delete-page.tsx'), 'RunnerDeletePage');
const AdminParcelsPage = page(() => import('./features/admin/parcels-page.tsx'), 'AdminParcelsPage');
const AdminParcelCreatePage = page(() => import('./features/admin/parcel-create-page.tsx'), 'AdminParcelCreatePage');
const AdminParcelEditPage = page(() => import('./features/admin/parcel-edit-page.tsx'), 'AdminParcelEditPage');
const AdminParcelDeletePage = page(() => import('./features/admin/parcel-delete-page.tsx'), 'AdminParcelDeletePage');
const AssignPage = page(() => import('./features/admin/assign-page.tsx'), 'AssignPage');
const AdminMapPage = page(() => import('./features/admin/admin-map-page.tsx'), 'AdminMapPage');
const ReportsPage = page(() => import('./features/admin/reports-page.tsx'), 'ReportsPage');
const TimetablesPage = page(() => import('./features/admin/timetables-page.tsx'), 'TimetablesPage');
const ReportPage = page(() => import('./features/admin/reports-detail-page.tsx'), 'ReportPage');
const DropPointsPage = page(() => import('./features/admin/drop-points-page.tsx'), 'DropPointsPage');
const IncidentsPage = page(() => import('./features/admin/incidents-page.tsx'), 'IncidentsPage');
const IncidentPage = page(() => import('./features/admin/incident-detail-page.tsx'), 'IncidentPage');

type Access = 'public' | readonly Role[];
interface Row {
  path: string;
  access: Access;
  Page: ComponentType;
  /**
   * Public and, until its data arrives, the same for everyone: its HTML is rendered at build time
   * (web/scripts/prerender.ts) and served for every path the pattern matches.
   */
  prerender?: true;
  /**
   * A prerendered page's own module (when it is not in the entry): the build names its chunks in
   * the page's HTML, so the browser fetches them beside the entry instead of after it.
   */
  module?: string;
}

const USER = ['user'] as const;
const RUNNER = ['runner'] as const;
const ADMIN = ['superadmin'] as const;
const SIGNED_IN = ['user', 'runner', 'superadmin'] as const;

/** SPEC §2.1's route table and its guard table in one: path → screen → who may see it. */
export const routeTable: Row[] = [
  { path: paths.home, access: 'public', Page: LandingPage, prerender: true },
  { path: paths.login, access: 'public', Page: LoginPage, prerender: true, module: 'src/features/auth/login-page.tsx' },
  { path: paths.forgotPassword, access: 'public', Page: ForgotPasswordPage },
  { path: paths.resetPassword, access: 'public', Page: ResetPasswordPage },
  { path: paths.verifyEmail, access: 'public', Page: VerifyEmailPage },
  { path: paths.unsubscribe, access: 'public', Page: UnsubscribePage },
  { path: paths.privacy, access: 'public', Page: PrivacyPage },
  { path: paths.contact, access: 'public', Page: ContactPage },
  { path: paths.imprint, access: 'public', Page: ImprintPage },
  {
    path: paths.registerChoice,
    access: 'public',
    Page: RegisterChoicePage,
    prerender: true,
    module: 'src/features/auth/register-choice-page.tsx',
  },
  {
    path: paths.registerUser,
    access: 'public',
    Page: RegisterUserPage,
    prerender: true,
    module: 'src/features/auth/register-page.tsx',
  },
  {
    path: paths.registerRunner,
    access: 'public',
    Page: RegisterRunnerPage,
    prerender: true,
    module: 'src/features/auth/register-page.tsx',
  },
  {
    path: paths.trackingSearch,
    access: 'public',
    Page: TrackingSearchPage,
    prerender: true,
    module: 'src/features/tracking/tracking-search-page.tsx',
  },
  {
    path: paths.trackingPattern,
    access: 'public',
    Page: TrackingPage,
    prerender: true,
    module: 'src/features/tracking/tracking-page.tsx',
  },
  { path: paths.handover, access: 'public', Page: HandoverPage },
  { path: paths.userDashboard, access: USER, Page: UserDashboardPage },
  { path: paths.sentParcels, access: USER, Page: SentParcelsPage },
  { path: paths.incomingParcels, access: USER, Page: IncomingParcelsPage },
  { path: paths.sendParcel, access: USER, Page: SendParcelPage },
  { path: paths.userProfilePattern, access: USER, Page: UserProfilePage },
  { path: paths.dropPointStaff, access: USER, Page: DropPointStaffPage },
  { path: paths.runnerDashboard, access: RUNNER, Page: RunnerDashboardPage },
  { path: paths.waitingParcels, access: RUNNER, Page: WaitingParcelsPage },
  { path: paths.inProgressParcels, access: RUNNER, Page: InProgressPage },
  { path: paths.runnerQr, access: RUNNER, Page: RunnerQrPage },
  { path: paths.runnerMap, access: RUNNER, Page: RunnerMapPage },
  { path: paths.runnerTrip, access: RUNNER, Page: TripPage },
  // Every signed-in role: a user or the back office who opens a runner's link is told why not.
  { path: paths.runnerTakeOver, access: SIGNED_IN, Page: TakeOverPage },
  { path: paths.runnerProfilePattern, access: RUNNER, Page: RunnerProfilePage },
  { path: paths.adminRegisterRunner, access: ADMIN, Page: RunnerRegisterPage },
  { path: paths.adminRunners, access: ADMIN, Page: RunnersPage },
  { path: paths.adminEditRunnerPattern, access: ADMIN, Page: RunnerEditPage },
  { path: paths.adminDeleteRunnerPattern, access: ADMIN, Page: RunnerDeletePage },
  { path: paths.adminParcels, access: ADMIN, Page: AdminParcelsPage },
  { path: paths.adminCreateParcel, access: ADMIN, Page: AdminParcelCreatePage },
  { path: paths.adminEditParcelPattern, access: ADMIN, Page: AdminParcelEditPage },
  { path: paths.adminDeleteParcelPattern, access: ADMIN, Page: AdminParcelDeletePage },
  { path: paths.adminAssign, access: ADMIN, Page: AssignPage },
  { path: paths.adminMap, access: ADMIN, Page: AdminMapPage },
  { path: paths.adminReports, access: ADMIN, Page: ReportsPage },
  { path: paths.adminTimetables, access: ADMIN, Page: TimetablesPage },
  { path: paths.adminReportPattern, access: ADMIN, Page: ReportPage },
  { path: paths.adminIncidents, access: ADMIN, Page: IncidentsPage },
  { path: paths.adminMail, access: ADMIN, Page: MailPage },
  { path: paths.adminDropPoints, access: ADMIN, Page: DropPointsPage },
  { path: paths.adminIncidentPattern, access: ADMIN, Page: IncidentPage },
];

/** The whole app's routes: the layout around every page, then SPEC's 404 for anything else. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        {routeTable.map(({ path, access, Page }) => (
          <Route
            key={path}
            path={path}
            element={
              access === 'public' ? (
                <Page />
              ) : (
                <Guard roles={access}>
                  <Page />
                </Guard>
              )
            }
          />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
