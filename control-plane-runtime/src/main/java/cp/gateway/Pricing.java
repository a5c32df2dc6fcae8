package cp.gateway;

/** US dollars per million input and output tokens for one provider. */
public record Pricing(double inputPerMillion, double outputPerMillion) {
  public static final Pricing FREE = new Pricing(0, 0);

  public Pricing {
    if (inputPerMillion < 0 || outputPerMillion < 0) {
      throw new IllegalArgumentException("prices must be >= 0");
    }
  }

  public double cost(long inputTokens, long outputTokens) {
    return (inputTokens * inputPerMillion + outputTokens * outputPerMillion) / 1_000_000.0;
  }
}
