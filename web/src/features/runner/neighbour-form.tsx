import { neighbourBodySchema } from '@csomag/domain/attempts';
import { messages } from '@csomag/domain/messages';
import { type Resolver, useForm } from 'react-hook-form';
import { errorMessage } from '../../api/client.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { refused } from '../../components/form-resolver.ts';
import { applyServerErrors, serverSummary } from '../../components/use-server-errors.ts';
import { currentPosition } from '../../lib/geolocation.ts';
import { useLeaveWithNeighbour } from './api.ts';

interface NeighbourFields {
  name: string;
  door: string;
  confirmedName: string;
}

/** The fields checked with the server's own schema (the position comes when it is sent). */
const neighbourResolver: Resolver<NeighbourFields> = (fields, _context, options) => {
  const checked = neighbourBodySchema.safeParse({ ...fields, position: { lat: 0, lng: 0, accuracy: 0 } });
  return checked.success ? { values: fields, errors: {} } : refused(checked.error.issues, options);
};

/**
 * 'Szomszédnál hagyom' (issue 28): the neighbour's name and door, and the neighbour typing their
 * own name on this phone as their confirmation. The server's answer is the code the receiver
 * collects it with: `onLeft` keeps it on the page (the card itself leaves the list as the parcel
 * leaves the runner's hands) until the runner says they wrote it on the notice.
 */
export function NeighbourForm({
  parcelId,
  onDone,
  onLeft,
}: {
  parcelId: string;
  onDone: () => void;
  onLeft: (slip: NeighbourSlip) => void;
}) {
  const leave = useLeaveWithNeighbour();
  const form = useForm<NeighbourFields>({
    resolver: neighbourResolver,
    defaultValues: { name: '', door: '', confirmedName: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (fields) => {
    const position = await currentPosition().catch((error: unknown) => {
      form.setError('root.server', { type: 'position', message: errorMessage(error) });
    });
    if (!position) return;
    try {
      onLeft({ parcelId, pin: (await leave.mutateAsync({ parcelId, ...fields, position })).pin });
      onDone();
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });
  return (
    <form className="form" onSubmit={submit} noValidate aria-label={messages.neighbourTitle}>
      <h3>{messages.neighbourTitle}</h3>
      <FormField label={messages.neighbourNameLabel} error={errors.name?.message} {...form.register('name')} />
      <FormField label={messages.neighbourDoorLabel} error={errors.door?.message} {...form.register('door')} />
      <FormField
        label={messages.neighbourConfirmLabel}
        error={errors.confirmedName?.message}
        {...form.register('confirmedName')}
      />
      <FormError message={serverSummary(errors)} />
      <div className="card-actions">
        <button type="submit" className="button primary" disabled={isSubmitting}>
          {messages.neighbourSubmit}
        </button>
        <button type="button" className="button" onClick={onDone}>
          {messages.cancelButton}
        </button>
      </div>
    </form>
  );
}

/** The code a neighbour was given for the receiver, kept on the runner's page until written down. */
export interface NeighbourSlip {
  parcelId: string;
  pin: string;
}

/** The codes left with neighbours, each until the runner says they wrote it on the notice. */
export function NeighbourSlips({
  slips,
  onWritten,
}: {
  slips: NeighbourSlip[];
  onWritten: (parcelId: string) => void;
}) {
  return slips.map((slip) => (
    <div key={slip.parcelId} className="notice" role="status">
      <p>
        <span className="mono">{slip.parcelId}</span>: <strong>{messages.neighbourPinForSlip(slip.pin)}</strong>
      </p>
      <button type="button" className="button primary" onClick={() => onWritten(slip.parcelId)}>
        {messages.neighbourPinWritten}
      </button>
    </div>
  ));
}
