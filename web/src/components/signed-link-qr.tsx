import { QR_CODE } from '@csomag/domain/constants';
import type { HandoverLink } from '@csomag/domain/delivery';
import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import { QRCodeSVG } from 'qrcode.react';
import type { ReactNode } from 'react';

/**
 * A signed, expiring link as a QR code (the receiver's handover, the next runner's relay), with
 * its expiry and 'Új QR kód'; `actions` go beside the renew button.
 */
export function SignedLinkQr({
  link,
  label,
  size = QR_CODE.size,
  onRenew,
  actions,
}: {
  link: HandoverLink;
  label: string;
  size?: number;
  onRenew: () => void;
  actions?: ReactNode;
}) {
  const expired = new Date(link.expiresAt).getTime() <= Date.now();
  return (
    <>
      <QRCodeSVG
        value={link.url}
        size={size}
        level={QR_CODE.level}
        marginSize={QR_CODE.marginModules}
        title={label}
        role="img"
        aria-label={label}
      />
      <p className="muted">{messages.qrValidUntil(formatTimestamp(link.expiresAt))}</p>
      {expired && <p className="form-error">{messages.qrExpired}</p>}
      <div className="card-actions">
        {actions}
        <button type="button" className="button" onClick={onRenew}>
          {messages.qrRenew}
        </button>
      </div>
    </>
  );
}
