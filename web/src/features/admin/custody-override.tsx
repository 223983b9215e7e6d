import { messages } from '@csomag/domain/messages';
import type { ParcelDetail } from '@csomag/domain/parcel';
import { type CustodyOverrideBody, custodyOverrideBodySchema } from '@csomag/domain/relay';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { FormError, FormField } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { applyServerErrors, serverSummary } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';
import { useOverrideCustody } from './api.ts';
import { UserPicker } from './user-picker.tsx';

/**
 * 'Felelős módosítása' (issue 14): the superadmin names the runner who really holds an in-transit
 * parcel, with a reason; the server records it as an override in the custody chain.
 */
export function CustodyOverride({ parcel }: { parcel: ParcelDetail }) {
  const override = useOverrideCustody(parcel.id);
  const form = useForm<CustodyOverrideBody>({
    resolver: zodResolver(custodyOverrideBodySchema),
    mode: 'onTouched',
    defaultValues: { runner: '', reason: '' },
  });
  const runner = useWatch({ control: form.control, name: 'runner' });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const updated = await override.mutateAsync(values);
      form.reset();
      notify.success(messages.custodyOverrideDone(updated.runner ?? values.runner));
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });
  return (
    <section className="card" aria-labelledby="custody-override-title">
      <h2 id="custody-override-title">{messages.custodyOverrideTitle}</h2>
      <p className="muted">{messages.custodyOverrideIntro(parcel.runner ?? messages.waitingForRunner)}</p>
      <form className="form" onSubmit={onSubmit} noValidate>
        <UserPicker
          label={messages.custodyOverrideRunner}
          accountRole="runner"
          value={runner}
          error={errors.runner?.message}
          {...form.register('runner')}
        />
        <FormField label={messages.custodyOverrideReason} error={errors.reason?.message} {...form.register('reason')} />
        <FormError message={serverSummary(errors)} />
        <SubmitButton busy={isSubmitting}>{messages.custodyOverrideSubmit}</SubmitButton>
      </form>
    </section>
  );
}
