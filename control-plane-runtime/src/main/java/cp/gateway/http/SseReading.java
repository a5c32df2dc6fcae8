package cp.gateway.http;

import cp.gateway.ProviderException;
import java.nio.charset.StandardCharsets;
import okhttp3.Response;
import okhttp3.sse.EventSource;
import okhttp3.sse.EventSourceListener;

/**
 * The listener {@code okhttp-sse} reads one stream into, on the calling thread: passes each event
 * to the API's {@link SseEvents} and ends in exactly one terminal callback (STYLE 8), closed or
 * failed. The first failure (the API's own, an I/O error, the size limit) cancels the stream and
 * is the one kept; nothing after it is read.
 */
final class SseReading extends EventSourceListener {
  private final SseEvents events;
  private final long maxBytes;
  private long bytes;
  private int count;
  private boolean ended;
  private Throwable failure;

  /** The stream failed; its cause is what went wrong. */
  static final class Failed extends Exception {
    private static final long serialVersionUID = 1L;

    Failed(Throwable cause) {
      super(cause);
    }
  }

  /** The stream's events went over the reply size limit. */
  static final class TooLarge extends Exception {
    private static final long serialVersionUID = 1L;
  }

  SseReading(SseEvents events, long maxBytes) {
    this.events = events;
    this.maxBytes = maxBytes;
  }

  @Override
  public void onEvent(EventSource source, String id, String type, String data) {
    if (ended) {
      return;
    }
    count++;
    bytes += data.getBytes(StandardCharsets.UTF_8).length;
    try {
      if (bytes > maxBytes) {
        throw new TooLarge();
      }
      events.event(type, data);
    } catch (ProviderException | TooLarge e) {
      end(e);
      source.cancel();
    }
  }

  @Override
  public void onClosed(EventSource source) {
    end(null);
  }

  @Override
  public void onFailure(EventSource source, Throwable t, Response response) {
    end(t == null ? new java.io.IOException("the event stream could not be read") : t);
  }

  private void end(Throwable t) {
    if (!ended) {
      ended = true;
      failure = t;
    }
  }

  /** Throws the stream's failure, if it failed. */
  void rethrow() throws Failed {
    if (failure != null) {
      throw new Failed(failure);
    }
  }

  int count() {
    return count;
  }
}
