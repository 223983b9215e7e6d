import { QR_CODE } from '@csomag/domain/constants';
import { QRCodeSVG } from 'qrcode.react';
import { codeLink } from '../lib/code-link.ts';

/**
 * A hand-over code as a QR code: the other side's camera opens `path` with the code filled in
 * (lib/code-link.ts), so nobody types it.
 */
export function CodeQr({ path, parcelId, pin, label }: { path: string; parcelId: string; pin: string; label: string }) {
  return (
    <QRCodeSVG
      value={codeLink(path, parcelId, pin)}
      size={QR_CODE.size}
      level={QR_CODE.level}
      marginSize={QR_CODE.marginModules}
      title={label}
      role="img"
      aria-label={label}
    />
  );
}
