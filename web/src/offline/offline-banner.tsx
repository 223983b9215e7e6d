import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { ReactElement } from 'react';

/** Above every page while the server cannot be reached: since when the data shown is. */
export default function OfflineBanner({ lastAnswerAt }: { lastAnswerAt: number | undefined }): ReactElement | null {
  return (
    <p className="offline-banner" role="status">
      {lastAnswerAt === undefined
        ? messages.offlineNoData
        : messages.offlineSince(formatTimestamp(new Date(lastAnswerAt)))}
    </p>
  );
}
