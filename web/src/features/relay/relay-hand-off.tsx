import { QR_CODE } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import type { RelayLink } from '@csomag/domain/relay';
import { useEffect, useRef, useState } from 'react';
import { QueryState } from '../../components/query-state.tsx';
import { SignedLinkQr } from '../../components/signed-link-qr.tsx';
import { useRelayToken } from './api.ts';

/**
 * Twice the receiver's code: the relay link is longer (version 6 at level L), and at 128 px its
 * modules fall under 3 px, which a camera held to another phone's screen reads poorly.
 */
const RELAY_QR_SIZE = QR_CODE.size * 2;

function RelayCode({ parcelId, link, onRenew }: { parcelId: string; link: RelayLink; onRenew: () => void }) {
  // Opened low on a long card: the code comes into view, where the other runner's camera needs it.
  const code = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // A block: scrollIntoView may return a promise, which React would take for a clean-up.
    code.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  return (
    <div className="qr" ref={code}>
      <p>{messages.relayShowToRunner(parcelId)}</p>
      <SignedLinkQr link={link} label={messages.relayQrLabel} size={RELAY_QR_SIZE} onRenew={onRenew} />
      <p>{messages.relayPinText(link.pin)}</p>
    </div>
  );
}

/** Asked for only while shown: each request signs a new link. */
function RelayQr({ parcelId }: { parcelId: string }) {
  const token = useRelayToken(parcelId);
  return (
    <QueryState query={token}>
      {(link) => <RelayCode parcelId={parcelId} link={link} onRenew={() => token.refetch()} />}
    </QueryState>
  );
}

/**
 * 'Átadás másik futárnak' on an in-progress card: a QR code of a signed, expiring link the next
 * runner scans and confirms on /FutarAtvetel, and the leg's code they may type there instead. The
 * card leaves the list live once they have.
 */
export function RelayHandOff({ parcelId }: { parcelId: string }) {
  const [showing, setShowing] = useState(false);
  return (
    <div className="card-actions column">
      <button type="button" className="button" aria-expanded={showing} onClick={() => setShowing(!showing)}>
        {showing ? messages.relayHandOffClose : messages.relayHandOff}
      </button>
      {showing && <RelayQr parcelId={parcelId} />}
    </div>
  );
}
