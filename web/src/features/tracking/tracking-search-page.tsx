import { paths } from '@csomag/domain/paths';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';

export function TrackingSearchPage() {
  const [parcelId, setParcelId] = useState('');
  const navigate = useNavigate();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const id = parcelId.trim();
    if (id) navigate(paths.tracking(id.toUpperCase()));
  };
  return (
    <section className="page narrow">
      <h1>Csomagkövetés</h1>
      <p className="muted">Add meg a csomag azonosítóját – regisztráció nélkül is követheted.</p>
      <search>
        <form className="search" onSubmit={onSubmit}>
          <label className="visually-hidden" htmlFor="parcel-id">
            Csomagazonosító
          </label>
          <input
            id="parcel-id"
            placeholder="csomagID"
            value={parcelId}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setParcelId(event.target.value)}
          />
          <button className="button primary" type="submit">
            Keresés
          </button>
        </form>
      </search>
    </section>
  );
}
