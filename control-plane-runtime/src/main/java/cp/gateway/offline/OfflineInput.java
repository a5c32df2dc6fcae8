package cp.gateway.offline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import cp.model.Message;
import cp.model.PromptRequest;
import java.util.Objects;

/**
 * The work order's input context as the offline model sees it.
 *
 * <p>The prompt packs put the input context as JSON between the last {@code <input>} and
 * {@code </input>} tags of the first user message. When the tags are missing, or what they
 * hold is not a JSON object, the whole text (or the text between the tags) is taken as
 * {@code user_input}, so a hand-written request still gets a sensible answer.
 *
 * @param userInput the {@code user_input} field, never null
 * @param context the whole input object (an object holding only {@code user_input} when none was found)
 */
public record OfflineInput(String userInput, ObjectNode context) {
  public static final String OPEN_TAG = "<input>";
  public static final String CLOSE_TAG = "</input>";
  public static final String USER_INPUT = "user_input";

  public OfflineInput {
    Objects.requireNonNull(userInput, "userInput");
    context = Objects.requireNonNull(context, "context").deepCopy();
  }

  /** Parses the first user message of {@code request}. */
  public static OfflineInput of(PromptRequest request) {
    for (Message m : request.messages()) {
      if (Message.USER.equals(m.role())) {
        return parse(m.text());
      }
    }
    return parse("");
  }

  /** Parses one user message's text. */
  public static OfflineInput parse(String text) {
    String inner = between(text);
    if (inner != null) {
      ObjectNode object = asObject(inner);
      if (object != null) {
        return new OfflineInput(Json.text(object, USER_INPUT, ""), object);
      }
    }
    String userInput = (inner != null ? inner : text).strip();
    ObjectNode context = Json.object().put(USER_INPUT, userInput);
    return new OfflineInput(userInput, context);
  }

  /** A field of the input context, or a missing node. */
  public JsonNode get(String field) {
    return context.path(field);
  }

  private static String between(String text) {
    int open = text.lastIndexOf(OPEN_TAG);
    if (open < 0) {
      return null;
    }
    int start = open + OPEN_TAG.length();
    int close = text.indexOf(CLOSE_TAG, start);
    return close < 0 ? null : text.substring(start, close);
  }

  private static ObjectNode asObject(String json) {
    try {
      JsonNode node = Json.parse(json);
      return node instanceof ObjectNode object ? object : null;
    } catch (IllegalArgumentException notJson) {
      return null;
    }
  }
}
