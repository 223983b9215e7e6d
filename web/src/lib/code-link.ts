import { HANDOVER_PIN_LENGTH } from '@csomag/domain/handover-pin';
import { useLocation } from 'react-router';

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
