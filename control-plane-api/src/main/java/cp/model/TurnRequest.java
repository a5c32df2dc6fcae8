package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.io.IOException;
import java.util.Iterator;

/**
 * The argument of the {@code turn} Update: the user's text, {@code {"text": string}}.
 *
 * <p>Reading one never fails: an argument of another shape (a bare number, an unknown field such
 * as {@code message}, a {@code text} that is not a string) reads as a request whose
 * {@link #problem} says so by name, and the Update validator refuses it ({@code turn_refused},
 * code {@code unknown_field} or {@code wrong_type}) instead of a converter error reaching the
 * client. A missing {@code text} is left to the validator's "the message is empty".
 *
 * @param problem what is wrong with the argument this request was read from; null when nothing
 *     is. Never written: only the reader sets it.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonDeserialize(using = TurnRequest.Reader.class)
public record TurnRequest(String text, @JsonIgnore Refusal.Problem problem) {
  /** The shape a turn's argument has, as a refusal names it. */
  public static final String SHAPE = "turn expects {\"text\": string}";

  public TurnRequest(String text) {
    this(text, null);
  }

  /** Reads any JSON value; what is wrong with it goes into {@code problem}, never into an exception. */
  public static final class Reader extends JsonDeserializer<TurnRequest> {
    @Override
    public TurnRequest deserialize(JsonParser p, DeserializationContext ctx) throws IOException {
      JsonNode n = p.readValueAsTree();
      if (n == null || !n.isObject()) {
        return invalid(null, SHAPE + "; got " + Refusal.kind(n), Refusal.Code.WRONG_TYPE, null);
      }
      JsonNode text = n.get("text");
      // What the lenient reader before issue 12 made of it (unknown fields dropped, a number or a
      // boolean as its text): a turn accepted then replays exactly as it ran.
      String lenient = text == null || text.isNull() || text.isContainerNode() ? null : text.asText();
      for (Iterator<String> names = n.fieldNames(); names.hasNext(); ) {
        String name = names.next();
        if (!"text".equals(name)) {
          return invalid(lenient, SHAPE + "; got field '" + name + "'", Refusal.Code.UNKNOWN_FIELD, name);
        }
      }
      if (text != null && !text.isNull() && !text.isTextual()) {
        return invalid(lenient, SHAPE + "; field 'text' is " + Refusal.kind(text), Refusal.Code.WRONG_TYPE, "text");
      }
      return new TurnRequest(lenient, null);
    }

    private static TurnRequest invalid(String text, String message, Refusal.Code code, String field) {
      return new TurnRequest(text, new Refusal.Problem(message, Refusal.of(code, field)));
    }
  }
}
