/**
 * One Server-Sent-Events subscriber on a raw TCP socket, as light as a client can be: the request
 * written by hand, the response read as latin1 text block by block, each `event: change` handed
 * on with the moment its bytes arrived (process.hrtime: one monotonic clock for every process on
 * the machine, so a benchmark can compare times taken in different processes). For
 * bench:live, where a few processes hold 10,000 of them.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';

export interface StreamRequest {
  port: number;
  topic: string;
  cookie?: string | undefined;
  /** The loopback address to connect from (127.x.y.z): the app sees each as its own client. */
  localAddress?: string | undefined;
}

export interface StreamChange {
  kind: string;
  parcelId: string;
  /** process.hrtime.bigint() when the bytes carrying it arrived. */
  arrivedAt: bigint;
}

export interface OpenedStream {
  /** The HTTP status; 0 when the connection failed. */
  status: number;
  /** What a refusal said (its JSON body) or why the connection failed. */
  error: string | undefined;
  socket: net.Socket;
  /** Resolves when the stream ends (the server closed it, or the socket failed). */
  ended: Promise<void>;
}

/**
 * Opens `GET /api/events?topics=…` and resolves once the head and the first block (`retry:`) are
 * in, or the request was refused. `onChange` gets every change message that follows.
 */
export function openStream(request: StreamRequest, onChange: (change: StreamChange) => void): Promise<OpenedStream> {
  const socket = net.connect({
    host: '127.0.0.1',
    port: request.port,
    ...(request.localAddress ? { localAddress: request.localAddress } : {}),
  });
  socket.setNoDelay(true);
  // What Chromium's EventSource sends behind a proxy (~1 KiB): the server keeps a request's
  // headers as long as its stream, so their size is part of what a stream costs.
  const headers = [
    `GET /api/events?topics=${encodeURIComponent(request.topic)} HTTP/1.1`,
    'Host: csomag.example.hu',
    'Connection: keep-alive',
    'Accept: text/event-stream',
    'Cache-Control: no-cache',
    'User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'sec-ch-ua: "Chromium";v="131", "Not_A Brand";v="24"',
    'sec-ch-ua-mobile: ?0',
    'sec-ch-ua-platform: "Linux"',
    'Sec-Fetch-Site: same-origin',
    'Sec-Fetch-Mode: cors',
    'Sec-Fetch-Dest: empty',
    'Referer: https://csomag.example.hu/futar/csomagok',
    'Accept-Encoding: gzip, deflate, br, zstd',
    'Accept-Language: hu-HU,hu;q=0.9,en-US;q=0.8,en;q=0.7',
    'X-Forwarded-Proto: https',
    `X-Request-Id: ${randomBytes(16).toString('hex')}`,
    ...(request.cookie ? [`Cookie: ${request.cookie}`] : []),
  ];
  socket.write(`${headers.join('\r\n')}\r\n\r\n`);

  let ended: () => void = () => {};
  const endedPromise = new Promise<void>((resolve) => {
    ended = resolve;
  });
  return new Promise<OpenedStream>((resolve) => {
    let settled = false;
    let text = '';
    let status = -1;
    const settle = (result: Omit<OpenedStream, 'socket' | 'ended'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, socket, ended: endedPromise });
    };
    let refusalLength = 0;
    socket.on('data', (chunk: Buffer) => {
      const arrivedAt = process.hrtime.bigint();
      text += chunk.toString('latin1');
      if (status === -1) {
        const headEnd = text.indexOf('\r\n\r\n');
        if (headEnd === -1) return;
        status = Number(text.slice(9, 12));
        refusalLength = Number(/\r\ncontent-length: (\d+)/i.exec(text.slice(0, headEnd))?.[1] ?? 0);
        text = text.slice(headEnd + 4);
      }
      // A refusal is one JSON body on a connection kept alive: done once it is in.
      if (status !== 200) {
        if (text.length >= refusalLength) settle({ status, error: text });
        return;
      }
      for (let end = text.indexOf('\n\n'); end !== -1; end = text.indexOf('\n\n')) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        if (block.includes('retry:')) settle({ status, error: undefined });
        const data = block.indexOf('\ndata: ');
        if (data === -1) continue;
        const change = JSON.parse(block.slice(data + 7)) as { kind: string; parcelId: string };
        onChange({ kind: change.kind, parcelId: change.parcelId, arrivedAt });
      }
    });
    socket.on('error', (error) => settle({ status: 0, error: error.message }));
    socket.on('close', () => {
      settle({ status: Math.max(status, 0), error: text || 'closed before the stream started' });
      ended();
    });
    socket.on('end', () => socket.end());
  });
}
