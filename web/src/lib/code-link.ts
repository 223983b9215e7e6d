import { HANDOVER_PIN_LENGTH } from '@csomag/domain/constants';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from './router.tsx';

/*
 * A hand-over code as a QR code (issue 28, the alternative to reading it out): the code's person
 * shows a link to the page where the other side confirms it — the runner's list, the drop point's
 * staff page — and the other side's camera opens it with the code filled in. The code rides in the
 * fragment, which browsers never send: no server or proxy log ever holds it.
 */

const PARCEL = 'csomag';
const CODE = 'kod';

/** The link to `path` that fills in `pin` for the parcel's hand-over there. */
export function codeLink(path: string, parcelId: string, pin: string): string {
  const fragment = new URLSearchParams({ [PARCEL]: parcelId, [CODE]: pin });
  return new URL(`${path}#${fragment}`, window.location.origin).toString();
}

const isCode = (value: string | null): value is string =>
  value !== null && new RegExp(`^[0-9]{${HANDOVER_PIN_LENGTH}}$`).test(value);

/** The code the page was opened with for this parcel, if any. */
export function useCodeFromLink(parcelId: string): string | undefined {
  const { hash } = useLocation();
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const code = fragment.get(CODE);
  return fragment.get(PARCEL) === parcelId && isCode(code) ? code : undefined;
}

/*
 * The receiver's link from their mail (issue 29): `/CsomagKovetes/<id>#link=<key>`. The key proves
 * to the server that the receiver without an account is the one the sender addressed, so the
 * tracking page can show them their code. Kept for the tab's session and taken out of the address
 * bar, so a link copied from it to someone else does not carry it.
 */
const RECEIVER_LINK = 'link';
const receiverLinkStorage = (parcelId: string) => `receiver-link:${parcelId}`;

/** Where storage is refused (a private window's quota): the key lives as long as the page. */
const keptInPage = new Map<string, string>();

function storedReceiverLink(parcelId: string): string | null {
  try {
    return sessionStorage.getItem(receiverLinkStorage(parcelId)) ?? keptInPage.get(parcelId) ?? null;
  } catch {
    return keptInPage.get(parcelId) ?? null;
  }
}

/** Whether this page holds the receiver's link key for the parcel, without taking it out of the address (useReceiverLink does). */
export const holdsReceiverLink = (parcelId: string, hash: string) =>
  new URLSearchParams(hash.replace(/^#/, '')).has(RECEIVER_LINK) || storedReceiverLink(parcelId) !== null;

/** The receiver's link key for this parcel: from the address the page was opened at, else from earlier in the tab. */
export function useReceiverLink(parcelId: string): string | null {
  const { hash, pathname, search } = useLocation();
  const navigate = useNavigate();
  const fromLink = new URLSearchParams(hash.replace(/^#/, '')).get(RECEIVER_LINK);
  const [kept, setKept] = useState(() => storedReceiverLink(parcelId));
  useEffect(() => {
    if (!fromLink) return;
    keptInPage.set(parcelId, fromLink);
    try {
      sessionStorage.setItem(receiverLinkStorage(parcelId), fromLink);
    } catch {
      // Storage refused: kept in the page (keptInPage).
    }
    setKept(fromLink);
    navigate({ pathname, search, hash: '' }, { replace: true });
  }, [fromLink, parcelId, pathname, search, navigate]);
  return fromLink ?? kept;
}
