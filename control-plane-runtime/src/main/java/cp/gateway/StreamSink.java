package cp.gateway;

/**
 * Where a streaming provider hands the reply's text as it arrives (issue 24), on the calling
 * thread, in order; the concatenation of every piece is the reply's text. It only shows text
 * early: the durable record is the assembled reply the call returns (STYLE 8), never the stream.
 */
@FunctionalInterface
public interface StreamSink {
  /** Hears nothing: a call that streams into it is a one-shot call in effect. */
  StreamSink NONE = delta -> { };

  /** The next piece of the reply's text; never empty. */
  void text(String delta);

  /**
   * The call starts over with another model (the gateway's fallback chain, issue 23): the text
   * handed so far is not the reply's, and the next piece starts the reply again.
   */
  default void restart() {
  }
}
