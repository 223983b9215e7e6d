import { accounts } from './messages/en/accounts.ts';
import { attemptScreens } from './messages/en/attempt-screens.ts';
import { attempts } from './messages/en/attempts.ts';
import { backOffice } from './messages/en/back-office.ts';
import { core } from './messages/en/core.ts';
import { dropPointReturns } from './messages/en/drop-point-returns.ts';
import { emailVerification } from './messages/en/email-verification.ts';
import { landing } from './messages/en/landing.ts';
import { mail } from './messages/en/mail.ts';
import { notifications } from './messages/en/notifications.ts';
import { offline } from './messages/en/offline.ts';
import { operations } from './messages/en/operations.ts';
import { operatorPages } from './messages/en/operator-pages.ts';
import { parcelLabels } from './messages/en/parcel-labels.ts';
import { parcelMail } from './messages/en/parcel-mail.ts';
import { personalData } from './messages/en/personal-data.ts';
import { places } from './messages/en/places.ts';
import { placesScreens } from './messages/en/places-screens.ts';
import { proof } from './messages/en/proof.ts';
import { ratings } from './messages/en/ratings.ts';
import { relay } from './messages/en/relay.ts';
import { relayAdmin } from './messages/en/relay-admin.ts';
import { relayOffers } from './messages/en/relay-offers.ts';
import { relayScreens } from './messages/en/relay-screens.ts';
import { replays } from './messages/en/replays.ts';
import { runner } from './messages/en/runner.ts';
import { sender } from './messages/en/sender.ts';
import { shell } from './messages/en/shell.ts';
import { timetables } from './messages/en/timetables.ts';
import { tracking } from './messages/en/tracking.ts';
import { tripScreens } from './messages/en/trip-screens.ts';
import { trips } from './messages/en/trips.ts';
import { trust } from './messages/en/trust.ts';
import type { Catalogue } from './messages.ts';

/** The English areas, in the Hungarian catalogue's order (messages.test.ts holds both to the same keys). */
export const enAreas = {
  core,
  shell,
  landing,
  accounts,
  sender,
  runner,
  tracking,
  backOffice,
  operations,
  replays,
  offline,
  notifications,
  trips,
  tripScreens,
  relay,
  relayScreens,
  relayOffers,
  relayAdmin,
  proof,
  ratings,
  trust,
  places,
  placesScreens,
  timetables,
  attempts,
  attemptScreens,
  dropPointReturns,
  mail,
  operatorPages,
  personalData,
  parcelMail,
  parcelLabels,
  emailVerification,
};

/**
 * The English catalogue (issue 30): every area typed `Translation<its Hungarian area>`, so a key
 * missing, extra or with other parameters in an area fails to compile. Its own module: the server's
 * translator and the web build's text modules read it; no page loads it whole.
 */
export const en = Object.assign({}, ...Object.values(enAreas)) as Catalogue;
