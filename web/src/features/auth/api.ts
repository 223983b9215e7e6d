import { accountResponseSchema, type LoginBody, type RegisterBody } from '@csomag/domain/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../api/client.ts';
import { startClientSession } from '../../api/session.ts';

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) => apiRequest('POST', '/auth/login', accountResponseSchema, body),
    onSuccess: ({ account }) => startClientSession(queryClient, account),
  });
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RegisterBody) => apiRequest('POST', '/auth/register', accountResponseSchema, body),
    onSuccess: ({ account }) => startClientSession(queryClient, account),
  });
}
