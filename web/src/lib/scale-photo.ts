import { PROOF_PHOTO_BROWSER_QUALITY, PROOF_PHOTO_LONG_SIDE } from '@csomag/domain/proof';

/**
 * A camera photo scaled down in the browser before it is sent (a phone's 12 MP JPEG becomes a few
 * hundred kilobytes): drawn on a canvas with the long side at most PROOF_PHOTO_LONG_SIDE, as JPEG.
 * The canvas keeps no EXIF either; the server re-encodes it anyway. createImageBitmap applies the
 * EXIF orientation, so the picture is upright.
 */
export async function scalePhoto(file: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  try {
    const scale = Math.min(1, PROOF_PHOTO_LONG_SIDE / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('canvas');
    context.drawImage(bitmap, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob(
        (blob) => (blob ? resolve(blob) : reject(new Error('toBlob'))),
        'image/jpeg',
        PROOF_PHOTO_BROWSER_QUALITY,
      ),
    );
  } finally {
    bitmap.close();
  }
}
