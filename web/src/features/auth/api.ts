import { accountResponseSchema, type LoginBody, type RegisterBody } from '@csomag/domain/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../api/client.ts';
import { startClientSession } from '../../api/session.ts';

export const signIn = (body: LoginBody) => apiRequest('POST', '/auth/login', accountResponseSchema, body);

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: ({ account }) => startClientSession(queryClient, account),
  });
}

export const register = (body: RegisterBody) => apiRequest('POST', '/auth/register', accountResponseSchema, body);

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: ({ account }) => startClientSession(queryClient, account),
  });
}
