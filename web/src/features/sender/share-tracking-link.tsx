import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { useServerConfig } from '../../api/config.ts';
import { notify } from '../../lib/notify.ts';

/** Closing the share sheet without choosing anyone is no failure. */
const closedShareSheet = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * The parcel's tracking link for the receiver (issue 27): the phone's share sheet where the browser
 * has one, else copied to the clipboard — and said so only once the copy has succeeded.
 */
export function ShareTrackingLink({ parcelId }: { parcelId: string }) {
  const { data: config } = useServerConfig();
  const canShare = typeof navigator !== 'undefined' && 'share' in navigator;
  const canCopy = typeof navigator !== 'undefined' && 'clipboard' in navigator;
  if (!canShare && !canCopy) return null;
  const url = new URL(paths.tracking(parcelId), config?.publicUrl ?? window.location.origin).href;

  const copy = () =>
    navigator.clipboard.writeText(url).then(
      () => notify.success(messages.trackingLinkCopied),
      () => notify.error(new Error(messages.copyFailed)),
    );
  // A share sheet that cannot open (not closed by the person) leaves the clipboard.
  const share = () =>
    navigator
      .share({ title: messages.trackingShareTitle(parcelId), text: messages.trackingShareText, url })
      .catch((error: unknown) => {
        if (closedShareSheet(error)) return;
        if (canCopy) return copy();
        notify.error(new Error(messages.shareFailed));
      });

  return (
    <div className="card-actions">
      <button type="button" className="button" onClick={() => void (canShare ? share() : copy())}>
        {canShare ? messages.shareTrackingLink : messages.copyTrackingLink}
      </button>
    </div>
  );
}
