import { messages } from '@csomag/domain/messages';
import type { InputHTMLAttributes, Ref } from 'react';
import { FormField } from '../../components/form-field.tsx';
import { useDebounced } from '../../lib/use-debounced.ts';
import { useUserSuggestions } from './api.ts';

/** 'Feladó felhasználó': type to search existing users; the list suggests matching user names. */
export function UserPicker({
  value,
  error,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { value: string; error?: string | undefined; ref?: Ref<HTMLInputElement> }) {
  const users = useUserSuggestions(useDebounced(value.trim(), 250));
  return (
    <>
      <FormField label={messages.adminSenderUser} list="sender-users" autoComplete="off" error={error} {...input} />
      <datalist id="sender-users">
        {users.data?.items.map((user) => (
          <option key={user.userName} value={user.userName}>
            {user.name}
          </option>
        ))}
      </datalist>
    </>
  );
}
