import { accounts } from './messages/hu/accounts.ts';
import { attemptScreens } from './messages/hu/attempt-screens.ts';
import { attempts } from './messages/hu/attempts.ts';
import { backOffice } from './messages/hu/back-office.ts';
import { core } from './messages/hu/core.ts';
import { dropPointReturns } from './messages/hu/drop-point-returns.ts';
import { emailVerification } from './messages/hu/email-verification.ts';
import { landing } from './messages/hu/landing.ts';
import { mail } from './messages/hu/mail.ts';
import { notifications } from './messages/hu/notifications.ts';
import { offline } from './messages/hu/offline.ts';
import { operations } from './messages/hu/operations.ts';
import { operatorPages } from './messages/hu/operator-pages.ts';
import { parcelLabels } from './messages/hu/parcel-labels.ts';
import { parcelMail } from './messages/hu/parcel-mail.ts';
import { personalData } from './messages/hu/personal-data.ts';
import { places } from './messages/hu/places.ts';
import { placesScreens } from './messages/hu/places-screens.ts';
import { proof } from './messages/hu/proof.ts';
import { ratings } from './messages/hu/ratings.ts';
import { relay } from './messages/hu/relay.ts';
import { relayAdmin } from './messages/hu/relay-admin.ts';
import { relayOffers } from './messages/hu/relay-offers.ts';
import { relayScreens } from './messages/hu/relay-screens.ts';
import { replays } from './messages/hu/replays.ts';
import { runner } from './messages/hu/runner.ts';
import { sender } from './messages/hu/sender.ts';
import { shell } from './messages/hu/shell.ts';
import { timetables } from './messages/hu/timetables.ts';
import { tracking } from './messages/hu/tracking.ts';
import { tripScreens } from './messages/hu/trip-screens.ts';
import { trips } from './messages/hu/trips.ts';
import { trust } from './messages/hu/trust.ts';
import type { Translation } from './messages/translation.ts';

/**
 * The Hungarian catalogue: every text a person reads, from the server and the web, with typed keys
 * and parameters. Each area keeps its own file under messages/hu/; a key lives in exactly one
 * (messages.test.ts). Nothing outside domain/ writes Hungarian (server/src/architecture.test.ts).
 */
export const hu = {
  ...core,
  ...shell,
  ...landing,
  ...accounts,
  ...sender,
  ...runner,
  ...tracking,
  ...backOffice,
  ...operations,
  ...replays,
  ...offline,
  ...notifications,
  ...trips,
  ...tripScreens,
  ...relay,
  ...relayScreens,
  ...relayOffers,
  ...relayAdmin,
  ...proof,
  ...ratings,
  ...trust,
  ...places,
  ...placesScreens,
  ...timetables,
  ...attempts,
  ...attemptScreens,
  ...dropPointReturns,
  ...mail,
  ...operatorPages,
  ...personalData,
  ...parcelMail,
  ...parcelLabels,
  ...emailVerification,
};

/** The area catalogues, for the test that no key is defined twice. */
export const huAreas = {
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
 * What every language's catalogue provides: the same keys, each a text or a function of the same
 * parameters. An English catalogue typed `Catalogue` fails to compile while a key is missing.
 */
export type Catalogue = Translation<typeof hu>;

/**
 * The texts, in Hungarian: the server's (it says them in a request's language where it answers,
 * ADR 0034). The web build reads them from web/src/i18n/texts.ts instead, text by text, in the
 * page's language.
 */
export const messages: Catalogue = hu;
