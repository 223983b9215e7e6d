/** Push notifications: opt-in, devices, kinds, and the notifications themselves (issue 12). */
export const notifications = {
  // the profile page's section
  pushTitle: 'Értesítések',
  pushIntro: 'Értesítést kapsz a telefonodra vagy a gépedre, amikor a csomagjaid állapota változik.',
  pushEnable: 'Értesítések bekapcsolása ezen az eszközön',
  pushEnabling: 'Bekapcsolás…',
  pushEnabled: 'Ezen az eszközön bekapcsoltad az értesítéseket.',
  pushThisDeviceOn: 'Ez az eszköz értesítéseket kap.',
  pushUnsupported: 'Ez a böngésző nem tud értesítéseket fogadni.',
  pushPermissionDenied: 'Az értesítéseket a böngésző beállításaiban letiltottad; ott engedélyezheted újra.',
  pushSubscribeFailed: 'Az értesítések bekapcsolása nem sikerült ezen az eszközön.',
  pushDevicesTitle: 'Eszközeid',
  pushNoDevices: 'Még egy eszközön sem kapcsoltad be az értesítéseket.',
  pushUnknownDevice: 'Ismeretlen eszköz',
  pushThisDevice: '(ez az eszköz)',
  pushDeviceAdded: (at: string) => `Hozzáadva: ${at}`,
  pushRemoveDevice: 'Eltávolítás',
  pushRemoveDeviceNamed: (label: string) => `${label} eltávolítása`,
  pushDeviceRemoved: 'Az eszköz nem kap több értesítést.',
  pushKindsTitle: 'Miről kérsz értesítést?',
  pushPreferencesSaved: 'Az értesítési beállításaidat elmentettük.',

  // the kinds, as the switches name them (not 'csomag', 'cím' or 'futár': the forms' own labels)
  pushKindSentPickedUp: 'Elküldött küldeményem úton van',
  pushKindSentDelivered: 'Elküldött küldeményemet leadták',
  pushKindIncomingOnItsWay: 'Nekem szóló küldemény úton van',
  pushKindIncomingDelivered: 'Nekem szóló küldeményt leadták',
  pushKindAssigned: 'Küldeményt rendeltek hozzám',

  // the notifications (title per kind, body = the status text)
  pushNotificationTitle: 'Csomagküldő',
  pushTitleSentPickedUp: 'Futár úton a csomagoddal',
  pushTitleSentDelivered: 'Csomagod célba ért',
  pushTitleIncomingOnItsWay: 'Csomagod érkezik',
  pushTitleIncomingDelivered: 'Csomagod megérkezett',
  pushTitleAssigned: 'Új csomag a listádon',
  pushStatusSentPickedUp: (parcelId: string) => `A futár felvette a(z) ${parcelId} csomagot.`,
  pushStatusSentDelivered: (parcelId: string) => `A(z) ${parcelId} csomagot leadták.`,
  pushStatusIncomingOnItsWay: (parcelId: string) => `A neked címzett ${parcelId} csomag úton van.`,
  pushStatusIncomingDelivered: (parcelId: string) => `A neked címzett ${parcelId} csomagot leadták.`,
  pushStatusAssigned: (parcelId: string) => `A(z) ${parcelId} csomagot hozzád rendelték.`,

  // refusals
  pushEndpointInvalid: 'Az értesítési cím egy https:// kezdetű cím legyen.',
  pushKeyInvalid: 'Hibás értesítési kulcs.',
  pushDeviceNotFound: 'Nincs ilyen eszköz.',
} as const;
