package cp.gateway.http;

import cp.gateway.ProviderException;

/**
 * One API's reading of a server-sent event stream (issue 24): each event in order, then whether
 * the stream reached its last event (Anthropic's {@code message_stop}, OpenAI's {@code [DONE]}),
 * then the body a one-shot call would have returned, assembled from the events, for the API's
 * own reply reader. Not thread-safe: one call reads one stream.
 */
public interface SseEvents {
  /**
   * One event: its {@code event:} type (null when the stream names none) and its data. Throws
   * when the event reports an error (an {@code error} event mid-stream) or cannot be read.
   */
  void event(String type, String data) throws ProviderException;

  /** Whether the stream's last event has come: a stream closed before it was interrupted. */
  boolean complete();

  /** The one-shot response body these events add up to. */
  String assembledBody();
}
