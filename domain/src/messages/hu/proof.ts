/** Proof of delivery: photos and signatures (issue 15). */
export const proof = {
  // server refusals
  proofPhotoRequired: 'A feladó fotót kért a leadásról: előbb készíts fotót a csomagról.',
  proofTooLarge: (mib: number) => `A fotó túl nagy: legfeljebb ${mib} MB lehet.`,
  proofTooManyPixels: (megapixels: number) =>
    `A kép felbontása túl nagy (legfeljebb ${megapixels} megapixel): készíts kisebb képet.`,
  proofNotImage: 'Ez nem kép: JPEG, PNG vagy WebP fotót tölts fel.',
  proofEmpty: 'A fájl üres: készíts új fotót.',
  proofOneFile: 'Egyszerre egy fotót tölts fel.',
  proofNotMultipart: 'A fotót fájlként (multipart/form-data, „photo” mező) kell feltölteni.',
  proofUnreadable: 'A képet nem sikerült beolvasni: készíts új fotót.',
  proofNotAllowed:
    'Ehhez a csomaghoz most nem tölthetsz fel fotót: csak a szállító futár, a leadás előtt vagy közvetlenül utána.',
  signatureInvalid: 'Az aláírás nem olvasható: töröld és írd alá újra.',
  signatureTooLarge: (kb: number) => `Az aláírás túl nagy (legfeljebb ${kb} KB).`,
  signatureTooManyPoints: 'Az aláírás túl hosszú: töröld és írd alá újra, egyszerűbben.',

  // web: runner
  proofPhotoControl: 'Fotó a leadásról',
  proofPhotoRequiredNote: 'A feladó fotót kért a leadásról.',
  proofPhotoUploading: 'Fotó feltöltése…',
  proofPhotoSaved: 'A fotó elmentve.',
  proofPhotoRetake: 'Új fotó',
  proofPhotoPreviewAlt: 'A leadásról készült fotó előnézete',
  proofPhotoPrepareFailed: 'A fotót nem sikerült előkészíteni: próbáld újra.',

  // web: sender form
  photoRequiredLabel: 'Fotó szükséges a leadáskor',
  photoRequiredHint: 'A futár csak fotóval adhatja le a csomagot QR kód nélkül.',

  // web: proof on delivered parcels
  proofSectionTitle: 'Leadási igazolás',
  proofPhotoAlt: (parcelId: string) => `Fotó a(z) ${parcelId} csomag leadásáról`,
  proofSignatureAlt: (parcelId: string) => `A címzett aláírása a(z) ${parcelId} csomag átvételekor`,
  proofPhotoHeading: 'Fotó',
  proofSignatureHeading: 'Aláírás',
  proofRemoved: 'A kép a megőrzési idő lejártával törölve; az ujjlenyomata megmaradt.',
  proofLoadFailed: 'A képet nem sikerült betölteni.',
  proofHash: (hash: string) => `SHA-256: ${hash}`,
  proofVerified: 'ellenőrizve',

  // web: receiver's signature
  signatureLabel: 'Aláírás (nem kötelező)',
  signatureHint: 'Írd alá ujjal vagy egérrel a mezőben.',
  signatureClear: 'Törlés',
  signaturePadLabel: 'Aláírás mező',
} as const;
