import { formatTimestamp, formatWeight } from '@csomag/domain/format';
import type { Parcel } from '@csomag/domain/parcel';
import { paths } from '@csomag/domain/paths';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../api/client.ts';
import { Loading } from './loading.tsx';
import { StatusBadge } from './status-badge.tsx';

export function ParcelCard({
  parcel,
  showPeople = false,
  children,
}: {
  parcel: Parcel;
  /** The back office also sees who sent and who carries it. */
  showPeople?: boolean;
  children?: ReactNode;
}) {
  return (
    <article className="card parcel-card" aria-label={`Csomag ${parcel.id}`}>
      <header>
        <Link className="mono" to={paths.tracking(parcel.id)}>
          {parcel.id}
        </Link>
        <StatusBadge status={parcel.status} />
      </header>
      <p>
        <strong>{parcel.category}</strong> · {formatWeight(parcel.weightGrams)}
      </p>
      <p className="route">
        <span>{parcel.senderAddress}</span> → <span>{parcel.receiverAddress}</span>
      </p>
      {showPeople && (
        <p>
          Feladó: <strong>{parcel.senderUser}</strong> · Futár: <strong>{parcel.runner ?? 'Futárra vár'}</strong>
        </p>
      )}
      <p className="muted">Feladva: {formatTimestamp(parcel.createdAt)}</p>
      {children}
    </article>
  );
}

type ListQuery<P extends Parcel> = UseInfiniteQueryResult<InfiniteData<{ items: P[]; nextCursor: string | null }>>;

/** Loading, error, empty and paged states of any server-paginated parcel list. */
export function ParcelListView<P extends Parcel>({
  query,
  empty,
  renderActions,
  paged = true,
  showPeople = false,
}: {
  query: ListQuery<P>;
  empty: string;
  renderActions?: (parcel: P) => ReactNode;
  /** false for previews that show only the first page. */
  paged?: boolean;
  showPeople?: boolean;
}) {
  if (query.isPending) return <Loading />;
  if (query.isError) {
    return (
      <p role="alert" className="form-error">
        {errorMessage(query.error)}
      </p>
    );
  }
  const parcels = query.data.pages.flatMap((page) => page.items);
  if (parcels.length === 0) return <p className="empty">{empty}</p>;
  return (
    <>
      <ul className="parcel-list">
        {parcels.map((parcel) => (
          <li key={parcel.id}>
            <ParcelCard parcel={parcel} showPeople={showPeople}>
              {renderActions?.(parcel)}
            </ParcelCard>
          </li>
        ))}
      </ul>
      {paged && query.hasNextPage && (
        <button
          type="button"
          className="button"
          disabled={query.isFetchingNextPage}
          onClick={() => query.fetchNextPage()}
        >
          Továbbiak betöltése
        </button>
      )}
    </>
  );
}
