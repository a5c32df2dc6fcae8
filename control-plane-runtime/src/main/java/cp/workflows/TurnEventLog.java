package cp.workflows;

import cp.model.TurnEvent;
import cp.model.TurnEventPage;
import java.util.ArrayList;
import java.util.List;

/**
 * A turn's live events (issue 24), kept in the turn workflow's state and numbered from 1: what
 * the Query {@code events} answers from any sequence number, no gap and no duplicate, for as long
 * as the closed workflow can be queried. Also tracks the reply text streamed so far, so that every
 * change to it is a delta or a retraction and, at {@link TurnEvent#DONE}, the streamed text equals
 * the final reply. Deterministic: changed only by workflow code and signal handlers; adds nothing
 * to history itself.
 */
final class TurnEventLog {
  /**
   * The most events one Query answers: a client catching up reads pages, and a page stays far
   * below the 2 MB a Query result may carry (a delta is at most a batch's text).
   */
  static final int PAGE_SIZE = 500;

  private final List<TurnEvent> events = new ArrayList<>();
  private final StringBuilder shown = new StringBuilder();
  private boolean done;

  void step(String type, String step) {
    add(TurnEvent.step(next(), type, step));
  }

  void tool(String type, String tool, String woId) {
    add(TurnEvent.tool(next(), type, tool, woId));
  }

  /** The reply text shown so far (since the turn started, less what was retracted). */
  String shown() {
    return shown.toString();
  }

  /**
   * Makes the shown reply {@code text}: nothing when it already is; the rest as a delta when the
   * shown text is its prefix; else a retraction back to the common prefix, then the rest.
   */
  void showReply(String text) {
    int common = commonPrefix(shown, text);
    if (common < shown.length()) {
      add(TurnEvent.retracted(next(), common));
      shown.setLength(common);
    }
    if (text.length() > common) {
      String delta = text.substring(common);
      add(TurnEvent.text(next(), delta));
      shown.append(delta);
    }
  }

  /** Withdraws the whole reply shown so far, if any (a rejected answer, a round that asked for tools). */
  void retractAll() {
    if (shown.length() > 0) {
      add(TurnEvent.retracted(next(), 0));
      shown.setLength(0);
    }
  }

  /** The last event: the shown reply made equal to the final {@code text}, then the result. */
  void done(String text, String outcome) {
    if (done) {
      return;
    }
    showReply(text == null ? "" : text);
    add(TurnEvent.done(next(), text, outcome));
    done = true;
  }

  TurnEventPage page(long fromSeq) {
    long from = Math.max(1, fromSeq);
    int start = (int) Math.min(events.size(), from - 1);
    int end = Math.min(events.size(), start + PAGE_SIZE);
    List<TurnEvent> page = List.copyOf(events.subList(start, end));
    long nextSeq = end == start ? from : events.get(end - 1).seq() + 1;
    boolean reachedDone = done && end == events.size();
    return new TurnEventPage(page, nextSeq, reachedDone);
  }

  private long next() {
    return events.size() + 1L;
  }

  private void add(TurnEvent e) {
    events.add(e);
  }

  static int commonPrefix(CharSequence a, CharSequence b) {
    int n = Math.min(a.length(), b.length());
    int i = 0;
    while (i < n && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    if (i > 0 && i < n && Character.isHighSurrogate(a.charAt(i - 1))) {
      i--; // never keep half a surrogate pair
    }
    return i;
  }
}
