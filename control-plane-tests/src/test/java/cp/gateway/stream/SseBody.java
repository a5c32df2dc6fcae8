package cp.gateway.stream;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import mockwebserver3.MockResponse;
import mockwebserver3.MockResponseBody;
import okio.BufferedSink;

/**
 * A server-sent event stream for MockWebServer: events written and flushed one by one, with a
 * pause between them, optionally stopping early (a stall or a cut) — the slow provider of the
 * streaming tests. Records when each event left, for time-to-first-token assertions.
 */
public final class SseBody implements MockResponseBody {
  private final List<String> events;
  private final long pauseMillis;
  private final int stopAfter;
  private final long stallMillis;
  public final List<Long> sentNanos = java.util.Collections.synchronizedList(new ArrayList<>());

  private SseBody(List<String> events, long pauseMillis, int stopAfter, long stallMillis) {
    this.events = List.copyOf(events);
    this.pauseMillis = pauseMillis;
    this.stopAfter = stopAfter;
    this.stallMillis = stallMillis;
  }

  /** All events, {@code pauseMillis} apart. */
  public static SseBody of(List<String> events, long pauseMillis) {
    return new SseBody(events, pauseMillis, events.size(), 0);
  }

  /** The first {@code n} events, then the stream ends (the connection closes mid-reply). */
  public static SseBody cutAfter(List<String> events, int n) {
    return new SseBody(events, 0, n, 0);
  }

  /** The first {@code n} events, then nothing for {@code stallMillis}. */
  public static SseBody stallAfter(List<String> events, int n, long stallMillis) {
    return new SseBody(events, 0, n, stallMillis);
  }

  /** One event in wire form: {@code event:} when typed, then {@code data:}. */
  public static String event(String type, String data) {
    return (type == null ? "" : "event: " + type + "\n") + "data: " + data + "\n\n";
  }

  public MockResponse response() {
    return new MockResponse.Builder().code(200).setHeader("content-type", "text/event-stream")
        .setHeader("cache-control", "no-cache").body(this)
        .onResponseEnd(new mockwebserver3.SocketEffect.CloseSocket()) // the stream's end is the connection's
        .build();
  }

  @Override
  public long getContentLength() {
    return -1;
  }

  @Override
  public void writeTo(BufferedSink sink) throws IOException {
    for (int i = 0; i < stopAfter; i++) {
      if (i > 0 && pauseMillis > 0) {
        sleep(pauseMillis);
      }
      sink.writeUtf8(events.get(i));
      sink.flush();
      sentNanos.add(System.nanoTime());
    }
    if (stallMillis > 0) {
      sleep(stallMillis);
    }
  }

  private static void sleep(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
