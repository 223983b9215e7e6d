import type { proof as hu } from '../hu/proof.ts';
import type { Translation } from '../translation.ts';

/** Proof of delivery: photos and signatures (issue 15). */
export const proof = {
  // server refusals
  proofPhotoRequired: 'The sender asked for a photo of the delivery: take a photo of the parcel first.',
  proofTooLarge: (mib: number) => `The photo is too large: it can be at most ${mib} MB.`,
  proofTooManyPixels: (megapixels: number) =>
    `The image resolution is too high (at most ${megapixels} megapixels): take a smaller picture.`,
  proofNotImage: 'This is not an image: upload a JPEG, PNG or WebP photo.',
  proofEmpty: 'The file is empty: take a new photo.',
  proofOneFile: 'Upload one photo at a time.',
  proofNotMultipart: 'The photo must be uploaded as a file (multipart/form-data, “photo” field).',
  proofUnreadable: "The image couldn't be read: take a new photo.",
  proofNotAllowed:
    "You can't upload a photo for this parcel now: only the runner carrying it can, before delivery or right after it.",
  signatureInvalid: "The signature can't be read: clear it and sign again.",
  signatureTooLarge: (kb: number) => `The signature is too large (at most ${kb} KB).`,
  signatureTooManyPoints: 'The signature is too long: clear it and sign again, more simply.',

  // web: runner
  proofPhotoControl: 'Photo of the delivery',
  proofPhotoRequiredNote: 'The sender asked for a photo of the delivery.',
  proofPhotoUploading: 'Uploading photo…',
  proofPhotoSaved: 'Photo saved.',
  proofPhotoRetake: 'New photo',
  proofPhotoPreviewAlt: 'Preview of the delivery photo',
  proofPhotoPrepareFailed: "The photo couldn't be prepared: try again.",

  // web: sender form
  photoRequiredLabel: 'Photo required on delivery',
  photoRequiredHint: 'Without a QR code, the runner can only deliver the parcel with a photo.',

  // web: proof on delivered parcels
  proofSectionTitle: 'Proof of delivery',
  proofPhotoAlt: (parcelId: string) => `Photo of the delivery of parcel ${parcelId}`,
  proofSignatureAlt: (parcelId: string) => `The receiver's signature on collecting parcel ${parcelId}`,
  proofPhotoHeading: 'Photo',
  proofSignatureHeading: 'Signature',
  proofRemoved: 'The image was deleted at the end of its retention period; its fingerprint is kept.',
  proofLoadFailed: "The image couldn't be loaded.",
  proofHash: (hash: string) => `SHA-256: ${hash}`,
  proofVerified: 'verified',

  // web: receiver's signature
  signatureLabel: 'Signature (optional)',
  signatureHint: 'Sign inside the box with your finger or the mouse.',
  signatureClear: 'Clear',
  signaturePadLabel: 'Signature box',
} as const satisfies Translation<typeof hu>;
