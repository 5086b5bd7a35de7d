/**
 * Ends the connection of a request refused before its body was read, without losing the refusal.
 *
 * Closing a socket that still has unread bytes makes the kernel send a reset instead of a FIN; a
 * client still sending its body then fails its next write and drops the connection, often before
 * it has read the 413/503 already on its way, and reports "connection reset" instead of the answer
 * (seen: five of eight 503s lost to twelve 60 MB uploads). So, as Apache's and nginx's "lingering
 * close" do, the answer is followed by a FIN, what the client still sends is read and thrown away,
 * and the connection is closed when the client closes its side or after `lingerMs`, whichever is first.
 */
import type { IncomingMessage } from 'node:http';

/** Long enough for a client busy writing to read its answer; short enough that a client that never stops is cut off. */
export const LINGER_MS = 2_000;

/**
 * Called before the refusal is answered (with `Connection: close`): Node's server calls the
 * socket's `destroySoon` once such an answer is written, and that close becomes a lingering one.
 */
export function closeAfterAnswer(req: IncomingMessage, lingerMs = LINGER_MS): void {
  const socket = req.socket;
  socket.destroySoon = () => {
    // Once is enough: the socket is already ending.
    if (socket.writableEnded) return;
    socket.end();
    // The body is read into nothing (a refusal mid-body paused it), so the socket keeps draining.
    req.resume();
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.once('end', () => socket.destroy());
  };
}
