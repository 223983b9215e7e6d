import { paths } from '@csomag/domain/paths';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { SubmitButton } from '../../components/submit-button.tsx';

export function TrackingSearchPage() {
  const navigate = useNavigate();
  // Read from the form: an id typed before the page's script took over is kept.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const id = (event.currentTarget.elements.namedItem('parcelId') as HTMLInputElement).value.trim();
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
          <input id="parcel-id" name="parcelId" placeholder="csomagID" autoComplete="off" spellCheck={false} />
          <SubmitButton>Keresés</SubmitButton>
        </form>
      </search>
    </section>
  );
}
