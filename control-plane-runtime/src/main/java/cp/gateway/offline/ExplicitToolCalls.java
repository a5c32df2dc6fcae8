package cp.gateway.offline;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.gateway.ArgumentValidator;
import cp.model.Json;
import cp.model.ToolDefinition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one form in which a user's words make the offline model call any tool it is offered:
 * {@code call <tool> <JSON object>}, e.g. {@code call write_file {"path": "HO2/notes.txt",
 * "content": "hi"}}; a tool without arguments may be called as {@code call list_packages}.
 *
 * <p>Rules, deterministic: {@code call} is a whole word (any letter case), then the tool's name
 * ({@code [A-Za-z0-9_.-]}, so MCP-style names with hyphens work). It counts as a call when the
 * name is one of the offered tools, or when a {@code {} follows it (then an unknown name is
 * reported, not ignored); "call me later" is ordinary prose. The JSON object starts at the first
 * character after the name that is not a space and ends where the object ends; the text after
 * it may hold further calls. The arguments must parse as one JSON object and satisfy the tool's
 * input schema. Every form found is reported, in order: a {@link ToolCall} when it is good, else
 * a one-sentence problem (the JSON does not parse, the tool is not offered, the arguments break
 * the schema) that the offline model answers with instead of calling anything.
 */
public final class ExplicitToolCalls {
  /** The word that starts the form. */
  public static final String VERB = "call";
  /** Longest tool name looked at: the providers' limit for tool names. */
  static final int MAX_NAME_CHARS = 64;
  private static final Pattern FORM = Pattern.compile("(?i)(?<![\\w-])" + VERB + "\\s+([A-Za-z0-9_][A-Za-z0-9_.-]{0,"
      + (MAX_NAME_CHARS - 1) + "})");

  /** What the user's words asked for: calls to make, or problems to explain (then nothing is called). */
  public record Parsed(List<ToolCall> calls, List<String> problems) {
    /** No form at all. */
    public static final Parsed NONE = new Parsed(List.of(), List.of());

    public Parsed {
      calls = List.copyOf(calls);
      problems = List.copyOf(problems);
    }

    /** True when the words hold no {@code call} form at all (the keyword rules apply then). */
    public boolean none() {
      return calls.isEmpty() && problems.isEmpty();
    }
  }

  private ExplicitToolCalls() {}

  /** Every {@code call} form in {@code text}, checked against the {@code offered} tools' schemas. */
  public static Parsed parse(String text, List<ToolDefinition> offered, ArgumentValidator schemas) {
    Map<String, ToolDefinition> byName = new LinkedHashMap<>();
    offered.forEach(t -> byName.put(t.name(), t));
    List<ToolCall> calls = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    Matcher m = FORM.matcher(text);
    int from = 0;
    while (from < text.length() && m.find(from)) {
      String name = m.group(1);
      int at = skipSpaces(text, m.end());
      boolean braces = at < text.length() && text.charAt(at) == '{';
      ToolDefinition tool = byName.get(name);
      from = m.end();
      if (tool == null) {
        if (braces) {
          problems.add("there is no tool '" + name + "' to call (offered: " + (byName.isEmpty() ? "none"
              : String.join(", ", byName.keySet())) + ")");
        }
        continue;
      }
      ObjectNode args;
      if (braces) {
        JsonNode value;
        try (JsonParser p = Json.MAPPER.getFactory().createParser(text.substring(at))) {
          value = Json.MAPPER.readTree(p);
          from = at + (int) p.currentLocation().getCharOffset();
        } catch (JsonProcessingException e) {
          problems.add("the arguments after '" + VERB + " " + name + "' are not valid JSON (" + firstLine(
              e.getOriginalMessage()) + "); write them as one JSON object, e.g. " + VERB + " " + name + " "
              + example(tool));
          from = text.length();
          continue;
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
        if (!(value instanceof ObjectNode object)) {
          problems.add("the arguments after '" + VERB + " " + name + "' must be a JSON object");
          continue;
        }
        args = object;
      } else {
        args = Json.object();
      }
      List<String> violations = schemas.violations(tool.inputSchema(), args);
      if (!violations.isEmpty()) {
        problems.add("the arguments for " + name + " do not fit its schema: " + String.join("; ", violations)
            + "; e.g. " + VERB + " " + name + " " + example(tool));
        continue;
      }
      calls.add(new ToolCall(name, args));
    }
    return new Parsed(calls, problems);
  }

  /** A JSON object naming each required property of the tool's schema with a placeholder of its type. */
  static String example(ToolDefinition tool) {
    ObjectNode example = Json.object();
    JsonNode properties = tool.inputSchema().path("properties");
    for (JsonNode required : tool.inputSchema().path("required")) {
      String type = properties.path(required.asText()).path("type").asText("string");
      switch (type) {
        case "integer", "number" -> example.put(required.asText(), 1);
        case "boolean" -> example.put(required.asText(), true);
        default -> example.put(required.asText(), "...");
      }
    }
    return Json.write(example);
  }

  private static int skipSpaces(String text, int i) {
    while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
      i++;
    }
    return i;
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "unreadable";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
