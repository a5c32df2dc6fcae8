package cp.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Checks every expectation of a case against one run of it, one {@link ExpectationResult} per
 * expectation key set (named as the suite key is spelt), plus {@code run} when the run itself
 * failed. {@code contains}/{@code not_contains} are case-sensitive substrings of the reply,
 * {@code matches} Java regular expressions found anywhere in it, {@code tools} the tools that ran,
 * in order (a call whose approval was denied or timed out did not run); {@code max_tokens} counts input plus output tokens. The judge is not called here: its
 * verdict comes with the run. Stateless and thread-safe.
 */
public final class ExpectationChecker {
  /** Values quoted in a detail are cut to this many characters, so a table line stays readable. */
  static final int QUOTE_CHARS = 80;

  /** The results, in the order of the expectation keys; empty when nothing is expected and the run succeeded. */
  public List<ExpectationResult> check(EvalCase c, CaseRun run) {
    Expectations x = c.expect();
    String reply = run.reply();
    List<ExpectationResult> out = new ArrayList<>();
    if (run.error() != null) {
      out.add(new ExpectationResult("run", false, "the run failed: " + run.error()));
    }
    if (x.schemaValid() != null) {
      out.add(new ExpectationResult("schema_valid", run.schemaValid() == x.schemaValid(),
          "expected " + x.schemaValid() + ", the output was " + (run.schemaValid() ? "" : "not ") + "schema-valid"));
    }
    if (x.gatePasses() != null) {
      out.add(new ExpectationResult("gate_passes", run.gatePassed() == x.gatePasses(),
          "expected " + x.gatePasses() + ", the quality gate " + (run.gatePassed() ? "passed" : "did not pass")));
    }
    if (x.tools() != null) {
      List<String> called = run.toolsCalled().stream().map(RecordedToolCall::tool).toList();
      out.add(new ExpectationResult("tools", called.equals(x.tools()),
          "expected " + x.tools() + ", ran " + called + (run.notApprovedToolCalls().isEmpty() ? ""
              : " (not run, approval denied or timed out: " + String.join(", ", run.notApprovedToolCalls()) + ")")));
    }
    if (x.contains() != null) {
      List<String> absent = x.contains().stream().filter(s -> !reply.contains(s)).toList();
      out.add(new ExpectationResult("contains", absent.isEmpty(), absent.isEmpty()
          ? "the reply contains " + quoteAll(x.contains()) : "not in the reply: " + quoteAll(absent)));
    }
    if (x.notContains() != null) {
      List<String> present = x.notContains().stream().filter(reply::contains).toList();
      out.add(new ExpectationResult("not_contains", present.isEmpty(), present.isEmpty()
          ? "the reply contains none of " + quoteAll(x.notContains()) : "in the reply: " + quoteAll(present)));
    }
    if (x.matches() != null) {
      List<String> unmatched = new ArrayList<>();
      for (String regex : x.matches()) {
        if (!pattern(c, regex).matcher(reply).find()) {
          unmatched.add(regex);
        }
      }
      out.add(new ExpectationResult("matches", unmatched.isEmpty(), unmatched.isEmpty()
          ? "the reply matches " + quoteAll(x.matches()) : "the reply does not match " + quoteAll(unmatched)));
    }
    if (x.maxCostUsd() != null) {
      out.add(run.costUsd() == null
          ? new ExpectationResult("max_cost_usd", false, "the run's cost is unknown (its model has no price), the"
              + " limit is " + usd(x.maxCostUsd()))
          : new ExpectationResult("max_cost_usd", run.costUsd() <= x.maxCostUsd(),
              "cost " + usd(run.costUsd()) + ", at most " + usd(x.maxCostUsd())));
    }
    if (x.maxTokens() != null) {
      out.add(new ExpectationResult("max_tokens", run.totalTokens() <= x.maxTokens(),
          run.totalTokens() + " tokens (" + run.inputTokens() + " in / " + run.outputTokens() + " out), at most "
              + x.maxTokens()));
    }
    if (x.judge() != null) {
      out.add(run.judge() == null
          ? new ExpectationResult("judge", false, "a judge was asked for (" + quote(x.judge()) + ") but the run"
              + " has no verdict")
          : new ExpectationResult("judge", run.judge().pass(), (run.judge().pass() ? "passed: " : "failed: ")
              + run.judge().reason()));
    }
    return out;
  }

  /** The case's {@code matches} patterns compiled, or a usage error naming the case. */
  static Pattern pattern(EvalCase c, String regex) {
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("case " + c.id() + ": expect.matches " + quote(regex)
          + " is not a valid Java regular expression: " + e.getDescription());
    }
  }

  static String usd(double v) {
    return String.format(Locale.ROOT, "$%.4f", v);
  }

  private static String quoteAll(List<String> values) {
    return String.join(", ", values.stream().map(ExpectationChecker::quote).toList());
  }

  static String quote(String s) {
    String one = s.replace("\n", "\\n");
    return "\"" + (one.length() <= QUOTE_CHARS ? one : one.substring(0, QUOTE_CHARS) + "…") + "\"";
  }
}
