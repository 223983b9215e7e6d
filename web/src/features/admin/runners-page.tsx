import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import type { RunnerListItem } from '@csomag/domain/runner';
import { useState } from 'react';
import { QueryState } from '../../components/query-state.tsx';
import { RatingSummaryText } from '../../components/ratings/rating-summary.tsx';
import { Link } from '../../lib/router.tsx';
import { useDebounced } from '../../lib/use-debounced.ts';
import { useRunners } from './api.ts';
import { RunnerStandingBadge, RunnerTrustBadges } from './reports-runner-badges.tsx';

function RunnerCard({ runner }: { runner: RunnerListItem }) {
  return (
    <article className="card parcel-card" aria-label={messages.adminRunnerCard(runner.userName)}>
      <header>
        <strong>{runner.userName}</strong>
        {runner.standing && <RunnerStandingBadge standing={runner.standing} />}
        <span className="muted">
          {runner.parcelsInTransit > 0 ? messages.carryingNow(runner.parcelsInTransit) : messages.carryingNothing}
        </span>
        <RunnerTrustBadges userName={runner.userName} />
      </header>
      <p>{runner.name}</p>
      <p>
        {messages.runnerRatingLabel}: <RatingSummaryText rating={runner.rating} />
      </p>
      <p>{runner.address}</p>
      <p>
        {runner.phoneNumber} · {runner.email}
      </p>
      <div className="card-actions">
        <Link className="button" to={paths.adminEditRunner(runner.userName)}>
          {messages.adminEdit}
        </Link>
        <Link className="button danger" to={paths.adminDeleteRunner(runner.userName)}>
          {messages.adminDelete}
        </Link>
      </div>
    </article>
  );
}

/** SPEC §2.8 'Futárlistázás' — without the original's plain-text passwords: nobody can read one. */
export function RunnersPage() {
  const [search, setSearch] = useState('');
  const query = useRunners(useDebounced(search.trim(), 300));
  return (
    <section className="page">
      <div className="page-head">
        <h1>{messages.adminRunnersTitle}</h1>
        <Link className="button primary" to={paths.adminRegisterRunner}>
          {messages.adminNewRunner}
        </Link>
      </div>
      <div className="field inline">
        <label htmlFor="runner-search">{messages.adminRunnerSearch}</label>
        <input id="runner-search" type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
      </div>
      <QueryState
        query={query}
        empty={messages.adminRunnersEmpty}
        isEmpty={(data) => data.pages.every((page) => page.items.length === 0)}
      >
        {(data) => (
          <ul className="parcel-list">
            {data.pages
              .flatMap((page) => page.items)
              .map((runner) => (
                <li key={runner.userName}>
                  <RunnerCard runner={runner} />
                </li>
              ))}
          </ul>
        )}
      </QueryState>
      {query.hasNextPage && (
        <button type="button" className="button" onClick={() => query.fetchNextPage()}>
          {messages.loadMore}
        </button>
      )}
    </section>
  );
}
