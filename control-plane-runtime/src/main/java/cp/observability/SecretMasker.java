package cp.observability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks secrets in text before it is recorded anywhere (issue 20 §1 "Secrets in part"): ledger
 * entries, span attributes, log lines and what {@code cpctl show} / {@code ledger query} print.
 *
 * <p>Two kinds of secret are found:
 * <ul>
 *   <li><b>configured secrets</b> ({@link #register}: API keys, the ledger database password, the
 *       chain and payload keys, later MCP server env and header values) by value, including any
 *       fragment of {@link #MIN_FRAGMENT} or more characters ({@link #MIN_HEX_FRAGMENT} for a
 *       secret made of hex digits only, whose short runs occur by chance in hashes), and the same
 *       for their base64 (standard and URL alphabet, at each of the three byte alignments, so the
 *       key inside {@code base64("user:" + key)} is found too) and URL-encoded forms. A provider
 *       echoing "…the last 12 characters of your key" is masked; so is the key without its prefix.
 *       Secrets shorter than {@link #MIN_SECRET} are not masked by value (their text would match
 *       ordinary words); they are too short to be secret anyway.
 *   <li><b>patterns</b> of common secrets, whether configured or not: Anthropic and OpenAI keys
 *       ({@code sk-ant-…}, {@code sk-…}), AWS access key ids ({@code AKIA…}, {@code ASIA…}), GitHub
 *       tokens ({@code ghp_…}, {@code github_pat_…}), Slack tokens ({@code xox…}), JWTs, PEM private
 *       keys and {@code Bearer …} credentials.
 * </ul>
 * A masked run becomes {@code [masked:NAME]}, NAME the secret's variable or the pattern's name,
 * never any of its characters. Masking is idempotent: masked text masks to itself.
 *
 * <p>Thread safety: {@link #mask} may run on any thread at any time; {@link #register} publishes a
 * new immutable index, so a call to {@code mask} sees the secrets registered before it started.
 */
public final class SecretMasker {
  /** The shortest fragment of a configured secret that is masked: about 48 bits of a random key. */
  public static final int MIN_FRAGMENT = 8;
  /** The same for a secret of hex digits only: 12 of them carry 48 bits, 8 occur by chance in hashes. */
  public static final int MIN_HEX_FRAGMENT = 12;
  /** Configured values shorter than this are not masked by value (they would match ordinary words). */
  public static final int MIN_SECRET = 8;
  /** Environment variables whose values are secrets, besides those {@link #SECRET_SUFFIXES} name. */
  public static final List<String> SECRET_VARIABLES = List.of("ANTHROPIC_API_KEY", "OPENAI_API_KEY",
      "TEMPORAL_API_KEY", "CP_LEDGER_PASSWORD", "CP_LEDGER_HMAC_KEY", "CP_PAYLOAD_KEY");
  /** Any variable whose name ends so holds a secret (e.g. a future {@code MCP_GITHUB_TOKEN}). */
  public static final List<String> SECRET_SUFFIXES = List.of("_API_KEY", "_PASSWORD", "_TOKEN", "_SECRET",
      "_HMAC_KEY", "_PAYLOAD_KEY");

  /** The public prefixes of well-known key formats: fragments lying wholly inside them are not masked. */
  private static final Pattern PUBLIC_PREFIX = Pattern.compile(
      "sk-ant-[a-z]+[0-9]*-|sk-(?:proj|svcacct|admin)-|sk-|gh[pousr]_|github_pat_|xox[abposr]-|AKIA|ASIA");
  private static final Pattern URL_PASSWORD = Pattern.compile("(?i)[?&]password=([^&]+)");

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

  private static final List<SecretPattern> PATTERNS = List.of(
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

  /**
   * The registered secrets' fragments, by window length: rolling hash → fragments with that hash,
   * and the same hashes in an open-addressing table ({@link LongSet}) the scan probes without boxing.
   */
  private record Index(Map<Integer, Map<Long, List<Fragment>>> byLength, Map<Integer, LongSet> hashes, int count) {
    static final Index EMPTY = new Index(Map.of(), Map.of(), 0);
  }

  /** A set of longs in one array (linear probing; 0 marks a free slot, so 0 itself is kept apart). */
  private static final class LongSet {
    private final long[] slots;
    private final boolean zero;

    LongSet(java.util.Collection<Long> values) {
      int cap = Integer.highestOneBit(Math.max(4, values.size() * 4) - 1) << 1;
      slots = new long[cap];
      boolean z = false;
      for (long v : values) {
        if (v == 0) {
          z = true;
          continue;
        }
        int i = mix(v) & (cap - 1);
        while (slots[i] != 0 && slots[i] != v) {
          i = (i + 1) & (cap - 1);
        }
        slots[i] = v;
      }
      zero = z;
    }

    boolean contains(long v) {
      if (v == 0) {
        return zero;
      }
      int i = mix(v) & (slots.length - 1);
      while (slots[i] != 0) {
        if (slots[i] == v) {
          return true;
        }
        i = (i + 1) & (slots.length - 1);
      }
      return false;
    }

    private static int mix(long v) {
      long h = v * 0x9E3779B97F4A7C15L;
      return (int) (h ^ (h >>> 32));
    }
  }

  private record Fragment(String text, String label) {}

  private final Object registering = new Object();
  private volatile Index index = Index.EMPTY;

  /** A masker with the patterns only (until secrets are {@link #register registered}). */
  public SecretMasker() {}

  /**
   * A masker for the secrets in {@code env}: every variable of {@link #SECRET_VARIABLES} or ending in
   * one of {@link #SECRET_SUFFIXES}, and the {@code password=} parameter of {@code CP_LEDGER_URL}.
   */
  public static SecretMasker fromEnv(Map<String, String> env) {
    SecretMasker m = new SecretMasker();
    env.forEach((name, value) -> {
      if (isSecretVariable(name)) {
        m.register(name, value);
      }
    });
    String url = env.get("CP_LEDGER_URL");
    if (url != null) {
      Matcher pw = URL_PASSWORD.matcher(url);
      while (pw.find()) {
        m.register("CP_LEDGER_URL password", java.net.URLDecoder.decode(pw.group(1), StandardCharsets.UTF_8));
      }
    }
    return m;
  }

  /** Whether an environment variable of this name holds a secret (see {@link #fromEnv}). */
  public static boolean isSecretVariable(String name) {
    if (SECRET_VARIABLES.contains(name)) {
      return true;
    }
    String upper = name.toUpperCase(Locale.ROOT);
    return SECRET_SUFFIXES.stream().anyMatch(upper::endsWith);
  }

  private static final Pattern SECRET_NAME = Pattern.compile(
      "(?i).*(token|secret|passw(or)?d|api[_-]?key|auth|credential|cookie|[_-]key$).*");

  /**
   * Whether a name (an MCP server's environment variable or HTTP header, say) suggests its value is
   * a secret: it mentions a token, secret, password, API key, authorization, credential or cookie,
   * or ends in {@code _KEY}. Looser than {@link #isSecretVariable}: such values are registered only
   * for the service they belong to.
   */
  public static boolean looksSecretName(String name) {
    return name != null && SECRET_NAME.matcher(name).matches();
  }

  /**
   * Masks {@code value} (and its fragments and encodings) from now on, named {@code label} in the
   * masked text (a variable name, e.g. {@code ANTHROPIC_API_KEY}; never the value). Blank values and
   * values shorter than {@link #MIN_SECRET} are ignored. Returns this masker.
   */
  public SecretMasker register(String label, String value) {
    Objects.requireNonNull(label, "label");
    if (value == null || value.strip().length() < MIN_SECRET) {
      return this;
    }
    String secret = value.strip();
    synchronized (registering) {
      Map<Integer, Map<Long, List<Fragment>>> byLength = new HashMap<>();
      index.byLength().forEach((k, v) -> {
        Map<Long, List<Fragment>> copy = new HashMap<>();
        v.forEach((h, list) -> copy.put(h, new ArrayList<>(list)));
        byLength.put(k, copy);
      });
      for (String form : forms(secret)) {
        int k = form.chars().allMatch(c -> Character.digit(c, 16) >= 0) ? MIN_HEX_FRAGMENT : MIN_FRAGMENT;
        if (form.length() < k) {
          continue;
        }
        Map<Long, List<Fragment>> grams = byLength.computeIfAbsent(k, x -> new HashMap<>());
        // A key's public prefix (sk-ant-api03-) is not secret: every key of its kind starts so.
        Matcher prefix = PUBLIC_PREFIX.matcher(form);
        int firstSecret = prefix.lookingAt() ? prefix.end() : 0;
        for (int i = Math.max(0, firstSecret - k + 1); i + k <= form.length(); i++) {
          String gram = form.substring(i, i + k);
          List<Fragment> list = grams.computeIfAbsent(hash(gram, 0, k), x -> new ArrayList<>());
          if (list.stream().noneMatch(f -> f.text().equals(gram))) {
            list.add(new Fragment(gram, label));
          }
        }
      }
      Map<Integer, LongSet> hashes = new HashMap<>();
      byLength.forEach((k, grams) -> hashes.put(k, new LongSet(grams.keySet())));
      index = new Index(byLength, hashes, index.count() + 1);
    }
    return this;
  }

  /** How many secrets are registered (for {@code cpctl config}). */
  public int registered() {
    return index.count();
  }

  /** The secret's forms that may appear in text: itself, base64 (both alphabets, three alignments), URL-encoded. */
  static List<String> forms(String secret) {
    List<String> out = new ArrayList<>();
    out.add(secret);
    byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
    for (int shift = 0; shift < 3 && shift < bytes.length; shift++) {
      byte[] tail = java.util.Arrays.copyOfRange(bytes, shift, bytes.length);
      String b64 = Base64.getEncoder().withoutPadding().encodeToString(tail);
      // The last group mixes in whatever byte follows the secret in the encoded text: leave it out.
      int whole = (tail.length / 3) * 4;
      String stable = b64.substring(0, whole);
      out.add(stable);
      out.add(stable.replace('+', '-').replace('/', '_'));
    }
    String url = URLEncoder.encode(secret, StandardCharsets.UTF_8);
    if (!url.equals(secret)) {
      out.add(url);
    }
    return out.stream().distinct().toList();
  }

  /** {@code text} with every configured secret (or fragment, or encoding) and every secret pattern masked. */
  public String mask(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    // Patterns first: a whole key of a known kind is masked as one, before a configured key of the
    // same kind could match a fragment of it.
    return maskValues(maskPatterns(text));
  }

  /**
   * A copy of {@code node} with every text value masked (field names are kept: they are ours);
   * {@code onMasked} hears the JSON pointer and the unmasked text of each value that changed.
   * Returns {@code node} itself when nothing changed.
   */
  public JsonNode mask(JsonNode node, BiConsumer<String, String> onMasked) {
    return walk(node, "", onMasked);
  }

  private JsonNode walk(JsonNode node, String pointer, BiConsumer<String, String> onMasked) {
    if (node == null) {
      return null;
    }
    if (node.isTextual()) {
      String before = node.textValue();
      String after = mask(before);
      if (after.equals(before)) {
        return node;
      }
      onMasked.accept(pointer, before);
      return TextNode.valueOf(after);
    }
    if (node.isObject()) {
      ObjectNode copy = null;
      var fields = node.fields();
      while (fields.hasNext()) {
        var f = fields.next();
        JsonNode v = walk(f.getValue(), pointer + "/" + escape(f.getKey()), onMasked);
        if (v != f.getValue()) {
          if (copy == null) {
            copy = ((ObjectNode) node).deepCopy();
          }
          copy.set(f.getKey(), v);
        }
      }
      return copy == null ? node : copy;
    }
    if (node.isArray()) {
      ArrayNode copy = null;
      for (int i = 0; i < node.size(); i++) {
        JsonNode v = walk(node.get(i), pointer + "/" + i, onMasked);
        if (v != node.get(i)) {
          if (copy == null) {
            copy = ((ArrayNode) node).deepCopy();
          }
          copy.set(i, v);
        }
      }
      return copy == null ? node : copy;
    }
    return node;
  }

  /** A JSON pointer token (RFC 6901): {@code ~} and {@code /} escaped. */
  private static String escape(String key) {
    return key.replace("~", "~0").replace("/", "~1");
  }

  /** Whether {@link #mask} would change {@code text}. */
  public boolean masks(String text) {
    return text != null && !text.equals(mask(text));
  }

  private String maskValues(String text) {
    Index idx = index;
    if (idx.count() == 0) {
      return text;
    }
    int n = text.length();
    int[] end = null; // end[i] > i: the run starting at i to be masked ends there
    String[] label = null;
    for (Map.Entry<Integer, Map<Long, List<Fragment>>> e : idx.byLength().entrySet()) {
      int k = e.getKey();
      if (n < k) {
        continue;
      }
      Map<Long, List<Fragment>> grams = e.getValue();
      LongSet present = idx.hashes().get(k);
      long pow = 1;
      for (int i = 0; i < k - 1; i++) {
        pow *= PRIME;
      }
      long h = hash(text, 0, k);
      for (int i = 0; ; i++) {
        List<Fragment> hits = present.contains(h) ? grams.get(h) : null;
        if (hits != null) {
          for (Fragment f : hits) {
            if (text.regionMatches(i, f.text(), 0, k)) {
              if (end == null) {
                end = new int[n];
                label = new String[n];
              }
              if (end[i] < i + k) {
                end[i] = i + k;
                if (label[i] == null) {
                  label[i] = f.label();
                }
              }
              break;
            }
          }
        }
        if (i + k >= n) {
          break;
        }
        h = (h - text.charAt(i) * pow) * PRIME + text.charAt(i + k);
      }
    }
    if (end == null) {
      return text;
    }
    StringBuilder sb = new StringBuilder(n);
    int i = 0;
    while (i < n) {
      if (end[i] > i) {
        int runEnd = end[i];
        String name = label[i];
        for (int j = i; j < runEnd; j++) {
          runEnd = Math.max(runEnd, end[j]);
        }
        sb.append("[masked:").append(name).append(']');
        i = runEnd;
      } else {
        sb.append(text.charAt(i++));
      }
    }
    return sb.toString();
  }

  private static String maskPatterns(String text) {
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

  private static final long PRIME = 1_000_003L;

  /** Polynomial hash of {@code s[from, from+k)} (wrapping on overflow), the same the rolling update computes. */
  private static long hash(String s, int from, int k) {
    long h = 0;
    for (int i = from; i < from + k; i++) {
      h = h * PRIME + s.charAt(i);
    }
    return h;
  }

  @Override
  public String toString() {
    return "SecretMasker[" + index.count() + " configured secrets, " + PATTERNS.size() + " patterns]";
  }
}
