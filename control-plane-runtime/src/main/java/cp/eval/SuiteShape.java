package cp.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import cp.model.Json;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Checks the shape of a parsed suite file and binds it to an {@link EvalSuite}.
 *
 * <p>The keys a user edits by hand are checked strictly: unknown top-level, case and
 * {@code expect} keys are refused (a misspelt expectation would otherwise never be checked), every
 * {@code expect} value has its type, and every {@code matches} pattern must compile. The known keys
 * are the records' own components, so a field added to a record is known here too. What freeze
 * wrote ({@code input}, {@code recorded}, {@code cites}) is bound leniently: {@code verify} proves it.
 */
final class SuiteShape {
  private static final Set<String> SUITE_KEYS = keysOf(EvalSuite.class);
  private static final Set<String> CASE_KEYS = keysOf(EvalCase.class);
  private static final Set<String> EXPECT_KEYS = keysOf(Expectations.class);
  private static final Set<String> BOOLEAN_EXPECTS = Set.of("schema_valid", "gate_passes");
  private static final Set<String> LIST_EXPECTS = Set.of("tools", "contains", "not_contains", "matches");

  private final String file;

  SuiteShape(String file) {
    this.file = file;
  }

  EvalSuite bind(JsonNode root) {
    if (root == null || root.isMissingNode() || root.isNull()) {
      throw problem("", "is empty: expected a suite ({\"cases\": [...]})");
    }
    if (!root.isObject()) {
      throw problem("", "must be a mapping with the key cases, not " + kind(root));
    }
    unknownKeys(root, "", SUITE_KEYS);
    int version = EvalSuite.CURRENT_VERSION;
    JsonNode v = root.get("suite_version");
    if (v != null && !v.isNull()) {
      if (!v.isIntegralNumber() || v.asInt() < 1) {
        throw problem("suite_version", "must be a whole number >= 1, got " + v);
      }
      if (v.asInt() > EvalSuite.CURRENT_VERSION) {
        throw problem("suite_version", v.asInt() + " was written by a newer cpctl; this one reads up to "
            + EvalSuite.CURRENT_VERSION);
      }
      version = v.asInt();
    }
    JsonNode frozenAt = root.get("frozen_at");
    if (frozenAt != null && !frozenAt.isNull() && !frozenAt.isTextual()) {
      throw problem("frozen_at", "must be a text (an ISO-8601 instant), got " + kind(frozenAt));
    }
    JsonNode cases = root.get("cases");
    if (cases == null || cases.isNull()) {
      throw problem("cases", "is required: the list of cases");
    }
    if (!cases.isArray()) {
      throw problem("cases", "must be a list of cases, not " + kind(cases));
    }
    if (cases.isEmpty()) {
      // An empty suite would pass in CI without checking anything (a freeze that went wrong, a bad edit).
      throw problem("cases", "is empty: a suite needs at least one case");
    }
    List<EvalCase> bound = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < cases.size(); i++) {
      EvalCase c = bindCase(cases.get(i), i);
      if (!ids.add(c.id())) {
        throw problem("cases[" + i + "].id", "\"" + c.id() + "\" is the id of an earlier case too; ids must be unique");
      }
      bound.add(c);
    }
    List<String> unverified = new ArrayList<>();
    JsonNode u = root.get("frozen_from_unverified_ledger");
    if (u != null && !u.isNull()) {
      checkTexts(u, "frozen_from_unverified_ledger");
      u.forEach(n -> unverified.add(n.asText()));
    }
    return new EvalSuite(version, frozenAt == null || frozenAt.isNull() ? null : frozenAt.asText(), unverified, bound);
  }

  private EvalCase bindCase(JsonNode node, int index) {
    String at = "cases[" + index + "]";
    if (node == null || !node.isObject()) {
      throw problem(at, "must be a mapping (id, input, recorded, cites, expect), not " + kind(node));
    }
    JsonNode id = node.get("id");
    if (id == null || !id.isTextual() || id.asText().isBlank()) {
      throw problem(at + ".id", "is required: a non-empty text");
    }
    at = at + " (" + id.asText() + ")";
    unknownKeys(node, at, CASE_KEYS);
    JsonNode input = node.get("input");
    if (input == null || !input.isObject()) {
      throw problem(at + ".input", "is required: a mapping with at least text");
    }
    JsonNode text = input.get("text");
    if (text == null || !text.isTextual()) {
      throw problem(at + ".input.text", "is required: the user's text");
    }
    // A hand-written case (nothing recorded) whose text the session would refuse as a turn (empty, control
    // characters) is refused here, before anything runs; a frozen one is as the ledger recorded it.
    JsonNode recorded = node.get("recorded");
    java.util.Optional<String> bad = recorded == null || recorded.isNull()
        ? cp.workflows.TurnText.problem(text.asText(), 0, "") : java.util.Optional.empty();
    if (bad.isPresent()) {
      throw problem(at + ".input.text", "is not a message a turn accepts: " + bad.get());
    }
    JsonNode agentClass = input.get("agent_class");
    if (agentClass != null && !agentClass.isNull()) {
      // Run as written upper-case (CaseExecution), so "admin" is ADMIN.
      if (!agentClass.isTextual() || !cp.model.AgentClassName.isValid(agentClass.asText().strip()
          .toUpperCase(java.util.Locale.ROOT))) {
        throw problem(at + ".input.agent_class", "must be an agent class name (letters, digits and _, starting with"
            + " a letter, e.g. ADMIN), got " + agentClass);
      }
    }
    requireObjectOrAbsent(node, "recorded", at);
    JsonNode cites = node.get("cites");
    if (cites != null && !cites.isNull() && !cites.isArray()) {
      throw problem(at + ".cites", "must be a list of ledger entries, not " + kind(cites));
    }
    JsonNode expect = node.get("expect");
    if (expect != null && !expect.isNull()) {
      checkExpect(expect, at + ".expect");
    }
    try {
      return Json.MAPPER.treeToValue(node, EvalCase.class);
    } catch (Exception e) {
      throw problem(at, "cannot be read as a case: " + SuiteFiles.oneLine(e.getMessage()));
    }
  }

  private void checkExpect(JsonNode expect, String at) {
    if (!expect.isObject()) {
      throw problem(at, "must be a mapping of expectations (" + String.join(", ", EXPECT_KEYS) + "), not "
          + kind(expect));
    }
    unknownKeys(expect, at, EXPECT_KEYS);
    for (Iterator<String> it = expect.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      JsonNode value = expect.get(key);
      String where = at + "." + key;
      if (value.isNull()) {
        continue;
      }
      if (BOOLEAN_EXPECTS.contains(key) && !value.isBoolean()) {
        throw problem(where, "must be true or false, got " + value);
      }
      if (LIST_EXPECTS.contains(key)) {
        checkTexts(value, where);
        if ("matches".equals(key)) {
          checkPatterns(value, where);
        }
      }
      if ("max_cost_usd".equals(key) && (!value.isNumber() || value.asDouble() < 0)) {
        throw problem(where, "must be a number of US dollars >= 0, got " + value);
      }
      if ("max_tokens".equals(key) && (!value.isIntegralNumber() || value.asLong() < 0)) {
        throw problem(where, "must be a whole number of tokens >= 0, got " + value);
      }
      if ("judge".equals(key) && (!value.isTextual() || value.asText().isBlank())) {
        throw problem(where, "must be a non-empty text (the rubric for the judge), got " + value);
      }
    }
  }

  private void checkTexts(JsonNode value, String where) {
    if (!value.isArray()) {
      throw problem(where, "must be a list of texts, got " + kind(value) + " " + value);
    }
    for (int i = 0; i < value.size(); i++) {
      if (!value.get(i).isTextual()) {
        throw problem(where + "[" + i + "]", "must be a text, got " + value.get(i));
      }
    }
  }

  private void checkPatterns(JsonNode value, String where) {
    for (int i = 0; i < value.size(); i++) {
      try {
        Pattern.compile(value.get(i).asText());
      } catch (PatternSyntaxException e) {
        throw problem(where + "[" + i + "]", "is not a valid Java regular expression: " + e.getDescription()
            + " near index " + e.getIndex() + " of " + value.get(i));
      }
    }
  }

  private void requireObjectOrAbsent(JsonNode node, String key, String at) {
    JsonNode value = node.get(key);
    if (value != null && !value.isNull() && !value.isObject()) {
      throw problem(at + "." + key, "must be a mapping, not " + kind(value));
    }
  }

  private void unknownKeys(JsonNode node, String at, Set<String> known) {
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!known.contains(key)) {
        throw problem(at.isEmpty() ? key : at + "." + key, "unknown key (known here: " + String.join(", ", known) + ")");
      }
    }
  }

  private SuiteFileException problem(String key, String what) {
    return new SuiteFileException(file, key, what);
  }

  private static String kind(JsonNode node) {
    return node == null ? "nothing" : node.getNodeType().name().toLowerCase(Locale.ROOT);
  }

  /** The JSON keys of a record: its components in snake_case, in declaration order. */
  private static Set<String> keysOf(Class<? extends Record> type) {
    var snake = (PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.SNAKE_CASE;
    Set<String> keys = new LinkedHashSet<>();
    Arrays.stream(type.getRecordComponents()).forEach(c -> keys.add(snake.translate(c.getName())));
    return java.util.Collections.unmodifiableSet(keys);
  }
}
