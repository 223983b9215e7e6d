import { toast } from 'react-toastify';
import { errorMessage } from '../api/client.ts';

/** Success is only ever shown for what the server confirmed; failures show the server's words. */
export const notify = {
  success: (text: string) => toast.success(text),
  info: (text: string, toastId?: string) => toast.info(text, toastId ? { toastId } : {}),
  error: (error: unknown) => toast.error(errorMessage(error)),
};
