import { type ReturnBody, returnBodySchema } from '@csomag/domain/attempts';
import { messages } from '@csomag/domain/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useId } from 'react';
import { useForm } from 'react-hook-form';
import { DropPointPicker } from '../../components/drop-point-picker.tsx';
import { FormError, FormField } from '../../components/form-field.tsx';
import { applyServerErrors, serverSummary } from '../../components/use-server-errors.ts';
import { useStartReturn } from './api.ts';

/** 'Visszaviszem a feladónak': why, then the parcel goes to its sender (still in the runner's hands). */
function ReturnForm({ parcelId, onDone }: { parcelId: string; onDone: () => void }) {
  const startReturn = useStartReturn();
  // The schema the server checks the reason with checks it here first.
  const form = useForm<ReturnBody>({ resolver: zodResolver(returnBodySchema), defaultValues: { reason: '' } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ reason }) => {
    try {
      await startReturn.mutateAsync({ parcelId, reason });
      onDone();
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });
  return (
    <form className="form" onSubmit={submit} noValidate aria-label={messages.giveUpReturn}>
      <FormField label={messages.giveUpReturnReasonLabel} error={errors.reason?.message} {...form.register('reason')} />
      <FormError message={serverSummary(errors)} />
      <div className="card-actions">
        <button type="submit" className="button danger" disabled={isSubmitting}>
          {messages.giveUpReturnConfirm}
        </button>
        <button type="button" className="button" onClick={onDone}>
          {messages.cancelButton}
        </button>
      </div>
    </form>
  );
}

/** What is open under a card's buttons: nothing, the failed attempt, 'Visszaadom''s choice, or one of its ways. */
export type Panel = 'none' | 'attempt' | 'neighbour' | 'incident' | 'give-up' | 'relay' | 'return' | 'drop-point';

/**
 * 'Visszaadom' is honest (issue 28): a parcel never goes back to the pool. The runner hands it to
 * another runner (the relay's own actions), leaves it at a drop point, or takes it back to its
 * sender; until someone takes it, it stays theirs. A parcel already going back offers only the relay.
 */
export function GiveUpChoice({
  parcelId,
  returning,
  panel,
  setPanel,
  relay,
}: {
  parcelId: string;
  returning: boolean;
  panel: Panel;
  setPanel: (panel: Panel) => void;
  relay: ReactNode;
}) {
  const titleId = useId();
  return (
    <section className="card-actions column" aria-labelledby={titleId}>
      <h3 id={titleId}>{messages.giveUpTitle}</h3>
      <p className="muted">{messages.giveUpHint}</p>
      {panel === 'give-up' && (
        <div className="card-actions">
          <button type="button" className="button" onClick={() => setPanel('relay')}>
            {messages.giveUpRelay}
          </button>
          {!returning && (
            <button type="button" className="button" onClick={() => setPanel('return')}>
              {messages.giveUpReturn}
            </button>
          )}
          {!returning && (
            <button type="button" className="button" onClick={() => setPanel('drop-point')}>
              {messages.giveUpDropPoint}
            </button>
          )}
          <button type="button" className="button" onClick={() => setPanel('none')}>
            {messages.cancelButton}
          </button>
        </div>
      )}
      {panel === 'relay' && (
        <>
          <p>
            <strong>{messages.giveUpRelay}</strong>
          </p>
          {relay}
          <button type="button" className="button" onClick={() => setPanel('give-up')}>
            {messages.cancelButton}
          </button>
        </>
      )}
      {panel === 'return' && <ReturnForm parcelId={parcelId} onDone={() => setPanel('none')} />}
      {panel === 'drop-point' && (
        <DropPointPicker
          parcelId={parcelId}
          label={messages.giveUpDropPoint}
          onDone={() => setPanel('none')}
          cancel={
            <button type="button" className="button" onClick={() => setPanel('none')}>
              {messages.cancelButton}
            </button>
          }
        />
      )}
    </section>
  );
}
