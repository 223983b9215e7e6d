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
      { to: paths.home, label: 'Főoldal' },
      { to: paths.login, label: 'Bejelentkezés' },
      { to: paths.registerChoice, label: 'Regisztráció' },
      { to: paths.trackingSearch, label: 'Csomagkövetés' },
    ];
  }
  switch (account.role) {
    case 'runner':
      return [
        { to: paths.runnerDashboard, label: 'Áttekintés' },
        { to: paths.waitingParcels, label: 'Futárra váró csomagok' },
        { to: paths.inProgressParcels, label: 'Folyamatban lévő csomagok' },
        { to: paths.runnerMap, label: 'Térkép' },
        { to: paths.runnerProfile(account.userName), label: 'Profilom' },
      ];
    case 'user':
      return [
        { to: paths.userDashboard, label: 'Áttekintés' },
        { to: paths.sendParcel, label: 'Csomagfeladás' },
        { to: paths.sentParcels, label: 'Feladott csomagok' },
        { to: paths.incomingParcels, label: 'Nekem címzett csomagok' },
        { to: paths.userProfile(account.userName), label: 'Profilom' },
        { to: paths.trackingSearch, label: 'Csomagkövetés' },
      ];
    case 'superadmin':
      return [
        { to: paths.adminRegisterRunner, label: 'Futár regisztráció' },
        { to: paths.adminRunners, label: 'Futárlistázás' },
        { to: paths.adminCreateParcel, label: 'Csomag létrehozás' },
        { to: paths.adminParcels, label: 'Csomaglistázás' },
        { to: paths.adminAssign, label: 'Futárhoz rendelés' },
        { to: paths.adminMap, label: 'Térkép' },
      ];
  }
}
