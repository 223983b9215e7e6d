import { messages } from '@csomag/domain/messages';
import type { ParcelState } from '@csomag/domain/parcel';
import { paths } from '@csomag/domain/paths';
import { type ReceiverLink, useCollect, useHandoverPin } from '../api/attempts.ts';
import { ApiError } from '../api/client.ts';
import { useSession } from '../api/session.ts';
import { useReceiverLink } from '../lib/code-link.ts';
import { CodeForm } from './code-form.tsx';
import { CodeQr } from './code-qr.tsx';

/** The states in which a code may be the signed-in person's to show. */
const CODE_STATES: readonly ParcelState[] = ['in_transit', 'attempted', 'returning', 'at_drop_point'];

type ParcelAt = { id: string; state: ParcelState };

/**
 * A signed-in user's part in a hand-over (issue 28): their own code — the receiver's, or on its way
 * back the sender's — to read out to the runner at the door or show a drop point's staff; or, with
 * the parcel at a neighbour's, the form to collect it with the neighbour's code. The server gives a
 * code to its person only; for anyone else, and while none is theirs, nothing is shown.
 */
export function HandoverCode({ parcel }: { parcel: ParcelAt }) {
  const { data: account } = useSession();
  // Opened from the receiver's mail (issue 29): their code by the link's key, with or without an account.
  const receiverLink = useReceiverLink(parcel.id);
  if (!receiverLink && account?.role !== 'user') return null;
  return parcel.state === 'with_neighbour' ? (
    <CollectFromNeighbour parcelId={parcel.id} receiverLink={receiverLink} />
  ) : (
    <OwnCode parcel={parcel} enabled={CODE_STATES.includes(parcel.state)} receiverLink={receiverLink} />
  );
}

function OwnCode({
  parcel,
  enabled,
  receiverLink,
}: {
  parcel: ParcelAt;
  enabled: boolean;
  receiverLink: ReceiverLink;
}) {
  const code = useHandoverPin(parcel, enabled, receiverLink);
  // A link that is not (or no longer) this parcel's receiver's is said; other refusals mean no code is due.
  if (receiverLink && code.error instanceof ApiError && code.error.code === 'receiver_link_invalid') {
    return <p className="notice">{code.error.message}</p>;
  }
  if (!enabled || !code.data) return null;
  return (
    <section className="handover-code" aria-label={messages.handoverPinTitle}>
      {parcel.state === 'at_drop_point' && <p className="notice">{messages.dropPointWaitingNotice}</p>}
      <p>
        {messages.handoverPinTitle}: <strong className="pin">{code.data.pin}</strong>
      </p>
      <p className="muted">{messages.handoverPinHint}</p>
      <CodeQr
        path={parcel.state === 'at_drop_point' ? paths.dropPointStaff : paths.inProgressParcels}
        parcelId={parcel.id}
        pin={code.data.pin}
        label={parcel.state === 'at_drop_point' ? messages.codeQrForStaff : messages.codeQrForRunner}
      />
      <p className="muted">{messages.codeQrHint}</p>
    </section>
  );
}

/** 'Átvétel a szomszédtól': the receiver types the code the neighbour was given on the notice. */
function CollectFromNeighbour({ parcelId, receiverLink }: { parcelId: string; receiverLink: ReceiverLink }) {
  const collect = useCollect();
  return (
    <CodeForm
      name={messages.collectTitle}
      label={messages.collectPinLabel}
      submitLabel={messages.collectSubmit}
      onSubmit={(pin) => collect.mutate({ parcelId, pin, receiverLink })}
      pending={collect.isPending}
      error={collect.error}
      primary
    >
      <h3>{messages.collectTitle}</h3>
      <p className="muted">{messages.collectHint}</p>
    </CodeForm>
  );
}
