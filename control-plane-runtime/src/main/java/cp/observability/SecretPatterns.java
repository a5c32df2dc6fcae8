package cp.observability;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The common secret patterns {@link SecretMasker} masks whether configured or not, each with the
 * literals one of which must occur in a text before its regex is worth running (a cheap pre-check:
 * most text holds none). Stateless and thread-safe.
 */
final class SecretPatterns {
  /** The public prefixes of well-known key formats: a configured key's fragments lying wholly inside them are not masked. */
  static final Pattern PUBLIC_PREFIX = Pattern.compile(
      "sk-ant-[a-z]+[0-9]*-|sk-(?:proj|svcacct|admin)-|sk-|gh[pousr]_|github_pat_|xox[abposr]-|AKIA|ASIA");

  /**
   * A pattern of common secrets: its name, literals one of which must occur in the text before the
   * regex is worth running (a cheap pre-check), the regex, and the group kept before the mask.
   */
  private record SecretPattern(String name, List<String> anchors, Pattern regex, int keepGroup) {
    SecretPattern(String name, String anchors, Pattern regex, int keepGroup) {
      this(name, List.of(anchors.split("\\|")), regex, keepGroup);
    }

    boolean worthRunning(String text) {
      for (String a : anchors) {
        if (text.contains(a)) {
          return true;
        }
      }
      return false;
    }
  }

  static final List<SecretPattern> PATTERNS = List.of(
      new SecretPattern("private-key", "PRIVATE KEY", Pattern.compile(
          "-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----[\\s\\S]*?(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----|\\z)"), 0),
      new SecretPattern("anthropic-key", "sk-ant-", Pattern.compile("sk-ant-[A-Za-z0-9_\\-]{8,}"), 0),
      new SecretPattern("openai-key", "sk-",
          Pattern.compile("(?<![A-Za-z0-9_\\-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\\-]{16,}"), 0),
      new SecretPattern("aws-access-key", "AKIA|ASIA", Pattern.compile("\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b"), 0),
      new SecretPattern("github-token", "ghp_|gho_|ghu_|ghs_|ghr_|github_pat_",
          Pattern.compile("\\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})"), 0),
      new SecretPattern("slack-token", "xox", Pattern.compile("\\bxox[abposr]-[A-Za-z0-9\\-]{10,}"), 0),
      new SecretPattern("jwt", "eyJ",
          Pattern.compile("\\beyJ[A-Za-z0-9_\\-]{6,}\\.eyJ[A-Za-z0-9_\\-]{6,}\\.[A-Za-z0-9_\\-]*"), 0),
      new SecretPattern("bearer-token", "earer|EARER",
          Pattern.compile("(?i)\\b(bearer\\s+)(?!\\[masked)[A-Za-z0-9\\-._~+/]{8,}=*"), 1));

  private SecretPatterns() {}

  /** How many patterns there are (for messages). */
  static int count() {
    return PATTERNS.size();
  }

  /** {@code text} with every match of every pattern replaced by {@code [masked:NAME]} (a kept group first). */
  static String mask(String text) {
    String out = text;
    for (SecretPattern p : PATTERNS) {
      if (!p.worthRunning(out)) {
        continue;
      }
      Matcher m = p.regex().matcher(out);
      if (!m.find()) {
        continue;
      }
      StringBuilder sb = new StringBuilder(out.length());
      int last = 0;
      do {
        sb.append(out, last, m.start());
        if (p.keepGroup() > 0) {
          sb.append(m.group(p.keepGroup()));
        }
        sb.append("[masked:").append(p.name()).append(']');
        last = m.end();
      } while (m.find());
      sb.append(out, last, out.length());
      out = sb.toString();
    }
    return out;
  }

}
