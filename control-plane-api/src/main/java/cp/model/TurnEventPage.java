package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * What the Query {@code events} answers (issue 24): the turn's events from the asked sequence
 * number on, in order, at most a page of them; {@code next_seq} is the number to ask from next
 * (the last one's + 1, or the asked one when none is new), and {@code done} whether the turn's
 * last event ({@link TurnEvent#DONE}) is among what has been answered up to {@code next_seq}.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record TurnEventPage(List<TurnEvent> events, long nextSeq, boolean done) {
  public TurnEventPage {
    events = events == null ? List.of() : List.copyOf(events);
  }
}
