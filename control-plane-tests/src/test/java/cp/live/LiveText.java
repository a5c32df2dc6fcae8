package cp.live;

import cp.model.TurnEvent;
import java.util.List;

/** What a client shows of a turn's reply from its events: deltas appended, each retraction cut back to {@code keep}. */
public final class LiveText {
  private LiveText() {}

  public static String replay(List<TurnEvent> events) {
    StringBuilder text = new StringBuilder();
    for (TurnEvent e : events) {
      if (TurnEvent.TEXT_DELTA.equals(e.type())) {
        text.append(e.text());
      } else if (TurnEvent.RETRACTED.equals(e.type())) {
        text.setLength(e.keep());
      }
    }
    return text.toString();
  }
}
