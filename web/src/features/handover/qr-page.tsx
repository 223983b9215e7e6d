import type { HandoverLink } from '@csomag/domain/delivery';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { ParcelId } from '../../components/parcel-id.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { RichText } from '../../components/rich-text.tsx';
import { SignedLinkQr } from '../../components/signed-link-qr.tsx';
import { notify } from '../../lib/notify.ts';
import { rememberedQrParcel } from '../../lib/qr-parcel.ts';
import { Link } from '../../lib/router.tsx';
import { useHandoverParcel, useHandoverToken } from './api.ts';
import { handedOver } from './handed-over.ts';

/** Closing the share sheet without choosing anyone is no failure. */
const closedShareSheet = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * The link itself, for a receiver who is not there to scan: copied into a message, or sent with the
 * phone's share sheet. Each button shows only where the browser has that feature (the clipboard
 * only on HTTPS or localhost).
 */
function LinkButtons({ url }: { url: string }) {
  const copy = () =>
    navigator.clipboard.writeText(url).then(
      () => notify.success(messages.handoverLinkCopied),
      () => notify.error(new Error(messages.copyFailed)),
    );
  const share = () =>
    navigator.share({ title: messages.handoverShareTitle, text: messages.handoverShareText, url }).catch((error) => {
      if (!closedShareSheet(error)) notify.error(new Error(messages.shareFailed));
    });
  return (
    <>
      {'clipboard' in navigator && (
        <button type="button" className="button" onClick={copy}>
          {messages.copyHandoverLink}
        </button>
      )}
      {'share' in navigator && (
        <button type="button" className="button" onClick={share}>
          {messages.shareHandoverLink}
        </button>
      )}
    </>
  );
}

function HandoverQr({ parcelId }: { parcelId: string }) {
  const parcel = useHandoverParcel(parcelId);
  const token = useHandoverToken(parcelId, parcel.data?.status === 'in_transit');
  return (
    <QueryState query={parcel}>
      {({ status, state }) =>
        handedOver(status) ? (
          <p className="success" role="status">
            {status === 'returned' ? messages.parcelReturnedToSender : messages.parcelDelivered}{' '}
            <RichText text={messages.qrParcelHandedOver} values={[<ParcelId key="id" id={parcelId} />]} />
          </p>
        ) : (
          <QueryState query={token}>
            {(link) => (
              <HandoverCode
                parcelId={parcelId}
                link={link}
                returning={state === 'returning'}
                onRenew={() => token.refetch()}
              />
            )}
          </QueryState>
        )
      }
    </QueryState>
  );
}

/** On its way back (issue 28) the code is for its sender, who confirms they have it back. */
function HandoverCode({
  parcelId,
  link,
  returning,
  onRenew,
}: {
  parcelId: string;
  link: HandoverLink;
  returning: boolean;
  onRenew: () => void;
}) {
  return (
    <div className="qr card">
      <p>
        <RichText
          text={returning ? messages.qrShowToSender : messages.qrShowToReceiver}
          values={[<ParcelId key="id" id={parcelId} />]}
        />
      </p>
      <SignedLinkQr
        link={link}
        label={messages.qrCodeLabel}
        onRenew={onRenew}
        actions={<LinkButtons url={link.url} />}
      />
    </div>
  );
}

/** SPEC §2.7: the runner shows a signed, expiring link as a QR code (qrcode.react, 128 px, level L). */
export function RunnerQrPage() {
  const parcelId = rememberedQrParcel();
  return (
    <section className="page narrow">
      <h1>{messages.qrPageTitle}</h1>
      {parcelId ? <HandoverQr parcelId={parcelId} /> : <p>{messages.qrChooseParcel}</p>}
      <Link to={paths.inProgressParcels}>{messages.backToInProgress}</Link>
    </section>
  );
}
