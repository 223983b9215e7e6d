import { paths } from '@csomag/domain/paths';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { FormError } from '../../components/form-field.tsx';
import { Loading } from '../../components/loading.tsx';
import { useDebounced } from '../../lib/use-debounced.ts';
import { runnersQuery } from './api.ts';

/** SPEC §2.8 'Futárlistázás' — without the original's plain-text passwords: nobody can read one. */
export function RunnersPage() {
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 300);
  const query = useInfiniteQuery(runnersQuery(q));
  const runners = query.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section className="page">
      <div className="page-head">
        <h1>Futárlistázás</h1>
        <Link className="button primary" to={paths.adminRegisterRunner}>
          Új futár
        </Link>
      </div>
      <div className="field inline">
        <label htmlFor="runner-search">Keresés névre</label>
        <input id="runner-search" type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
      </div>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <FormError message={errorMessage(query.error)} />
      ) : runners.length === 0 ? (
        <p className="empty">Nincs ilyen futár.</p>
      ) : (
        <ul className="parcel-list">
          {runners.map((runner) => (
            <li key={runner.userName}>
              <article className="card parcel-card" aria-label={`Futár ${runner.userName}`}>
                <header>
                  <strong>{runner.userName}</strong>
                  <span className="muted">{runner.status === 'active' ? 'aktív' : 'inaktív'}</span>
                </header>
                <p>{runner.name}</p>
                <p>{runner.address}</p>
                <p>
                  {runner.phoneNumber} · {runner.email}
                </p>
                <div className="card-actions">
                  <Link className="button" to={paths.adminEditRunner(runner.userName)}>
                    Szerkesztés
                  </Link>
                  <Link className="button danger" to={paths.adminDeleteRunner(runner.userName)}>
                    Törlés
                  </Link>
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
      {query.hasNextPage && (
        <button type="button" className="button" onClick={() => query.fetchNextPage()}>
          Továbbiak betöltése
        </button>
      )}
    </section>
  );
}
