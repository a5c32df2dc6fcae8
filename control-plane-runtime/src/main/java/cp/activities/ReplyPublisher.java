package cp.activities;

import cp.gateway.StreamSink;
import cp.model.LlmRoundRequest;
import cp.model.ReplyBatch;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes one attempt of a streamed round's reply text to its turn workflow in batches (issue
 * 24): the first text at once (time to first token), then at most every {@link #FLUSH_MILLIS}
 * or when {@link #FLUSH_CHARS} characters wait, and never more than {@link #MAX_BATCHES} per
 * round: after that the text waits for the end ({@link #finish}). Each batch carries the attempt
 * and its offset in this attempt's text (see {@code ReplyBatch}). Publishing never fails the
 * call: a batch that cannot be sent stops the stream (the turn shows the reply at its end).
 * Not thread-safe: the provider's reading thread feeds it.
 */
public final class ReplyPublisher implements StreamSink {
  /**
   * The shortest pause between batches after the first: ~5 batches a second keeps a reply
   * readable as it is written while a 2,000-character reply at a typical 50–100 characters a
   * second costs ~100–200 history events less than one signal per delta would.
   */
  static final long FLUSH_MILLIS = 200;
  /** Text that waits this long is sent without waiting for the pause: a fast model's burst. */
  static final int FLUSH_CHARS = 600;
  /** The most batches one round sends (the turn bounds the whole turn again, ReplyStreams). */
  static final int MAX_BATCHES = 48;
  /**
   * Takes one attempt may have: a batch's {@code attempt} is the activity attempt times this plus
   * the fallback model streaming (a chain is a handful of models, far fewer).
   */
  static final int TAKES_PER_ATTEMPT = 1_000;
  private static final Logger log = LoggerFactory.getLogger(ReplyPublisher.class);

  private final LlmRoundRequest.StreamTo to;
  private final int attempt;
  private final boolean json;
  private ReplyTextExtractor extractor;
  private int take;
  private final Consumer<ReplyBatch> signal;
  private final LongSupplier nanos;
  private final StringBuilder pending = new StringBuilder();
  private int sent;
  private int batches;
  private long lastFlush;
  private boolean sawRaw;
  private boolean broken;

  /**
   * @param json whether the reply is a JSON answer whose {@code response_text} is the reply
   * @param signal sends one batch to the turn workflow (a Signal)
   * @param nanos the clock the pauses are measured with
   */
  public ReplyPublisher(LlmRoundRequest.StreamTo to, int attempt, boolean json, Consumer<ReplyBatch> signal,
      LongSupplier nanos) {
    this.to = to;
    this.attempt = attempt;
    this.json = json;
    this.extractor = new ReplyTextExtractor(json);
    this.signal = signal;
    this.nanos = nanos;
  }

  @Override
  public void text(String delta) {
    sawRaw = true;
    pending.append(extractor.feed(delta));
    if (pending.length() == 0 || batches >= MAX_BATCHES - 1) {
      return;
    }
    long now = nanos.getAsLong();
    if (sent == 0 || now - lastFlush >= FLUSH_MILLIS * 1_000_000 || pending.length() >= FLUSH_CHARS) {
      flush(now);
    }
  }

  /**
   * The gateway moved on to a fallback model: its text starts the reply over, as the next take of
   * this attempt (the turn compares it with what it showed, and withdraws what differs). Text of
   * the failed model not yet sent is dropped.
   */
  @Override
  public void restart() {
    take++;
    sent = 0;
    sawRaw = false;
    pending.setLength(0);
    extractor = new ReplyTextExtractor(json);
  }

  /**
   * The call answered with {@code rawReply}: what has not been sent goes now. A reply that did not
   * stream (answered from the ledger, a provider that cannot stream) is read whole here.
   */
  public void finish(String rawReply) {
    if (!sawRaw && rawReply != null) {
      pending.append(extractor.feed(rawReply));
    }
    if (pending.length() > 0) {
      flush(nanos.getAsLong());
    }
  }

  private void flush(long now) {
    if (broken) {
      return;
    }
    String text = pending.toString();
    try {
      signal.accept(new ReplyBatch(to.publisher(), to.key(), attempt * TAKES_PER_ATTEMPT + take, sent, text));
    } catch (RuntimeException e) {
      broken = true;
      // INFO: the cause (a service gone or restarting) is reported by the worker itself, once.
      log.info("reply stream to {} stopped after {} batches: {}; the reply shows when the turn ends", to.publisher(),
          batches, e.getClass().getSimpleName());
      return;
    }
    sent += text.length();
    batches++;
    lastFlush = now;
    pending.setLength(0);
  }

  int batches() {
    return batches;
  }
}
