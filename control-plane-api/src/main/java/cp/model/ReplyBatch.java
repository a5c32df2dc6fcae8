package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * Internal (issue 24): a piece of a reply as it streams, signalled by the LLM-round activity to
 * its turn workflow ({@code reply_stream}). {@code publisher} names the call (turn workflow id,
 * work order, round) and {@code key} is the turn's one-time token for it: the turn takes batches
 * only from the round it is waiting on and drops every other (a forged or late one). {@code text}
 * starts at character {@code offset} of what this {@code attempt} of the call has streamed, so a
 * repeated batch is recognized, and a retried attempt's text is compared with what the turn has
 * already shown. {@code attempt} orders the call's takes: the activity attempt × 1,000 plus the
 * model of the gateway's fallback chain that is streaming (issue 23: a fallback model starts the
 * text over within one activity attempt, and its text is compared like a retried attempt's).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ReplyBatch(String publisher, String key, int attempt, int offset, String text) {
  public ReplyBatch {
    text = text == null ? "" : text;
  }
}
