import { get, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiErrorBody } from '@csomag/domain/errors';
import type { FastifyInstance } from 'fastify';

export interface SseMessage {
  id: string | undefined;
  event: string | undefined;
  data: unknown;
}

export interface SseStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** Why the stream was refused (any status but 200): the API's error, its code first. */
  error: ApiErrorBody['error'] | undefined;
  /** Every raw block received so far (comments and `retry:` included). */
  raw: string[];
  /** The next message that carries data; null when the stream ended or nothing came within the timeout. */
  next(timeoutMs?: number): Promise<SseMessage | null>;
  close(): void;
}

/** The app's base URL on a real socket: inject() cannot stream, so live tests listen on port 0. */
export async function listenLocally(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

export interface SseBlock {
  id: string | undefined;
  event: string | undefined;
  data: string | undefined;
  retry: number | undefined;
  /** Only comment lines (a heartbeat). */
  comment: boolean;
}

/** Reads one `\n\n`-terminated block of an event stream, field by field (the WHATWG rules we use). */
export function parseSseBlock(block: string): SseBlock {
  const parsed: SseBlock = { id: undefined, event: undefined, data: undefined, retry: undefined, comment: true };
  for (const line of block.split(/\r?\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    parsed.comment = false;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'id') parsed.id = value;
    else if (field === 'event') parsed.event = value;
    else if (field === 'data') parsed.data = parsed.data === undefined ? value : `${parsed.data}\n${value}`;
    else if (field === 'retry' && /^\d+$/.test(value)) parsed.retry = Number(value);
  }
  return parsed;
}

function parseBlock(block: string): SseMessage | null {
  const { id, event, data } = parseSseBlock(block);
  return data === undefined ? null : { id, event, data: JSON.parse(data) };
}

/**
 * Opens GET /api/events like a browser's EventSource would and reads it block by block. Its own
 * connection (no pooled agent), so closing the stream closes the socket.
 */
export async function openEventStream(
  baseUrl: string,
  topics: string,
  headers: Record<string, string> = {},
): Promise<SseStream> {
  const url = `${baseUrl}/api/events?topics=${encodeURIComponent(topics)}`;
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    get(url, { headers: { accept: 'text/event-stream', ...headers }, agent: false }, resolve).on('error', reject);
  });
  response.setEncoding('utf8');
  const blocks: string[] = [];
  const raw: string[] = [];
  let buffer = '';
  let ended = false;
  let wake: (() => void) | undefined;
  response.on('data', (chunk: string) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      blocks.push(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
    }
    wake?.();
  });
  response.on('close', () => {
    ended = true;
    wake?.();
  });

  /** Waits for the next complete block; the `retry:` block arrives first, once subscribed. */
  async function nextBlock(deadline: number): Promise<string | null> {
    while (blocks.length === 0) {
      if (ended || Date.now() >= deadline) return null;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
    const block = blocks.shift() ?? '';
    raw.push(block);
    return block;
  }

  const status = response.statusCode ?? 0;
  if (status !== 200) {
    // A refusal is one JSON body, not a stream: read it to its end.
    await new Promise<void>((resolve) => {
      if (ended) resolve();
      else response.on('close', resolve);
    });
  }
  const stream: SseStream = {
    status,
    headers: response.headers,
    error: status === 200 ? undefined : (JSON.parse(buffer) as ApiErrorBody).error,
    raw,
    async next(timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const block = await nextBlock(deadline);
        if (block === null) return null;
        const message = parseBlock(block);
        if (message) return message;
      }
    },
    close: () => response.destroy(),
  };
  if (status === 200) await nextBlock(Date.now() + 3000);
  return stream;
}
