/**
 * What the events socket has still to send to one client, paced by how fast the client reads: at
 * most `SEND_WINDOW_CHARS` are handed to the transport before it says they were written out, the
 * rest wait here (shared frame texts, so a hundred sockets do not hold a hundred copies). A client
 * that falls more than `MAX_SOCKET_BACKLOG_CHARS` of live events behind is a slow reader: it is
 * closed with `SLOW_READER_CLOSE_CODE` and the others keep their pace.
 *
 * The real agent server (uvicorn's websockets, its `write_limit`) makes a send wait for the buffer
 * to drain, and `pub_sub.py` (`PubSub.__call__`) gathers every subscriber's send, so there one
 * slow reader holds up the event for all; a fake that must stay fast for everyone closes it instead
 * (a deliberate difference). Hand-written: `ws` exposes only `bufferedAmount` and a send callback.
 */

/** Most characters handed to the transport and not yet written out, per socket (1 MiB). */
export const SEND_WINDOW_CHARS = 1024 * 1024;
/** Most frames handed to the transport and not yet written out, per socket: the frames waiting in a socket's buffer are written out together when it drains (7,000 small ones in one `writev`: 60 ms). */
export const SEND_WINDOW_FRAMES = 500;
/** Most characters of live events a socket may have waiting (queued or not yet written out): 4 MiB; past it, it is closed. */
export const MAX_SOCKET_BACKLOG_CHARS = 4 * 1024 * 1024;
/** The close code of a slow reader: 1008, policy violation. */
export const SLOW_READER_CLOSE_CODE = 1008;
/** The close reason of a slow reader. */
export const SLOW_READER_CLOSE_REASON = 'Slow reader: more than 4 MiB of events waiting to be sent';

/** Most characters the sockets together hand to their transports in one turn of the event loop (4 MiB, a few ms of writing); the rest go on a later turn. */
export const SEND_SLICE_CHARS = 4 * 1024 * 1024;
/**
 * Most frames made from sources (`pushSource`) the sockets together hand out in one turn: small
 * frames cost by their count, made and written (28,000 streamed tokens of 150 characters fit the
 * characters' slice: 280 ms; 1,000 take ~20 ms). Frames pushed as text count by characters only.
 */
export const SEND_SLICE_FRAMES = 1_000;

// The real timer functions, taken when the module loads: a test's fake timers must not hold frames back.
const realSetImmediate = typeof setImmediate === 'function' ? setImmediate : null;
const realSetTimeout = setTimeout;
const nextTurn = (run: () => void) => (realSetImmediate ? realSetImmediate(run) : realSetTimeout(run, 0));

/**
 * One budget for every socket's sends in a turn: an event of 900 KB published to 100 sockets was
 * 100 writes of 900 KB in the turn that published it, 220 ms (#29 finding 12). Counted in
 * characters, the cost of a write, so that a test's synchronous transport sees the same frames at
 * once. Outboxes whose frames did not fit wait here and go on, in order, on the next turn.
 */
const sends = {
  /** Characters handed out this turn; -1 before the first send of a turn. */
  handed: -1,
  /** Frames made from sources this turn. */
  frames: 0,
  waiting: new Set<{ resume(): void }>(),
  /** Whether this turn's slice has room for more, of a source's frames with `sourced` (the first send of a turn opens it, the next turn closes it). */
  inSlice(sourced: boolean): boolean {
    if (sends.handed < 0) {
      sends.handed = 0;
      sends.frames = 0;
      nextTurn(sends.nextSlice);
    }
    return sends.handed < SEND_SLICE_CHARS && (!sourced || sends.frames < SEND_SLICE_FRAMES);
  },
  nextSlice(): void {
    sends.handed = -1;
    const waiting = [...sends.waiting];
    sends.waiting.clear();
    for (const outbox of waiting) outbox.resume();
  },
};

/** Where frames go: the transport's send, which calls `written` once the frame left (or could not). */
export type SendFrame = (text: string, written: () => void) => void;

/** Frames made one at a time as the socket has room for them (a history sent on connect): the next one's text, or `undefined` at the end. */
export type FrameSource = () => string | undefined;

/** One socket's frames on their way out, in order. */
export class SocketOutbox {
  #queue: ({ text: string; live: boolean } | { source: FrameSource })[] = [];
  #head = 0;
  #inFlight = 0;
  #inFlightFrames = 0;
  #liveWaiting = 0;
  #flushing = false;
  #closed = false;
  readonly #resumable = { resume: () => this.#flush() };

  /** Sends through `send`; calls `slow` once when the live backlog passes the bound. */
  constructor(
    private readonly send: SendFrame,
    private readonly slow: () => void,
  ) {}

  /** Queues a frame: `live` (the default) for an event published now or an answer to the client (counted against the backlog bound); not for the state and the history a client asked for on connect. */
  push(text: string, live = true): void {
    if (this.#closed) return;
    this.#queue.push({ text, live });
    if (live) this.#liveWaiting += text.length;
    if (this.#liveWaiting > MAX_SOCKET_BACKLOG_CHARS) {
      this.close();
      this.slow();
      return;
    }
    this.#flush();
  }

  /**
   * Queues frames that `source` makes one at a time, each only once the socket has room for it (its
   * window and the turn's slice): a history of 600 MB is never held as text, and a turn writes at
   * most a slice of it. Not live: they do not count against the backlog bound.
   */
  pushSource(source: FrameSource): void {
    if (this.#closed) return;
    this.#queue.push({ source });
    this.#flush();
  }

  /** Drops what is queued; nothing more is sent. */
  close(): void {
    this.#closed = true;
    sends.waiting.delete(this.#resumable);
    this.#queue = [];
    this.#head = 0;
  }

  /** Hands frames to the transport while the window has room and the turn's slice too (a transport that writes at once calls back inside `send`: the loop, not recursion, goes on). */
  #flush(): void {
    if (this.#flushing) return;
    this.#flushing = true;
    try {
      while (
        !this.#closed &&
        this.#head < this.#queue.length &&
        this.#inFlight < SEND_WINDOW_CHARS &&
        this.#inFlightFrames < SEND_WINDOW_FRAMES
      ) {
        const entry = this.#queue[this.#head]!;
        if (!sends.inSlice('source' in entry)) {
          sends.waiting.add(this.#resumable);
          break;
        }
        let frame: { text: string; live: boolean };
        if ('source' in entry) {
          const text = entry.source();
          if (text === undefined) {
            this.#head++;
            continue;
          }
          sends.frames++;
          frame = { text, live: false };
        } else {
          frame = entry;
          this.#head++;
        }
        this.#inFlight += frame.text.length;
        this.#inFlightFrames++;
        sends.handed += frame.text.length;
        this.send(frame.text, () => {
          this.#inFlight -= frame.text.length;
          this.#inFlightFrames--;
          if (frame.live) this.#liveWaiting -= frame.text.length;
          this.#flush();
        });
      }
    } finally {
      this.#flushing = false;
    }
    // Sent frames are let go of (a queue read by an index, not shifted: a long history stays linear).
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    }
  }
}
