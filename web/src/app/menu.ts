import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import type { Role } from '@csomag/domain/roles';

export interface MenuItem {
  to: string;
  label: string;
}

/** SPEC §2.2: the menu for each kind of visitor, in this order. */
export function menuFor(account: { role: Role; userName: string } | null): MenuItem[] {
  if (!account) {
    return [
      { to: paths.home, label: messages.menuHome },
      { to: paths.login, label: messages.menuLogin },
      { to: paths.registerChoice, label: messages.menuRegister },
      { to: paths.trackingSearch, label: messages.menuTracking },
    ];
  }
  switch (account.role) {
    case 'runner':
      return [
        { to: paths.runnerDashboard, label: messages.menuOverview },
        { to: paths.waitingParcels, label: messages.menuWaitingParcels },
        { to: paths.inProgressParcels, label: messages.menuInProgressParcels },
        { to: paths.runnerMap, label: messages.menuMap },
        { to: paths.runnerTrip, label: messages.menuTrip },
        { to: paths.runnerProfile(account.userName), label: messages.menuProfile },
      ];
    case 'user':
      return [
        { to: paths.userDashboard, label: messages.menuOverview },
        { to: paths.sendParcel, label: messages.menuSendParcel },
        { to: paths.sentParcels, label: messages.menuSentParcels },
        { to: paths.incomingParcels, label: messages.menuIncomingParcels },
        { to: paths.userProfile(account.userName), label: messages.menuProfile },
        { to: paths.trackingSearch, label: messages.menuTracking },
      ];
    case 'superadmin':
      return [
        { to: paths.adminRegisterRunner, label: messages.menuRegisterRunner },
        { to: paths.adminRunners, label: messages.menuRunners },
        { to: paths.adminCreateParcel, label: messages.menuCreateParcel },
        { to: paths.adminParcels, label: messages.menuParcels },
        { to: paths.adminAssign, label: messages.menuAssign },
        { to: paths.adminMap, label: messages.menuMap },
        { to: paths.adminReports, label: messages.reportsMenu },
        { to: paths.adminTimetables, label: messages.menuTimetables },
      ];
  }
}
