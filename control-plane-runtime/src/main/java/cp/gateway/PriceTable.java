package cp.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What each model's tokens cost (issue 23): the shipped list prices ({@code cp/gateway/prices.json}),
 * overridden and extended model by model by {@code CP_PRICES_FILE}; for a model in neither, the
 * price its provider was given ({@code CP_PRICE_INPUT_PER_MTOK}/{@code CP_PRICE_OUTPUT_PER_MTOK}).
 * A model with no price at all has an unknown cost.
 *
 * <p>A model id matches its own entry, else the longest entry it starts with followed by
 * {@code -}: a dated id ({@code claude-sonnet-4-5-20250929}) takes its family's price.
 */
public final class PriceTable {
  /** The variable naming a JSON or YAML file of prices by model. */
  public static final String PRICES_FILE = "CP_PRICES_FILE";
  public static final String PRICE_INPUT = "CP_PRICE_INPUT_PER_MTOK";
  public static final String PRICE_OUTPUT = "CP_PRICE_OUTPUT_PER_MTOK";
  static final String RESOURCE = "/cp/gateway/prices.json";
  static final String INPUT = "input_per_mtok";
  static final String OUTPUT = "output_per_mtok";
  static final String CACHE_READ = "cache_read_per_mtok";
  static final String CACHE_WRITE = "cache_write_per_mtok";
  private static final Set<String> KEYS = Set.of(INPUT, OUTPUT, CACHE_READ, CACHE_WRITE);

  private final Map<String, Pricing> byModel;
  private final Map<String, Pricing> byProvider;

  private PriceTable(Map<String, Pricing> byModel, Map<String, Pricing> byProvider) {
    this.byModel = Map.copyOf(byModel);
    this.byProvider = Map.copyOf(byProvider);
  }

  /** No model prices; each provider's tokens at the price given for it (tests, embedders). */
  public static PriceTable byProvider(Map<String, Pricing> prices) {
    return new PriceTable(Map.of(), prices);
  }

  /** The shipped list prices. */
  public static PriceTable shipped() {
    try (InputStream in = PriceTable.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the price table " + RESOURCE + " is missing from the classpath");
      }
      return new PriceTable(parse(new ObjectMapper().readTree(in), RESOURCE), Map.of());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the price table " + RESOURCE, e);
    }
  }

  /**
   * The shipped prices, {@code CP_PRICES_FILE}'s over them, and {@code CP_PRICE_*} as the price of
   * {@code providerId}'s models found in neither.
   *
   * @throws ProviderConfigException naming the variable (and the file's model and key) that is wrong
   */
  public static PriceTable fromEnv(Map<String, String> env, String providerId) {
    Map<String, Pricing> models = new LinkedHashMap<>(shipped().byModel);
    String file = env.get(PRICES_FILE);
    if (file != null && !file.isBlank()) {
      models.putAll(readFile(Path.of(file.trim())));
    }
    Map<String, Pricing> providers = new LinkedHashMap<>();
    // The offline provider answers by rules, on this machine: whatever model it reports, it costs nothing.
    providers.put(OfflineProvider.ID, Pricing.FREE);
    Optional<Double> in = decimal(env, PRICE_INPUT);
    Optional<Double> out = decimal(env, PRICE_OUTPUT);
    if (in.isPresent() || out.isPresent()) {
      providers.put(providerId, new Pricing(in.orElse(0.0), out.orElse(0.0)));
    }
    return new PriceTable(models, providers);
  }

  /** This table with {@code pricing} for {@code providerId}'s unlisted models. */
  public PriceTable withProvider(String providerId, Pricing pricing) {
    Map<String, Pricing> providers = new LinkedHashMap<>(byProvider);
    providers.put(providerId, pricing);
    return new PriceTable(byModel, providers);
  }

  /** The price of {@code model} as sent to or answered by {@code providerId}; empty when unknown. */
  public Optional<Pricing> forModel(String providerId, String model) {
    if (model != null && !model.isBlank()) {
      String id = model.toLowerCase(Locale.ROOT);
      Pricing exact = byModel.get(id);
      if (exact != null) {
        return Optional.of(exact);
      }
      String best = null;
      for (String key : byModel.keySet()) {
        if (id.startsWith(key + "-") && (best == null || key.length() > best.length())) {
          best = key;
        }
      }
      if (best != null) {
        return Optional.of(byModel.get(best));
      }
    }
    return Optional.ofNullable(providerId == null ? null : byProvider.get(providerId));
  }

  /** How many models have a price of their own. */
  public int models() {
    return byModel.size();
  }

  /** The price given for {@code providerId}'s unlisted models, if any. */
  public Optional<Pricing> providerDefault(String providerId) {
    return Optional.ofNullable(byProvider.get(providerId));
  }

  private static Map<String, Pricing> readFile(Path file) {
    JsonNode root = ConfigFiles.read(PRICES_FILE, file);
    try {
      return parse(root, PRICES_FILE + "=" + file);
    } catch (IllegalArgumentException e) {
      throw new ProviderConfigException(PRICES_FILE, e.getMessage());
    }
  }

  /** {@code {"<model>": {"input_per_mtok": 3.0, "output_per_mtok": 15.0, ...}}}; keys starting with _ are comments. */
  static Map<String, Pricing> parse(JsonNode root, String where) {
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(where + ": expected an object of prices by model, e.g. {\"claude-sonnet-4-5\":"
          + " {\"" + INPUT + "\": 3.0, \"" + OUTPUT + "\": 15.0}}");
    }
    Map<String, Pricing> out = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getKey().startsWith("_")) {
        continue;
      }
      out.put(e.getKey().toLowerCase(Locale.ROOT), pricing(e.getValue(), where + ": " + e.getKey()));
    }
    return out;
  }

  private static Pricing pricing(JsonNode p, String where) {
    if (!p.isObject()) {
      throw new IllegalArgumentException(where + ": expected an object with " + INPUT + " and " + OUTPUT);
    }
    p.fieldNames().forEachRemaining(k -> {
      if (!KEYS.contains(k)) {
        throw new IllegalArgumentException(where + ": unknown key '" + k + "' (the keys are " + INPUT + ", " + OUTPUT
            + ", " + CACHE_READ + ", " + CACHE_WRITE + ")");
      }
    });
    double in = price(p, INPUT, where, null);
    double out = price(p, OUTPUT, where, null);
    return new Pricing(in, out, price(p, CACHE_READ, where, in), price(p, CACHE_WRITE, where, in));
  }

  private static double price(JsonNode p, String key, String where, Double absent) {
    JsonNode v = p.get(key);
    if (v == null || v.isNull()) {
      if (absent == null) {
        throw new IllegalArgumentException(where + ": " + key + " is missing");
      }
      return absent;
    }
    if (!v.isNumber() || v.asDouble() < 0 || !Double.isFinite(v.asDouble())) {
      throw new IllegalArgumentException(where + ": " + key + " must be a number >= 0 (USD per million tokens), was "
          + v);
    }
    return v.asDouble();
  }

  private static Optional<Double> decimal(Map<String, String> env, String var) {
    String v = env.get(var);
    if (v == null || v.isBlank()) {
      return Optional.empty();
    }
    try {
      double d = Double.parseDouble(v.trim());
      if (d < 0 || !Double.isFinite(d)) {
        throw new NumberFormatException();
      }
      return Optional.of(d);
    } catch (NumberFormatException e) {
      throw new ProviderConfigException(var, var + "='" + v + "' is not a price >= 0 in USD per million tokens, e.g. "
          + var + "=3.0");
    }
  }
}
