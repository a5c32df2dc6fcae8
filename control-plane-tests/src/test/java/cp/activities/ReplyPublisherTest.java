package cp.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.LlmRoundRequest;
import cp.model.ReplyBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Issue 24: the activity's side — for a JSON contract only the reply text field's characters are
 * published (decoded, split anywhere), the first text at once, then batched by time and size,
 * bounded per round, the rest at the end; a reply that did not stream is published whole at the
 * end; a signal that fails stops publishing without failing the call.
 */
class ReplyPublisherTest {
  static final LlmRoundRequest.StreamTo TO = new LlmRoundRequest.StreamTo("wf/WO-1/round-1", "k");
  final List<ReplyBatch> sent = new ArrayList<>();
  final AtomicLong clock = new AtomicLong();

  ReplyPublisher publisher(boolean json) {
    return new ReplyPublisher(TO, 2, json, sent::add, clock::get);
  }

  static String text(List<ReplyBatch> batches) {
    StringBuilder sb = new StringBuilder();
    for (ReplyBatch b : batches) {
      assertEquals(sb.length(), b.offset(), "each batch starts where the last ended");
      sb.append(b.text());
    }
    return sb.toString();
  }

  @Test
  void aJsonAnswer_publishesOnlyItsResponseText_decoded_whereverThePiecesSplit() {
    String raw = "```json\n{\"mood\": \"ok\", \"nested\": {\"response_text\": \"no\"}, \"response_text\": "
        + "\"Line one\\nsaid \\\"hi\\\" \\u00e9\\ud83d\\ude00 done\", \"after\": \"x\"}\n```";
    for (int split = 1; split < 9; split++) {
      sent.clear();
      ReplyPublisher p = publisher(true);
      for (int i = 0; i < raw.length(); i += split) {
        p.text(raw.substring(i, Math.min(raw.length(), i + split)));
        clock.addAndGet(1_000_000_000L);
      }
      p.finish(raw);
      assertEquals("Line one\nsaid \"hi\" é😀 done", text(sent), "split " + split);
    }
  }

  @Test
  void theFirstTextGoesAtOnce_thenBatchesByTime_andTheRestAtTheEnd() {
    ReplyPublisher p = publisher(false);
    p.text("a");
    assertEquals(1, sent.size(), "first text at once");
    p.text("b");
    p.text("c");
    assertEquals(1, sent.size(), "within the pause: held");
    clock.addAndGet(ReplyPublisher.FLUSH_MILLIS * 1_000_000);
    p.text("d");
    assertEquals(2, sent.size());
    assertEquals("bcd", sent.get(1).text());
    p.text("e");
    p.finish("abcde");
    assertEquals("abcde", text(sent));
    assertEquals(2 * ReplyPublisher.TAKES_PER_ATTEMPT, sent.get(0).attempt());
  }

  @Test
  void aRoundSendsAtMostItsBoundOfBatches() {
    ReplyPublisher p = publisher(false);
    StringBuilder all = new StringBuilder();
    for (int i = 0; i < 500; i++) {
      p.text("w" + i + " ");
      all.append("w").append(i).append(' ');
      clock.addAndGet(ReplyPublisher.FLUSH_MILLIS * 1_000_000);
    }
    p.finish(all.toString());
    assertTrue(sent.size() <= ReplyPublisher.MAX_BATCHES, sent.size() + " batches");
    assertEquals(all.toString(), text(sent));
  }

  @Test
  void aReplyThatDidNotStream_isPublishedWholeAtTheEnd() {
    ReplyPublisher p = publisher(true);
    p.finish("{\"response_text\": \"from the ledger\"}");
    assertEquals(List.of("from the ledger"), sent.stream().map(ReplyBatch::text).toList());
  }

  @Test
  void aFailingSignal_stopsPublishing_withoutFailingTheCall() {
    int[] calls = {0};
    ReplyPublisher p = new ReplyPublisher(TO, 1, false, b -> {
      calls[0]++;
      throw new IllegalStateException("workflow gone");
    }, clock::get);
    p.text("a");
    clock.addAndGet(1_000_000_000L);
    p.text("b");
    p.finish("ab");
    assertEquals(1, calls[0]);
  }

  /** Issue 23 with 24: a fallback model starts the text over as the attempt's next take. */
  @Test
  void aFallbackModelsText_startsOverAsTheNextTake() {
    ReplyPublisher p = publisher(false);
    p.text("The first model sa");
    clock.addAndGet(1_000_000_000L);
    p.text("id this");
    p.restart();
    p.text("Another");
    clock.addAndGet(1_000_000_000L);
    p.text(" answer");
    p.finish("Another answer");

    int first = 2 * ReplyPublisher.TAKES_PER_ATTEMPT;
    assertEquals(List.of(first, first, first + 1, first + 1), sent.stream().map(ReplyBatch::attempt).toList());
    assertEquals("The first model said this", text(sent.subList(0, 2)));
    assertEquals("Another answer", text(sent.subList(2, 4)), "the take starts at offset 0");
  }
}
