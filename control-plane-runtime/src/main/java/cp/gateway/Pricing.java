package cp.gateway;

/**
 * US dollars per million tokens of one model: prompt tokens read fresh, completion tokens, prompt
 * tokens read from the provider's cache and prompt tokens written to it (issue 23).
 *
 * <p>A price given only as input and output (the {@code CP_PRICE_*} variables) charges cache
 * tokens at the input price: no discount is assumed where none was stated.
 */
public record Pricing(double inputPerMillion, double outputPerMillion, double cacheReadPerMillion,
    double cacheWritePerMillion) {
  public static final Pricing FREE = new Pricing(0, 0, 0, 0);
  private static final double PER_MILLION = 1_000_000.0;

  public Pricing {
    if (inputPerMillion < 0 || outputPerMillion < 0 || cacheReadPerMillion < 0 || cacheWritePerMillion < 0) {
      throw new IllegalArgumentException("prices must be >= 0");
    }
  }

  /** Input and output prices; cache tokens at the input price. */
  public Pricing(double inputPerMillion, double outputPerMillion) {
    this(inputPerMillion, outputPerMillion, inputPerMillion, inputPerMillion);
  }

  public double cost(long inputTokens, long outputTokens) {
    return cost(inputTokens, outputTokens, 0, 0);
  }

  /**
   * The cost of a call: {@code inputTokens} are all the prompt's tokens, of which
   * {@code cacheReadTokens} were read from the cache and {@code cacheWriteTokens} written to it.
   */
  public double cost(long inputTokens, long outputTokens, long cacheReadTokens, long cacheWriteTokens) {
    long fresh = Math.max(0, inputTokens - cacheReadTokens - cacheWriteTokens);
    return (fresh * inputPerMillion + outputTokens * outputPerMillion + cacheReadTokens * cacheReadPerMillion
        + cacheWriteTokens * cacheWritePerMillion) / PER_MILLION;
  }

  /**
   * The most a call can cost: every prompt token at the dearest prompt price (a cache write costs
   * more than a fresh read) and {@code maxOutputTokens} at the output price.
   */
  public double worstCase(long promptTokens, long maxOutputTokens) {
    double dearestInput = Math.max(inputPerMillion, Math.max(cacheReadPerMillion, cacheWritePerMillion));
    return (promptTokens * dearestInput + maxOutputTokens * outputPerMillion) / PER_MILLION;
  }
}
