import { messages } from '@csomag/domain/messages';
import { type FormEvent, type ReactNode, useState } from 'react';
import { type ReceiverLink, useChooseDropPoint, useDropPoints } from '../api/attempts.ts';
import { errorMessage } from '../api/client.ts';
import { FormError } from './form-field.tsx';

/**
 * A drop point instead of the door (issue 28): the receiver's or sender's choice after a failed
 * attempt, or the runner's way to let go ('Visszaadom'). Said once the server has it; `onDone`
 * after that, and for `cancel` (when the form offers one).
 */
export function DropPointPicker({
  parcelId,
  label,
  title,
  onDone,
  cancel,
  receiverLink,
}: {
  parcelId: string;
  /** The receiver's choice through the link in their mail (issue 29), without an account. */
  receiverLink?: ReceiverLink;
  /** The form's name for assistive technology. */
  label: string;
  title?: ReactNode;
  onDone?: () => void;
  cancel?: ReactNode;
}) {
  const points = useDropPoints(true);
  const choose = useChooseDropPoint();
  const [chosen, setChosen] = useState('');
  const items = points.data?.items ?? [];
  if (items.length === 0) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen) choose.mutateAsync({ parcelId, dropPointId: Number(chosen), receiverLink }).then(onDone, () => {});
  };
  return (
    <form className="form" onSubmit={submit} noValidate aria-label={label}>
      {title}
      <label className="field">
        <span>{messages.dropPointChoiceLabel}</span>
        <select value={chosen} onChange={(event) => setChosen(event.target.value)}>
          <option value="" />
          {items.map((point) => (
            <option key={point.id} value={point.id}>
              {messages.dropPointOption(point.name, point.address, point.openingHours)}
            </option>
          ))}
        </select>
      </label>
      <FormError message={choose.error ? errorMessage(choose.error) : null} />
      <div className="card-actions">
        <button type="submit" className="button primary" disabled={!chosen || choose.isPending}>
          {messages.dropPointChoiceSubmit}
        </button>
        {cancel}
      </div>
    </form>
  );
}
