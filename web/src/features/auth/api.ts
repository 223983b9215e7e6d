import { accountResponseSchema, type LoginBody, type RegisterBody } from '@csomag/domain/account';
import {
  emailVerificationResultSchema,
  type PasswordResetConfirm,
  type PasswordResetRequest,
} from '@csomag/domain/mail';
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

// ——— email verification (issue 29) ———

/** The verification link's token: the address it was for is verified (or becomes the account's). */
export const verifyEmail = (token: string) =>
  apiRequest('POST', '/auth/verify-email', emailVerificationResultSchema, { token });

export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    // A signed-in person's account, profile and mail settings read the address and whether it is verified.
    onSuccess: () =>
      Promise.all(['session', 'profile', 'mail'].map((key) => queryClient.invalidateQueries({ queryKey: [key] }))),
  });
}
