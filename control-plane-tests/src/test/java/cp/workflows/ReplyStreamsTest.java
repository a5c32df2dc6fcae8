package cp.workflows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.LlmRoundRequest;
import cp.model.ReplyBatch;
import cp.model.TurnEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 24: the turn's side of a streamed reply — only the awaited call may publish, a batch sent
 * twice shows once, a retried attempt that repeats the shown text shows nothing again and goes on
 * where it went beyond, one that diverges is retracted to the common prefix, and a late batch of
 * an older attempt or of an ended round is dropped. Pages resume from any sequence number.
 */
class ReplyStreamsTest {
  static final String WF = "SES-1/turn-0001";
  final TurnEventLog log = new TurnEventLog();
  final List<String> warnings = new ArrayList<>();
  final ReplyStreams streams = new ReplyStreams(log, WF, warnings::add);

  static String replay(List<TurnEvent> events) {
    return cp.live.LiveText.replay(events);
  }

  List<TurnEvent> events() {
    return log.page(1).events();
  }

  ReplyBatch batch(LlmRoundRequest.StreamTo to, int attempt, int offset, String text) {
    return new ReplyBatch(to.publisher(), to.key(), attempt, offset, text);
  }

  @Test
  void batchesOfTheAwaitedCall_showInOrder_andOneSentTwiceShowsOnce() {
    var to = streams.open("WO-1", 1, "k1");
    assertEquals(WF + "/WO-1/round-1", to.publisher());

    streams.accept(batch(to, 1, 0, "Hello"));
    streams.accept(batch(to, 1, 5, ", world"));
    streams.accept(batch(to, 1, 5, ", world")); // the signal RPC retried
    streams.accept(batch(to, 1, 3, "lo, world!")); // overlapping

    assertEquals("Hello, world!", replay(events()));
    assertEquals(List.of("Hello", ", world", "!"), events().stream().map(TurnEvent::text).toList());
  }

  @Test
  void aRetriedAttempt_repeatingTheShownText_showsNothingAgain_thenGoesOn() {
    var to = streams.open("WO-1", 1, "k1");
    streams.accept(batch(to, 1, 0, "The answer is "));
    // the worker died; attempt 2 repeats the call and the provider answers the same
    streams.accept(batch(to, 2, 0, "The ans"));
    int before = events().size();
    streams.accept(batch(to, 2, 7, "wer is "));
    assertEquals(before, events().size(), "still repeating: nothing shown twice");
    streams.accept(batch(to, 2, 14, "42."));
    streams.accept(batch(to, 1, 14, "LATE")); // the old attempt's worker was not dead after all

    assertEquals("The answer is 42.", replay(events()));
    assertTrue(events().stream().noneMatch(e -> TurnEvent.RETRACTED.equals(e.type())), events().toString());
  }

  @Test
  void aRetriedAttemptThatDiverges_isRetractedToTheCommonPrefix_thenContinues() {
    var to = streams.open("WO-1", 1, "k1");
    streams.accept(batch(to, 1, 0, "The answer is blue"));
    streams.accept(batch(to, 2, 0, "The answer is red"));

    List<TurnEvent> ev = events();
    TurnEvent retract = ev.stream().filter(e -> TurnEvent.RETRACTED.equals(e.type())).findFirst().orElseThrow();
    assertEquals("The answer is ".length(), retract.keep());
    assertEquals("The answer is red", replay(ev));
  }

  @Test
  void forgedOrLateBatches_areDropped() {
    var to = streams.open("WO-1", 1, "k1");
    streams.accept(new ReplyBatch(to.publisher(), "guessed", 1, 0, "FORGED"));
    streams.accept(new ReplyBatch(WF + "/WO-9/round-1", "k1", 1, 0, "FORGED"));
    streams.accept(null);
    streams.accept(batch(to, 1, 0, "real"));
    streams.close();
    streams.accept(batch(to, 1, 4, " and late"));

    assertEquals("real", replay(events()));
    assertEquals(4, streams.dropped());
    assertEquals(3, warnings.size(), "only the first few are logged");
  }

  @Test
  void aNewRound_retractsWhatTheRoundBeforeShowed() {
    var first = streams.open("WO-1", 1, "k1");
    streams.accept(batch(first, 1, 0, "Let me look that up."));
    streams.close();
    var second = streams.open("WO-1", 2, "k2");
    streams.accept(batch(second, 1, 0, "Here it is."));

    assertEquals("Here it is.", replay(events()));
    assertEquals(0, events().stream().filter(e -> TurnEvent.RETRACTED.equals(e.type())).findFirst().orElseThrow().keep());
  }

  @Test
  void theTurnsBoundOnBatches_holds_andDoneStillShowsTheWholeReply() {
    var to = streams.open("WO-1", 1, "k1");
    StringBuilder all = new StringBuilder();
    for (int i = 0; i < ReplyStreams.MAX_BATCHES_PER_TURN + 20; i++) {
      streams.accept(batch(to, 1, all.length(), "x"));
      all.append('x');
    }
    long deltas = events().stream().filter(e -> TurnEvent.TEXT_DELTA.equals(e.type())).count();
    assertEquals(ReplyStreams.MAX_BATCHES_PER_TURN, deltas);

    log.done(all.toString(), "success");
    assertEquals(all.toString(), replay(events()));
    assertEquals(TurnEvent.DONE, events().get(events().size() - 1).type());
  }

  @Test
  void pagesResumeFromAnySequenceNumber_withoutGapOrDuplicate() {
    for (int i = 0; i < TurnEventLog.PAGE_SIZE + 10; i++) {
      log.step(TurnEvent.STEP_STARTED, "s" + i);
    }
    log.done("bye", "success");
    var first = log.page(1);
    assertEquals(TurnEventLog.PAGE_SIZE, first.events().size());
    assertTrue(!first.done());
    var second = log.page(first.nextSeq());
    assertEquals(first.nextSeq(), second.events().get(0).seq());
    assertTrue(second.done());
    assertEquals(TurnEventLog.PAGE_SIZE + 12, second.nextSeq() - 1);
    assertTrue(log.page(second.nextSeq()).events().isEmpty());
    assertEquals(3, log.page(3).events().get(0).seq());
  }
}
