import type { Role } from '@csomag/domain/roles';
import { type InputHTMLAttributes, type Ref, useId } from 'react';
import { FormField } from '../../components/form-field.tsx';
import { useDebounced } from '../../lib/use-debounced.ts';
import { useUserSuggestions } from './api.ts';

/**
 * A user name typed into a field, with matching accounts of one role suggested as it is typed:
 * the sender of a new parcel (users), the new holder of a parcel (runners).
 */
export function UserPicker({
  value,
  error,
  label,
  accountRole,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & {
  value: string;
  label: string;
  accountRole: Role;
  error?: string | undefined;
  ref?: Ref<HTMLInputElement>;
}) {
  const users = useUserSuggestions(useDebounced(value.trim(), 250), accountRole);
  const listId = useId();
  return (
    <>
      <FormField label={label} list={listId} autoComplete="off" error={error} {...input} />
      <datalist id={listId}>
        {users.data?.items.map((user) => (
          <option key={user.userName} value={user.userName}>
            {user.name}
          </option>
        ))}
      </datalist>
    </>
  );
}
