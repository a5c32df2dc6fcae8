package cp.contracts;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Fills a prompt pack's templates for one work order, and reads JSON back out of prompts and replies.
 *
 * <p>Placeholders ({@link PromptTemplate}) are filled from three places:
 * <ul>
 *   <li>{@code {{input_json}}}: the whole input context, pretty-printed JSON;</li>
 *   <li>{@code {{agent_system_prompt}}}: the agent's system prompt (empty without an agent);</li>
 *   <li>any declared variable: the input context's top-level field of that name, a string
 *       inserted raw and any other JSON value as compact JSON; absent or null renders empty.</li>
 * </ul>
 *
 * <p>Convention shared with the offline provider: a structured contract's user template carries
 * the input as {@code <input>\n{{input_json}}\n</input>}; {@link #extractInputJson} reads it back.
 */
public final class PromptRenderer {
  public static final String INPUT_JSON = "input_json";
  public static final String AGENT_SYSTEM_PROMPT = "agent_system_prompt";
  /** Variables every template may use without declaring them. */
  public static final Set<String> BUILT_INS = Set.of(INPUT_JSON, AGENT_SYSTEM_PROMPT);
  public static final String INPUT_OPEN = "<input>";
  public static final String INPUT_CLOSE = "</input>";

  /** The input block a structured pack's user template must contain. */
  private static final Pattern INPUT_BLOCK =
      Pattern.compile(Pattern.quote(INPUT_OPEN) + "\\s*\\{\\{\\s*" + INPUT_JSON + "\\s*\\}\\}\\s*" + Pattern.quote(INPUT_CLOSE));

  /**
   * Renders {@code pack} for {@code inputContext} on behalf of {@code agent} (may be null).
   *
   * @throws IllegalArgumentException when a template uses a variable the pack does not declare
   *     (the catalog refuses such packs at load time; this guards packs built in code)
   */
  public RenderedPrompt render(PromptPack pack, JsonNode inputContext, AgentConfig agent) {
    JsonNode input = inputContext == null || inputContext.isNull() ? Json.object() : inputContext;
    String systemPrompt = agent == null ? "" : agent.systemPrompt();
    List<String> declared = pack.variables();
    Function<String, String> values = name -> {
      if (INPUT_JSON.equals(name)) {
        return Json.pretty(input);
      }
      if (AGENT_SYSTEM_PROMPT.equals(name)) {
        return systemPrompt;
      }
      if (!declared.contains(name)) {
        throw new IllegalArgumentException("prompt pack " + pack.promptPackId() + " uses {{" + name
            + "}} but does not declare it in variables " + declared);
      }
      return variable(input.get(name));
    };
    return new RenderedPrompt(PromptTemplate.render(pack.system(), values), PromptTemplate.render(pack.user(), values));
  }

  /** True when {@code userTemplate} carries the input as {@code <input>{{input_json}}</input>}. */
  public static boolean hasInputBlock(String userTemplate) {
    return INPUT_BLOCK.matcher(userTemplate).find();
  }

  /**
   * The JSON text of the input block of a rendered user message: up to the last
   * {@code </input>}, from the {@code <input>} whose content parses (tags the user typed inside
   * the JSON are skipped).
   *
   * @throws IllegalArgumentException when there is no such block or it holds no valid JSON
   */
  public static String extractInputJson(String userText) {
    return ModelJson.extractInputJson(userText, INPUT_OPEN, INPUT_CLOSE);
  }

  /**
   * The JSON text of the input block, or empty when the message has none: a degraded call's
   * user message is the user's plain text, and readers of the conversation must take it as is.
   */
  public static Optional<String> findInputJson(String userText) {
    try {
      return Optional.of(extractInputJson(userText));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /**
   * Parses a model's JSON answer: raw JSON, JSON in a {@code ```json} fence, or a JSON object
   * surrounded by prose (the first {@code {} whose matching {@code }} encloses valid JSON).
   *
   * @throws IllegalArgumentException quoting the start of the text when no JSON is found
   */
  public static JsonNode parseModelJson(String text) {
    return ModelJson.parseModelJson(text);
  }

  private static String variable(JsonNode value) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return "";
    }
    return value.isTextual() ? value.asText() : Json.write(value);
  }
}
