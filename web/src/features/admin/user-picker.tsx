import { accountSchema } from '@csomag/domain/account';
import { pageOf } from '@csomag/domain/parcel';
import { useQuery } from '@tanstack/react-query';
import type { InputHTMLAttributes, Ref } from 'react';
import { apiRequest } from '../../api/client.ts';
import { FormField } from '../../components/form-field.tsx';
import { useDebounced } from '../../lib/use-debounced.ts';

const userList = pageOf(accountSchema);

/** 'Feladó felhasználó': type to search existing users; the list suggests matching user names. */
export function UserPicker({
  value,
  error,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { value: string; error?: string | undefined; ref?: Ref<HTMLInputElement> }) {
  const q = useDebounced(value.trim(), 250);
  const users = useQuery({
    queryKey: ['users', q],
    queryFn: ({ signal }) =>
      apiRequest('GET', `/users?role=user&limit=10&q=${encodeURIComponent(q)}`, userList, undefined, signal),
  });
  return (
    <>
      <FormField label="Feladó felhasználó" list="sender-users" autoComplete="off" error={error} {...input} />
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
