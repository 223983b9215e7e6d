import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { type FormEvent, useState } from 'react';
import { SubmitButton } from '../../components/submit-button.tsx';
import { useNavigate } from '../../lib/router.tsx';

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
      <h1>{messages.trackingTitle}</h1>
      <p className="muted">{messages.trackingSearchHint}</p>
      <search>
        <form className="search" onSubmit={onSubmit}>
          <label className="visually-hidden" htmlFor="parcel-id">
            {messages.parcelIdInputLabel}
          </label>
          <input
            id="parcel-id"
            name="parcelId"
            placeholder={messages.parcelIdPlaceholder}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={missing || undefined}
            aria-describedby={missing ? 'parcel-id-error' : undefined}
            onChange={() => setMissing(false)}
          />
          <SubmitButton>{messages.trackingSearchSubmit}</SubmitButton>
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
