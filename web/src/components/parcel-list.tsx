import { formatTimestamp, formatWeight } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { Parcel } from '@csomag/domain/parcel';
import { paths } from '@csomag/domain/paths';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from '../lib/router.tsx';
import { LoadMore } from './load-more.tsx';
import { PrecisionNotes } from './place-precision.tsx';
import { QueryState } from './query-state.tsx';
import { RichText } from './rich-text.tsx';
import { StatusBadge } from './status-badge.tsx';

export function ParcelCard({
  parcel,
  showPeople = false,
  showPrecision = false,
  children,
}: {
  parcel: Parcel;
  /** The back office also sees who sent and who carries it. */
  showPeople?: boolean;
  /** A runner, who goes to the pins, is told which end is only approximately known. */
  showPrecision?: boolean;
  children?: ReactNode;
}) {
  return (
    <article className="card parcel-card" aria-label={messages.parcelCardLabel(parcel.id)}>
      <header>
        <Link className="mono" to={paths.tracking(parcel.id)}>
          {parcel.id}
        </Link>
        <StatusBadge state={parcel.state} />
      </header>
      <p>
        <strong>{parcel.category}</strong> · {formatWeight(parcel.weightGrams)}
      </p>
      <p className="route">
        <span>{parcel.senderAddress}</span> → <span>{parcel.receiverAddress}</span>
      </p>
      {showPrecision && <PrecisionNotes pickup={parcel.senderPrecision} destination={parcel.receiverPrecision} />}
      {showPeople && (
        <p>
          <RichText
            text={messages.parcelCardPeople}
            values={[
              <strong key="sender">{parcel.senderUser}</strong>,
              <strong key="runner">{parcel.runner ?? messages.waitingForRunner}</strong>,
            ]}
          />
        </p>
      )}
      <p className="muted">{messages.parcelCardSentAt(formatTimestamp(parcel.createdAt))}</p>
      {children}
    </article>
  );
}

type Page<P> = { items: P[]; nextCursor: string | null };
type ListQuery<P extends Parcel> = UseInfiniteQueryResult<InfiniteData<Page<P>>>;

const itemsOf = <P,>(data: InfiniteData<Page<P>>) => data.pages.flatMap((page) => page.items);

/** Any server-paginated parcel list: its loading, error and empty states as every read shows them, then its pages. */
export function ParcelListView<P extends Parcel>({
  query,
  empty,
  renderActions,
  paged = true,
  showPeople = false,
  showPrecision = false,
}: {
  query: ListQuery<P>;
  empty: string;
  renderActions?: (parcel: P) => ReactNode;
  /** false for previews that show only the first page. */
  paged?: boolean;
  showPeople?: boolean;
  showPrecision?: boolean;
}) {
  return (
    <QueryState query={query} empty={empty} isEmpty={(data) => itemsOf(data).length === 0}>
      {(data) => (
        <>
          <ul className="parcel-list">
            {itemsOf(data).map((parcel) => (
              <li key={parcel.id}>
                <ParcelCard parcel={parcel} showPeople={showPeople} showPrecision={showPrecision}>
                  {renderActions?.(parcel)}
                </ParcelCard>
              </li>
            ))}
          </ul>
          {paged && <LoadMore query={query} />}
        </>
      )}
    </QueryState>
  );
}
