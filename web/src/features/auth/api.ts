import { accountResponseSchema, type LoginBody, type RegisterBody } from '@csomag/domain/account';
import type { PasswordResetConfirm, PasswordResetRequest } from '@csomag/domain/mail';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
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

// ——— 'Elfelejtett jelszó' (issue 29) ———

/** The same answer whether the address has an account or not: the page says so either way. */
export const requestPasswordReset = (body: PasswordResetRequest) =>
  apiRequest('POST', '/auth/password-reset', z.unknown(), body);

export const useRequestPasswordReset = () => useMutation({ mutationFn: requestPasswordReset });

/** Sets the new password with the link's token; every session ends, this browser's too. */
export const confirmPasswordReset = (body: PasswordResetConfirm) =>
  apiRequest('POST', '/auth/password-reset/confirm', z.unknown(), body);

export function useConfirmPasswordReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmPasswordReset,
    onSuccess: () => queryClient.setQueryData(['session'], null),
  });
}
