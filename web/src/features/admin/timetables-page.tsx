import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { TimetableFeed } from '@csomag/domain/trip-api';
import { QueryState } from '../../components/query-state.tsx';
import { useTimetables } from './api.ts';

function FeedCard({ feed }: { feed: TimetableFeed }) {
  return (
    <article className="card parcel-card" aria-label={feed.file}>
      <header>
        <strong className="mono">{feed.file}</strong>
        {feed.expired && <span className="status status-waiting">{messages.timetableExpired}</span>}
      </header>
      <p>
        {messages.timetableAgencies}: <strong>{feed.agencies.join(', ')}</strong>
      </p>
      <p>
        {messages.timetableValidity}: {messages.timetableValid(feed.validFrom, feed.validUntil)}
      </p>
      <p className="muted">
        {messages.timetableContents}:{' '}
        {messages.timetableCounts(feed.counts.stops, feed.counts.routes, feed.counts.trips)}
      </p>
    </article>
  );
}

/** 'Menetrendek' (issue 26): which GTFS feeds answer public-transport minutes, and until when. */
export function TimetablesPage() {
  const query = useTimetables();
  return (
    <section className="page">
      <h1>{messages.timetablesTitle}</h1>
      <p>{messages.timetablesIntro}</p>
      <QueryState query={query} empty={messages.timetablesEmpty} isEmpty={(data) => data.feeds.length === 0}>
        {(data) => (
          <>
            {data.external && <p className="precision-note">{messages.timetablesExternal}</p>}
            {data.importedAt && (
              <p className="muted">{messages.timetablesImportedAt(formatTimestamp(data.importedAt))}</p>
            )}
            <ul className="parcel-list">
              {data.feeds.map((feed) => (
                <li key={feed.file}>
                  <FeedCard feed={feed} />
                </li>
              ))}
            </ul>
          </>
        )}
      </QueryState>
    </section>
  );
}
