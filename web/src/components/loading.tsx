import { messages } from '@csomag/domain/messages';

export function Loading() {
  return (
    <p className="loading" role="status">
      {messages.loading}
    </p>
  );
}
