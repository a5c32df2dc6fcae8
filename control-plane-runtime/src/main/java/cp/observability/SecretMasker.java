package cp.observability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.charset.StandardCharsets;
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

  private static final Pattern URL_PASSWORD = Pattern.compile("(?i)[?&]password=([^&]+)");

  private final Object registering = new Object();
  private volatile FragmentIndex index = FragmentIndex.EMPTY;

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
      "(?i).*(token|secret|passw(or)?d|api[_-]?key|auth|credential|cookie|[_-]key$|(^|[_-])(pass|pwd)($|[_-])).*");

  /**
   * Whether a name (an MCP server's environment variable or HTTP header, say) suggests its value is
   * a secret: it mentions a token, secret, password, API key, authorization, credential or cookie,
   * ends in {@code _KEY}, or has {@code PASS} or {@code PWD} as a word ({@code DB_PASS}). Looser than {@link #isSecretVariable}: such values are registered only
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
      index = index.with(label, secret);
    }
    return this;
  }

  /** How many secrets are registered (for {@code cpctl config}). */
  public int registered() {
    return index.count();
  }

  /** {@code text} with every configured secret (or fragment, or encoding) and every secret pattern masked. */
  public String mask(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    // Patterns first: a whole key of a known kind is masked as one, before a configured key of the
    // same kind could match a fragment of it.
    return index.mask(SecretPatterns.mask(text));
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

  @Override
  public String toString() {
    return "SecretMasker[" + index.count() + " configured secrets, " + SecretPatterns.count() + " patterns]";
  }
}
