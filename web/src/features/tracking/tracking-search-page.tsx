import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { SubmitButton } from '../../components/submit-button.tsx';

export function TrackingSearchPage() {
  const navigate = useNavigate();
  const [missing, setMissing] = useState(false);
  // Read from the form: an id typed before the page's script took over is kept.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = event.currentTarget.elements.namedItem('parcelId') as HTMLInputElement;
    const id = input.value.trim();
    if (id) {
      navigate(paths.tracking(id.toUpperCase()));
    } else {
      setMissing(true);
      input.focus();
    }
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
            name="parcelId"
            placeholder="csomagID"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={missing || undefined}
            aria-describedby={missing ? 'parcel-id-error' : undefined}
            onChange={() => setMissing(false)}
          />
          <SubmitButton>Keresés</SubmitButton>
        </form>
        {missing && (
          <p id="parcel-id-error" className="field-error">
            {messages.parcelIdRequired}
          </p>
        )}
      </search>
    </section>
  );
}
