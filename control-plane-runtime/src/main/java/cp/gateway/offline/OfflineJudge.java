package cp.gateway.offline;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The offline model's stand-in for an eval judge (PRC-JUDGE-*, issue 25): it cannot read a rubric,
 * so it applies one fixed, deterministic rule and says so. A reply passes when it is not blank and
 * contains (ignoring letter case) every phrase the rubric puts in double quotes; the reason names
 * the phrases missing.
 */
public final class OfflineJudge {
  private static final Pattern QUOTED = Pattern.compile("\"([^\"]+)\"");

  private OfflineJudge() {}

  /** {@code {"pass", "reason"}} for {@code reply} under {@code rubric}. */
  public static ObjectNode judge(String rubric, String reply) {
    String r = reply == null ? "" : reply;
    if (r.isBlank()) {
      return verdict(false, "the reply is empty");
    }
    List<String> missing = new ArrayList<>();
    Matcher m = QUOTED.matcher(rubric == null ? "" : rubric);
    String lower = r.toLowerCase(Locale.ROOT);
    while (m.find()) {
      if (!lower.contains(m.group(1).toLowerCase(Locale.ROOT))) {
        missing.add("\"" + m.group(1) + "\"");
      }
    }
    return missing.isEmpty() ? verdict(true, "the reply contains every phrase the rubric quotes")
        : verdict(false, "the reply lacks " + String.join(", ", missing));
  }

  private static ObjectNode verdict(boolean pass, String why) {
    return Json.object().put("pass", pass).put("reason", why + " (offline model: it checks only that the reply"
        + " is not empty and contains the rubric's quoted phrases) " + ReplyComposer.OFFLINE_MARKER);
  }
}
