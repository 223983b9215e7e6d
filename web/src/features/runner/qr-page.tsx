import { QR_CODE } from '@csomag/domain/constants';
import { formatTimestamp } from '@csomag/domain/format';
import { parcelTopic } from '@csomag/domain/live';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { useLiveChanges } from '../../api/live.ts';
import { FormError } from '../../components/form-field.tsx';
import { Loading } from '../../components/loading.tsx';
import { notify } from '../../lib/notify.ts';
import { parcelQuery, requestHandoverToken } from './api.ts';
import { rememberedQrParcel } from './qr-parcel.ts';

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
  const queryClient = useQueryClient();
  const parcel = useQuery(parcelQuery(parcelId));
  const delivered = parcel.data?.status === 'delivered';
  const token = useQuery({
    queryKey: ['handover-token', parcelId],
    queryFn: () => requestHandoverToken(parcelId),
    enabled: parcel.data?.status === 'in_transit',
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  // The receiver confirms on their own phone; this page learns it live.
  useLiveChanges([parcelTopic(parcelId)], () => queryClient.invalidateQueries({ queryKey: ['parcel', parcelId] }));

  if (parcel.isPending) return <Loading />;
  if (parcel.isError) return <FormError message={errorMessage(parcel.error)} />;
  if (delivered) {
    return (
      <p className="success" role="status">
        {messages.parcelDelivered} A(z) <span className="mono">{parcelId}</span> csomagot átvették.
      </p>
    );
  }
  if (token.isPending) return <Loading />;
  if (token.isError) return <FormError message={errorMessage(token.error)} />;
  const expired = new Date(token.data.expiresAt).getTime() <= Date.now();
  return (
    <div className="qr card">
      <p>
        Mutasd meg a címzettnek: a telefonjával beolvasva ő hagyja jóvá az átvételt. Csomag:{' '}
        <span className="mono">{parcelId}</span>
      </p>
      <QRCodeSVG
        value={token.data.url}
        size={QR_CODE.size}
        level={QR_CODE.level}
        marginSize={QR_CODE.marginModules}
        title="Átvételi QR kód"
        role="img"
        aria-label="Átvételi QR kód"
      />
      <p className="muted">Érvényes eddig: {formatTimestamp(token.data.expiresAt)}</p>
      {expired && <p className="form-error">A QR kód lejárt.</p>}
      <div className="card-actions">
        <LinkButtons url={token.data.url} />
        <button type="button" className="button" onClick={() => token.refetch()}>
          Új QR kód
        </button>
      </div>
    </div>
  );
}

/** SPEC §2.7: the runner shows a signed, expiring link as a QR code (qrcode.react, 128 px, level L). */
export function RunnerQrPage() {
  const parcelId = rememberedQrParcel();
  return (
    <section className="page narrow">
      <h1>QR kódos csomagleadás</h1>
      {parcelId ? (
        <HandoverQr parcelId={parcelId} />
      ) : (
        <p>Válaszd ki a leadandó csomagot a folyamatban lévő csomagjaid közül.</p>
      )}
      <Link to={paths.inProgressParcels}>Vissza a folyamatban lévő csomagokhoz</Link>
    </section>
  );
}
